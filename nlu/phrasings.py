"""Requests whose wording leaves no doubt about the intent, however the classifier hears them (issue 12).

The intent recognizer learned the study's phrasing; people ask for the same things in other words
("What made you pick it for me?", "whats the genre", "Wipe my profile", "what have i liked so far",
"Got any movies my kids would like?", "I really like talking to you"). :func:`phrased_intent` reads
the kinds of request below from the folded text; ``nlu.understand`` overrules the classifier with it
when no question is open. The patterns are data: a new wording of a kind is a new alternative here,
never a rule for one sentence.

Kinds (each needs what it asks about to be there: a card for why / details):

- **why** (card on screen): "why ...", "what made you pick it", "how did you come up with this",
  "what does this have to do with what I like", "how is this related to ...", "where did that come from";
- **details** (card on screen): a question about a fact of the item ("what's the genre", "who directed
  it", "who's in it", "when was it released", "what album is it from", "what's it about", "how long is it");
- **skip** (card on screen): another item instead ("I'd rather see something else", "already seen it");
- **stop** (card on screen): no more recommendations now ("stop recommending", "I'm done for today");
- **help**: how to use the bot ("how do I rate things", "I'm confused"), about the card if one is shown;
- **reset**: wiping the whole profile ("delete all my preferences", "wipe my profile", "start over");
- **profile**: what the bot knows of the user ("what have I liked so far", "what do I like according to
  you", "what do you know about me", "which movies have I told you about");
- **recommend**: asking for something the user or someone would like ("got any movies my kids would
  like?", "anything I might enjoy?") with no title named;
- **likes the bot**: an opinion about talking to the bot or about the bot itself ("I really like talking
  to you", "I love this bot");
- **bye**: a message that ends with a goodbye ("thanks, bye", "ok gotta go, bye", "see ya", "k bye 👋"):
  the conversation ends, the list on screen is closed (issue 22).
"""

from __future__ import annotations

import re

from logs.schema import Intent
from nlu.textnorm import chat_spelling

__all__ = ["card_fact", "for_this_time", "phrased_intent"]

