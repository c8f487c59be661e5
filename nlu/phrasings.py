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
  to you", "I love this bot").
"""

from __future__ import annotations

import re

from logs.schema import Intent

__all__ = ["phrased_intent"]

_WHY = re.compile(
    r"\bwhy\b(?!\s+not\b)"
    r"|\bwhat made (?:you|u) (?:pick|choose|select|recommend|suggest|think of)\b"
    r"|\bhow (?:did|do|come) (?:you|u) (?:come up with|pick|choose|get to|find|decide)\b"
    r"|\bhow come\b"
    r"|\bwhat(?:'s| is) (?:the|your) (?:reason|reasoning|logic|thinking)\b"
    r"|\bwhat (?:does|has) (?:this|it|that) (?:got )?(?:to do with|in common with)\b"
    r"|\bhow (?:is|does) (?:this|it|that) (?:relate|related|connect|connected|fit)\b"
    r"|\bwhere did (?:this|that|it) come from\b"
)
"""Asking why the item on screen was recommended."""
_DETAILS = re.compile(
    r"\bwhat(?:'s|s| is| was)? (?:the |its )?(?:genre|plot|story|storyline|synopsis|runtime|running time|length"
    r"|rating|year|release date|premise)\b"
    r"|\bwhat (?:genre|kind of \w+|type of \w+|year) is (?:it|this|that)\b"
    r"|\bwhat(?:'s| is|s) (?:it|this|that)(?: \w+)? about\b"
    r"|\bwho (?:directed|wrote|sings|sang|made|produced|stars in|plays in|is in|performs|composed)\b"
    r"|\bwho(?:'s| is) (?:the )?(?:director|author|writer|singer|artist|band|cast)\b"
    r"|\bwho(?:'s| is| stars| plays| acts)? in (?:it|this|that)\b"
    r"|\bwhen (?:was|did) (?:it|this|that)(?: \w+)? (?:released|published|made|written|come out|came out|out)\b"
    r"|\bwhat (?:album|record) is (?:it|this|that) (?:from|on)\b"
    r"|\bhow long is (?:it|this|that)\b"
)
"""A question about a fact of the item on screen (its details)."""
_SKIP = re.compile(
    r"\b(?:something|anything) (?:else|different)\b|\banother one\b|\bwhat else\b|\bnext one\b"
    r"|\b(?:already|have) (?:seen|watched|read|heard) (?:it|this|that)\b"
)
"""Another item instead of the one on screen ("I'd rather see something else", "already seen it")."""
_STOP = re.compile(
    r"\b(?:i'?m|i am) (?:done|finished|good for (?:now|today))\b|\bstop (?:recommending|suggesting|here|now|for (?:now|today))\b"
    r"|\bno more (?:recommendations|suggestions|for (?:now|today))\b|\bthat'?s (?:enough|all) for (?:now|today)\b"
    r"|\blet'?s (?:stop|call it a day)\b|\bi'?ll stop\b"
)
"""No more recommendations now ("stop recommending", "I'm done for today", "let's call it a day")."""
_HELP = re.compile(
    r"\bhow (?:do|does|can|should) (?:i|you|we|this|it)(?: \w+)? (?:work|use|rate|start|begin)\b"
    r"|\bwhat (?:can|do|should|am) i (?:do|say|type|ask|supposed to do)\b"
    r"|\b(?:i'?m|i am) (?:lost|confused|stuck)\b|\bi (?:don'?t|do not) (?:get|understand) (?:it|this|how)\b"
)
"""How to use the bot ("how do I rate things", "what am I supposed to do", "I'm confused")."""
_RESET = re.compile(
    r"^(?:please |can you |could you |i want to |i'd like to |let'?s )?"
    r"(?:delete|remove|erase|wipe|clear|reset|forget|drop|empty|scrap)\s+"
    r"(?:all|everything|(?:all )?(?:of )?(?:my|the) (?:whole |entire )?(?:profile|preferences|ratings|likes|data|history"
    r"|list|opinions))\b"
)
"""Wiping the whole profile ("delete all my preferences", "wipe my profile", "clear my ratings")."""
_PROFILE = re.compile(
    r"\bwhat (?:have|did) (?:i|we) (?:liked?|loved?|rated?|told you|said|tell you|say)\b"
    r"|\bwhat (?:\w+ )?do i (?:like|love|enjoy)\b(?! about)"
    r"|\bwhat do you know about me\b"
    r"|\bwhich \w+ (?:have|did) i (?:told you about|tell you about|liked?|rated?|mention(?:ed)?)\b"
    r"|\bwhat(?:'s| is) (?:in )?my (?:profile|list)\b"
)
"""What the bot knows of the user (the profile)."""
_RECOMMEND = re.compile(
    r"\b(?:would|might|will|could|may)\s+(?:like|love|enjoy|dig)\b"
    r"|\b(?:i|we|they|he|she)'d\s+(?:like|love|enjoy)\s*\??$"
)
"""Asking for something someone would like ("got any movies my kids would like?")."""
_ASKING = re.compile(r"\?\s*$|^(?:got|have you got|do you have|any|anything|something|what|which|find|give)\b")
_ABOUT_THE_BOT = re.compile(
    r"\b(?:like|love|enjoy|adore)\s+(?:talking|chatting|speaking)\s+(?:to|with)\s+(?:you|u)\b"
    r"|\b(?:like|love|adore)\s+(?:you|u|this bot|this chat|you bot|this app)\s*[!.]*$"
)
"""An opinion about the bot itself ("I really like talking to you", "I love this bot")."""


def phrased_intent(folded: str, *, focus: bool, named: bool) -> str | None:
    """The intent a request's wording leaves no doubt about, or None.

    Args:
        folded: the message, folded (``nlu.textnorm.fold``).
        focus: a recommendation card is on screen (why / details are about it).
        named: the message names an entity the linker knows (a title asked for by name is no
            request "for something I'd like").
    """
    if focus and _WHY.search(folded):
        return Intent.REC_WHY.value
    if focus and not named and _DETAILS.search(folded):
        return Intent.REC_DETAILS.value
    if focus and not named and _SKIP.search(folded):
        return Intent.REC_SKIP.value
    if focus and _STOP.search(folded):
        return Intent.REC_STOP.value
    if not named and _HELP.search(folded):
        return Intent.REC_HELP.value if focus else Intent.HELP.value
    if _RESET.search(folded):
        return Intent.RESET_PROFILE.value
    if _PROFILE.search(folded):
        return Intent.SHOW_PROFILE.value
    if _ABOUT_THE_BOT.search(folded):
        return (
            "smalltalk.user.loves_agent" if re.search(r"\b(?:love|adore)\b", folded) else "smalltalk.user.likes_agent"
        )
    if not named and not focus and _RECOMMEND.search(folded) and _ASKING.search(folded):
        return Intent.RECOMMENDATION.value
    return None