_WHY = re.compile(
    r"\bwhy\b(?!\s+not\b)"
    r"|\bwhat made (?:you|u) (?:pick|choose|select|recommend|suggest|think of)\b"
    r"|\bhow (?:did|do|come) (?:you|u) (?:come up with|pick|choose|get to|find|decide)\b"
    r"|\bhow come\b"
    r"|\bwhat(?:'s| is) (?:the|your) (?:reason|reasoning|logic|thinking|connection)\b"
    r"|\bwhat (?:does|has) (?:this|it|that) (?:got )?(?:to do with|in common with)\b"
    r"|\bhow (?:is|does) (?:this|it|that) (?:relate|related|connect|connected|fit|match)\b"
    r"|\bwhere (?:did|does|do) (?:this|that|it) (?:come|coming) from\b|\bwhere(?:'s| is) (?:this|that) coming from\b"
    r"|\b(?:is|was) (?:this|it|that)(?: one)? (?:because|based on|due to)\b"
    r"|\b(?:based on|because of) what\b|\bon what basis\b"
    r"|\b(?:explain|justify) (?:this|that|it|your|the) ?(?:choice|pick|recommendation|suggestion)?\b"
)
"""Asking why the item on screen was recommended."""
_GENRES = (
    r"comedy|drama|horror|thriller|romance|romcom|rom-com|musical|documentary|cartoon|animation|anime|western"
    r"|sci-fi|scifi|fantasy|mystery|crime|war|action|biography|memoir|novel|novella|series|sequel|prequel|remake"
    r"|trilogy|saga|classic|true story|short story|poem|poetry|collection|anthology|biopic|band|duo|group|solo"
    r"|singer|rapper|dj|album|single|ep|song|cover|live album|soundtrack|rock|pop|jazz|rap|hip hop|metal|punk|folk"
    r"|country|indie|electronic|techno|blues|soul|funk|reggae|classical|opera|scary|funny|sad|violent|animated"
    r"|long|short|old|new|recent|popular|famous|for kids|for children|kid friendly|family friendly|in english"
    r"|based on (?:a|the) (?:book|novel|true story|film|movie|comic|game)"
)
_DETAILS = re.compile(
    r"\bwhat(?:'s|s| is| was| are)? (?:the |its |their |his |her )?(?:genre|genres|plot|story|storyline|synopsis"
    r"|runtime|running time|length|rating|score|year|release date|premise|cast|setting|language|budget|duration"
    r"|tracklist|track list|page count|number of pages|ending|lineup|line-up|label|nationality|origin|style)\b"
    r"|\bwhat (?:genre|kind of \w+|type of \w+|sort of \w+|year|language|country) (?:is|are|was|were) (?:it|this|that|they)"
    r"\b"
    r"|\bwhat(?:'s| is|s) (?:it|this|that)(?: \w+)? about\b"
    r"|\b(?:give|tell|show|send|read) me (?:the |a |its )?(?:(?:short|quick|brief|little) )?(?:blurb|summary|synopsis"
    r"|description|overview|premise|plot|rundown|gist|lowdown|back cover)\b"
    r"|\bwhat(?:'s| is) (?:the|its) (?:blurb|gist|overview|description|summary)\b"
    r"|\bwho (?:directed|wrote|sings|sang|made|produced|stars in|plays in|is in|performs|composed|created|plays)\b"
    r"|\bwho(?:'s| is| are| was| were) (?:the )?(?:director|author|writer|singer|artist|band|cast|actors|members"
    r"|lead|star|stars|composer|producer|narrator)\b"
    r"|\bwho(?:'s| is| stars| plays| acts| sings| are)? in (?:it|this|that|the band|them)\b"
    r"|\bwho(?:'s| is| was) (?:it|this|that) by\b"
    r"|\bwhen (?:was|did|is|were) (?:it|this|that|they)(?: \w+)? (?:released|published|made|written|come out|came out"
    r"|out|from|formed|founded|recorded|filmed|start|started)\b"
    r"|\bwhat (?:album|record) is (?:it|this|that) (?:from|on)\b"
    r"|\b(?:what|which) (?:label|studio|publisher|publishing house|record company|company|network) (?:released|published"
    r"|made|produced|put out|is|was)\b"
    r"|\bhow (?:long|old|big) (?:is|are|was|were) (?:it|this|that|they|he|she)\b"
    r"|\bhow many (?:pages|songs|tracks|albums|episodes|seasons|parts|books|chapters|members|minutes)\b"
    r"|\bwhere (?:is|are|was|were|do|does|did) (?:it|this|that|they|he|she|the band|the author|the singer|the artist)"
    r"(?: \w+)? (?:from|come from|set|filmed|shot|recorded|made|based|located)\b"
)
"""A question about a fact of the item on screen (its details): its genre, plot, people, dates, length,
origin ("where are they from?", "who's the director?")."""
_TRAILER = re.compile(
    r"\b(?:trailers?|trailer's|previews?|teasers?|clips?|videos?|samples?|snippets?|excerpts?|sneak peek)\b"
    r"|\b(?:want to|like to|let me|can i|could i|may i) (?:hear|listen to|see|watch|play) (?:it|this|this one|a bit"
    r"|some of it|a little)\b"
)
"""Asking for a trailer, a preview or a sample of the item on screen ("is there a video about it?",
"I'd like to see a clip first", "I want to hear it")."""
_ABOUT_IT = re.compile(r"\b(?:it|this|this one|that one)\b")
"""The message refers to the item on screen (a trailer asked "for it" even when a word of it is linked)."""
_IS_IT = re.compile(
    r"^(?:so |and |but |ok |okay |hmm |wait )?(?:is|was|are|were) (?:it|this|that|they|he|she)(?: one| \w+)? "
    rf"(?:(?:a|an|the|kind of|sort of|really|very|too) )?(?:{_GENRES}|by|from|set in|written by|directed by|sung by"
    r"|with|starring)\b"
    r"|^(?:so |and |but |ok |okay |hmm |wait )?(?:does|did|has) (?:it|this|that|this one|they) (?:have|star|feature"
    r"|include) "
)
"""A yes/no question about a fact of the item on screen ("is it a comedy or a drama?", "is this by the
same author?", "does it have Tom Hanks in it?"): details even when it names a genre or a person (the
fact asked about, not another item)."""
_SKIP = re.compile(
    r"\b(?:something|anything) (?:else|different)\b|\banother one\b|\bwhat else\b|\bnext one\b"
    r"|\b(?:a |another )?different (?:one|option|pick|suggestion|recommendation|movie|film|book|novel|song|track"
    r"|album|artist|band|singer|title)\b"
    r"|\banother (?:option|pick|suggestion|recommendation|movie|film|book|novel|song|track|album|artist|band|singer"
    r"|title)\b"
    r"|\b(?:already|have|i've) (?:seen|watched|read|heard|listened to) (?:it|this|that|this one|that one)\b"
    r"|\bi (?:already|have already) (?:seen|watched|read|heard|listened to)\b"
)
"""Another item instead of the one on screen ("I'd rather see something else", "already seen it", "can I
see a different one?")."""
_STOP = re.compile(
    r"\b(?:i'?m|i am) (?:done|finished|good for (?:now|today))\b|\bstop (?:recommending|suggesting|here|now|for (?:now|today))\b"
    r"|\bno more (?:recommendations|suggestions|for (?:now|today))\b|\bthat'?s (?:enough|all) for (?:now|today)\b"
    r"|\blet'?s (?:stop|call it a day)\b|\bi'?ll stop\b"
)
"""No more recommendations now ("stop recommending", "I'm done for today", "let's call it a day")."""
_HELP = re.compile(
    r"\bhow (?:do|does|can|should|would|am|is) (?:i|you|we|one|this|it|this bot|this thing)(?: \w+){0,3} "
    r"(?:work|works|use|rate|start|begin|tell|say|let you know|give|talk|reply|answer|respond|interact|operate"
    r"|navigate|supposed to)\b"
    r"|\bwhat (?:can|do|should|am) i (?:do|say|type|ask|supposed to|write|tell you)\b"
    r"|\b(?:i'?m|i am) (?:lost|confused|stuck)\b|\bi (?:don'?t|do not) (?:get|understand) (?:it|this|how)\b"
    r"|\bi (?:don'?t|do not) know (?:how|what) to (?:do|use|say|type|start|begin)\b"
    r"|\bwhat (?:commands|options|features|functions|buttons|things)(?: \w+)? (?:are there|do you have|can i|are available"
    r"|do you (?:know|understand|support)|exist|are|is there)\b"
    r"|\b(?:list|show me|tell me|what are|give me) (?:the |your |all |all the |my )?(?:commands|options|features"
    r"|functions|instructions)\b"
    r"|\bwhat (?:else )?(?:can|do|could) (?:you|u) do\b|\bwhat are (?:you|u) (?:able to|capable of|for)\b"
)
"""How to use the bot ("how do I rate things", "how am I supposed to use this?", "what commands are there?",
"I'm confused")."""
_PROFILE_WORDS = r"(?:profile|preferences|ratings|likes|dislikes|data|history|list|opinions|taste|tastes|favourites"
_PROFILE_WORDS += r"|favorites|account)"
_RESET = re.compile(
    r"^(?:please |can you |could you |i want to |i'd like to |let'?s )?"
    r"(?:delete|remove|erase|wipe|clear|reset|forget|drop|empty|scrap)\s+"
    rf"(?:all|everything|(?:all )?(?:of )?(?:my|the) (?:whole |entire )?{_PROFILE_WORDS})\b"
    rf"|\b(?:delete|erase|wipe|clear|reset|scrap|forget|empty) (?:all )?(?:of )?(?:my|the) (?:whole |entire )?"
    rf"{_PROFILE_WORDS}\b"
    r"|\bforget (?:all |everything |all of )?(?:about )?(?:(?:everything|all|what) i (?:said|told you|like|liked|rated"
    r"|mentioned)|everything about me|about me|me)\b"
    r"|\b(?:start|begin|begin again|do it) (?:over|again|afresh|anew|fresh|from (?:zero|scratch|nothing|the (?:beginning"
    r"|start|top)))\b"
    r"|\b(?:clean|blank) slate\b|\bfresh start\b|\bfrom scratch\b"
)
"""Wiping the whole profile ("delete all my preferences", "wipe my profile", "start from scratch, forget my
likes")."""
_PROFILE = re.compile(
    r"\bwhat (?:have|did) (?:i|we) (?:liked?|loved?|rated?|told you|said|tell you|say)\b"
    r"|\bwhat (?:\w+ ){0,3}do i (?:like|love|enjoy)\b(?! about)"
    r"|\bwhat (?:do |did )?(?:you|u) (?:know|remember|have|got|store|stored|saved|keep|think you know) (?:about|on|of) me\b"
    r"|\bwhich \w+ (?:have|did) i (?:told you about|tell you about|liked?|rated?|mention(?:ed)?)\b"
    r"|\bwhat(?:'s| is| are| were) (?:in )?my (?:profile|list|likes|preferences|ratings|favourites|favorites|taste)\b"
    r"|\bremind me (?:of )?what i (?:liked?|said|told you|rated)\b"
)
"""What the bot knows of the user (the profile)."""
_CONSUME = r"(?:like|love|enjoy|dig|listen to|watch|read|hear|play|put on|try)"
_ITEMS = (
    r"(?:music|songs?|albums?|tracks?|tunes|bands?|artists?|books?|novels?|reads|movies?|films?|something|anything"
    r"|stuff|recommendations?|recs|suggestions?|ideas?|tips?)"
)
_RECOMMEND = re.compile(
    rf"\b(?:would|might|will|could|may|can|should|to)\s+(?:\w+\s+){{0,3}}{_CONSUME}\b"
    rf"|\b(?:i|we)'d\s+(?:like|love|enjoy)\s*\??$"
    rf"|^(?:i|we)(?: need| want|'d like| would like| could use|'m looking for| am looking for|'m after| am after) "
    rf"(?:some |a |an |more |new |good |fresh |different |great |nice |other |something )*{_ITEMS}\b"
    rf"|\b(?:in the mood for|feel like|feeling like|up for) (?:some |a |an |something )?(?:\w+ )?{_ITEMS}\b"
    r"|\bin the mood for (?:watching|reading|listening)\b|\bfeel(?:ing)? like (?:watching|reading|listening to)\b"
    r"|^(?:please |can you |could you |would you |will you )?(?:recommend|suggest)\b"
    rf"|^(?:any|some|got any|more) (?:\w+ )?(?:recommendations|recs|suggestions|ideas|tips)\b"
)
"""Asking for something someone would like ("got any movies my kids would like?", "what should I read?",
"I need new music")."""
_ASKING = re.compile(
    r"\?\s*$|^(?:got|have you got|do you have|any|anything|something|what|which|find|give|i|we|can|could|please"
    r"|recommend|suggest|some|more|in the mood|feel(?:ing)? like|up for)\b"
)
_NOT_A_NEW_REQUEST = re.compile(r"\bwhy\b|\bdid (?:you|u)\b|\bhow (?:do|does|can)\b")
"""A question about what was recommended or how to ask, not a request for something new."""
_THANKS = re.compile(r"\b(?:thanks|thank|cheers|appreciated|appreciate|ta)\b")
_THANKS_WORDS = frozenset(
    "thanks thank you so very much a lot bunch ton many ok okay nice one great cool awesome perfect good lovely"
    " brilliant sweet wow oh alright right got it stuff appreciated appreciate cheers mate man buddy dude bot again"
    " for that this the help tip tips suggestion suggestions recommendation recommendations info really ta".split()
)
"""Words of a message that only thanks ("nice one, thank you", "ok cheers mate", "thanks a lot for the tip")."""
_ABOUT_THE_BOT = re.compile(
    r"\b(?:like|love|enjoy|adore)\s+(?:talking|chatting|speaking)\s+(?:to|with)\s+(?:you|u)\b"
    r"|\b(?:like|love|adore)\s+(?:you|u|this bot|this chat|you bot|this app)\s*[!.]*$"
)
"""An opinion about the bot itself ("I really like talking to you", "I love this bot")."""
_BOT_IS = r"^(?:oh |wow |aw+ |ok |okay )?(?:you(?:'re| are)|your|this bot is|this chat is|the bot is)(?: such| so| really| very| pretty| the| a| an)*"
_BOT_GOOD = re.compile(
    _BOT_IS + r" (?:great|awesome|amazing|cool|nice|fun|helpful|smart|clever|best|good|brilliant|fantastic|wonderful"
    r"|lovely|sweet|genius|legend|star|champ|good bot|great bot)\b"
)
_BOT_BAD = re.compile(
    _BOT_IS + r" (?:useless|stupid|dumb|bad|terrible|awful|worst|rubbish|garbage|trash|annoying|boring|hopeless|broken"
    r"|idiot|joke|waste of time)\b"
)
"""Praise or blame of the bot ("you're great", "you are so helpful", "this bot is useless"): the message is
about "you" (the bot), not a title; no title opens with "you're"."""
_WORDS = re.compile(r"[a-z]+")
_BYE = re.compile(
    r"(?:^|[\s,.!;:-])(?:bye+|bye bye|goodbye|good bye|cya|see (?:ya|you|u)(?: (?:later|soon|around|tomorrow))?"
    r"|laters|gotta go|got to go|have to go|ttyl|talk (?:to you )?later|good ?night|farewell|take care|gtg|g2g"
    r"|peace out)\W*$"
)
"""A goodbye that ends the message ("thanks, you're a good bot. bye", "ok cya"): the last thing said."""


def _only_thanks(folded: str) -> bool:
    """The message only thanks (with appraisal words and fillers around), and is no "no thanks"."""
    words = _WORDS.findall(folded)
    return bool(_THANKS.search(folded)) and "no" not in words and all(w in _THANKS_WORDS for w in words)


def phrased_intent(folded: str, *, focus: bool, named: bool) -> str | None:
    """The intent a request's wording leaves no doubt about, or None.

    Args:
        folded: the message, folded (``nlu.textnorm.fold``).
        focus: a recommendation card is on screen (why / details are about it).
        named: the message names an entity the linker knows (a title asked for by name is no
            request "for something I'd like").
    """
    folded = chat_spelling(folded)
    if focus and _WHY.search(folded):
        return Intent.REC_WHY.value
    if _RESET.search(folded):
        return Intent.RESET_PROFILE.value
    if _PROFILE.search(folded):
        return Intent.SHOW_PROFILE.value
    if not named and _HELP.search(folded):
        return Intent.REC_HELP.value if focus else Intent.HELP.value
    if focus and _TRAILER.search(folded) and (not named or _ABOUT_IT.search(folded)):
        return Intent.REC_TRAILER.value
    if focus and (_IS_IT.search(folded) or not named and _DETAILS.search(folded)):
        return Intent.REC_DETAILS.value
    if focus and not named and _SKIP.search(folded):
        return Intent.REC_SKIP.value
    if focus and _STOP.search(folded):
        return Intent.REC_STOP.value
    if _ABOUT_THE_BOT.search(folded):
        return (
            "smalltalk.user.loves_agent" if re.search(r"\b(?:love|adore)\b", folded) else "smalltalk.user.likes_agent"
        )
    if not named and _BOT_GOOD.search(folded):
        return "smalltalk.agent.good"
    if not named and _BOT_BAD.search(folded):
        return "smalltalk.agent.bad"
    if _BYE.search(folded):
        return "smalltalk.greetings.bye"
    if _only_thanks(folded):
        return "smalltalk.appraisal.thank_you"
    if (
        not named
        and not focus
        and _RECOMMEND.search(folded)
        and _ASKING.search(folded)
        and not _NOT_A_NEW_REQUEST.search(folded)
    ):
        return Intent.RECOMMENDATION.value
    return None


_CREATOR_FACT = re.compile(
    r"\bwho(?:'s| is| was)? (?:it|this|that|this one|that one|the song|the book|the film|the movie|the album) by\b"
    r"|\bby whom\b|\bwho (?:made|wrote|directed|sings|sang|performs|performed|did|recorded) (?:it|this|that)\b"
    r"|\bwho(?:'s| is| was) (?:the )?(?:director|author|writer|singer|artist|band|performer|creator)\b"
    r"|\bwho (?:is|was) (?:it|this|that) from\b|\bwhose (?:song|book|film|movie|album) is (?:it|this|that)\b"
)
_YEAR_FACT = re.compile(
    r"\bwhen (?:is|was|did|were) (?:it|this|that|this one|that one)(?: \w+)? (?:from|released|published|made|written"
    r"|out|come out|came out|recorded|filmed)\b"
    r"|\bwhat year\b|\bwhich year\b|\bhow old is (?:it|this|that)\b|\brelease date\b|\bpublication date\b"
    r"|\bwhen(?:'s| is| was) (?:it|this|that) from\b"
)


def card_fact(folded: str) -> str | None:
    """The one fact of the item on screen a question asks for: ``"creator"`` ("who is it by?", "who
    directed it?", "who's the author?") or ``"year"`` ("when is it from?", "what year is it?"); None
    for any other question (the details answer those)."""
    if _CREATOR_FACT.search(folded):
        return "creator"
    if _YEAR_FACT.search(folded):
        return "year"
    return None


_THIS_TIME = re.compile(
    r"\b(?:this time|for now|for today|for tonight|right now|at the moment|for the moment|this round"
    r"|in this list|for this list|for this one|for a change|for once)\b"
    r"|^(?:ok |okay |and |but |so |hmm )?(?:no|without|nothing with|nothing by|skip the|none of the|not) [^,.!?]*\bplease\b"
    r"|^(?:ok |okay |and |but |so )?(?:please )?(?:no more|nothing with|nothing by|without) \w"
)
"""A constraint said for now only ("not Radiohead this time", "no horror please", "without Tom Cruise
please", "nothing by Stephen King for now"): it holds for the session, it is not a stored opinion."""


def for_this_time(folded: str) -> bool:
    """Whether the message says its constraint holds for now only (see :data:`_THIS_TIME`)."""
    return bool(_THIS_TIME.search(folded))
