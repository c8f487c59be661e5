"""Every user-facing text of the bot, in one place so that it can be reviewed (STYLE H14).

Texts are plain strings with ``{name}`` placeholders; channels escape them for their markup.
"""

from __future__ import annotations

DOMAIN_NOUNS = {"movie": "movies", "book": "books", "music": "music"}
SUGGEST_NOUNS = {"movie": "movies", "book": "books", "music": "artists and albums"}
ITEM_NOUNS = {"movie": "movie", "book": "book", "music": "song or album"}

WELCOME = (
    "Hi! I recommend {nouns} from Wikidata. Tell me what you like or dislike, e.g. "
    "{example}. {ready}. Switch domain with /movie, /book or /music."
)
WELCOME_READY_ONE = 'Then ask me "{ask}"'
WELCOME_READY_MANY = 'After {min_prefs} preferences, ask me "{ask}"'
"""When the welcome says a list can be asked for: right away (one preference) or after a study's minimum."""
WELCOME_EXAMPLES = {
    "movie": '"I love Christopher Nolan, but I don\'t like Interstellar"',
    "book": '"I love Stephen King, but I don\'t like The Shining"',
    "music": '"I love Daft Punk, but I don\'t like disco"',
}
WELCOME_ASK = {"movie": "what should I watch?", "book": "what should I read?", "music": "what should I listen to?"}
POLARITY_MARKS = {"+": "\U0001f44d", "-": "\U0001f44e"}
"""How a stored opinion is shown: thumbs up / down (the log keeps the dataset's "+" / "-")."""
HELP = (
    'You can tell me what you like ("I like Tom Cruise", "I hate horror films"), ask for '
    'recommendations ("recommend me something"), see your profile ("show my profile") or reset it '
    '("reset my profile"). During recommendations say "I like it", "I don\'t like it", "skip", '
    '"why?", "details", "trailer", or critique ("I like it, but not Mel Gibson"). Domain: {domain}.'
)
DOMAIN_SWITCHED = "Now we talk about {nouns}. Tell me something you like."
DOMAIN_NOW = "Now we talk about {nouns}."
"""A switch said with more in the same message ("what about books? I loved Dune"): the rest follows."""
EMPTY_INPUT = "I can only read words. Tell me a title or a name you like, or type /help."
FALLBACK = (
    "Sorry, I didn't get that. You can tell me a {item} or a person you like, ask for recommendations, or type /help."
)
FALLBACK_IN_RECOMMENDATION = (
    'Sorry, I didn\'t get that. About "{title}": say "I like it", "I don\'t like it", "skip", "why?" or "details".'
)
FALLBACK_IN_QUESTION = "Sorry, I didn't get that. {question}"
NOT_UNDERSTOOD = "Sorry, I didn't get that."
OFF_TOPIC = (
    "I can only talk about films, books and music. Tell me a {item} or a person you like, or ask for recommendations."
)
OFF_TOPIC_AT_CARD = 'I can only talk about films, books and music. About "{title}": say "I like it", "I don\'t like it", "skip" or "why?".'
"""A message that is no answer to the open question: the question follows after it, once ("Still open: ...")."""
WHICH_ONE_FIRST = "Tell me which one you mean first, please."
"""An opinion about "it" ("I like it") while a question asks which one is meant."""
NOTHING_FOUND = "I couldn't find that in my knowledge base. Try the full title or name."
STORED = "Got it: {items}."
STORED_NEED_MORE = "Got it: {items}. Tell me {left} more {things} you like or dislike, then ask for recommendations."
THING, THINGS = "thing", "things"
STORED_READY = "Got it: {items}. You can ask for recommendations now, or tell me more."
ITEM_QUESTION = 'Which "{mention}" do you mean?'
TOOK_ONLY = 'I took {name} for "{mention}": say "not that one" if you meant something else.'
NOT_THAT_ONE = "Not that one"
NOT_THIS = "Not {name}"
"""A name with one unsure reading: no question with one option (issue 22), the reading is taken and said."""
ROLE_QUESTION = "{label}: do you mean as {roles}?"
CONFIRM_QUESTION = "Did you like {label}?"
NONE_OF_THESE = "None of these"
SKIPPED = "OK, let's skip that."
NO_OPINION_SKIPPED = "OK, no opinion on {title}: I won't store anything about it."
RETRACTED = "OK, I took that back: {items} removed from your profile."
RETRACTED_NOTHING = "OK, I won't store {items}."
CARD_SKIPPED = "OK, skipped {title}: nothing stored about it."
NOT_STORED = "OK, I won't store {label}."
STORED_WITHOUT_ROLE = "I stored {polarity} {label} without a role ({roles}); say the role to be precise."
ITS_ROLES = "its roles"
QUESTION_STILL_OPEN = '(Still open: {question} Answer with a number or a name, or say "skip".)'
QUESTION_LATER = 'I\'ll come back to "{mention}" after this.'
QUESTION_DROPPED = 'I dropped my question about "{mention}": tell me again if you want it stored.'
QUESTIONS_DROPPED = "I dropped my questions about {mentions}: tell me again if you want them stored."
QUESTION_STILL_OPEN_AT_CARD = '(Still open: {question} Say "I liked {mention}" or "I didn\'t like {mention}".)'
QUESTION_STILL_OPEN_YES_NO = '(Still open: {question} Answer yes or no, or say "skip".)'
SUGGEST_TEXT = 'Not sure what to tell me? Do you like any of these {nouns}: {items}? Say e.g. "I like {first}" or "I don\'t like {first}".'
SUGGEST_BUTTONS = "Not sure what to tell me? Tap the {nouns} you like below, or tell me what you think of them."
RATE_BUTTON = "👍 {name}"
NEED_MORE = "I need at least {min_prefs} preferences to recommend (you have {have}). Tell me what you like."
REFERRED_NOT_FOUND_EMPTY = 'I couldn\'t find what you told me just before, so I have nothing to build "like it" on yet.'
REFERRED_NOT_FOUND = "I couldn't find what you told me just before, so this list comes from the rest of what you like."
"""A request for more like "it" right after a title the KB lacks (issue 22-R), with or without other likes."""
ANSWER_FIRST = 'I\'ll recommend from "{mention}" once I know which you mean. {question}'
"""A list asked for with an empty profile (one preference is enough in chat and Telegram)."""
BASED_ON = "Based on {names}:"
"""The first card of a list says what the list comes from: the request's seeds, else the user's likes."""
BASED_ON_MORE = "{names} and {n} more"
REQUEST_TOOK = 'I took {name} for "{mention}": say which one if you meant another.'
REQUEST_UNKNOWN = "I don't know \"{name}\" yet, so I can't use it."
"""Notes of a request that names items (``bot/dialog/requests.py``): the reading taken, a name not found."""
NO_RECOMMENDATION = "I have nothing left to recommend right now. Tell me more of what you like."
REQUIRE_UNMET = "I have no {nouns} with {names} left to show you, so here are others you may like."
"""A list asked for with a requirement ("anything else by X?", "a comedy") no item left to show has."""
FALLBACK_POPULAR = "I don't know your tastes well enough yet ({reason}), so here are popular {nouns}."
FALLBACK_REASONS = {
    "no_likes": "you haven't told me anything you like",
    "unknown_likes": "what you like is not in my knowledge base yet",
    "isolated_likes": "what you like has no links in my knowledge base",
}
FALLBACK_REASON_DEFAULT = "I know too little of it"
SERVICE_ERROR = (
    "Sorry, something went wrong on my side (the knowledge base or a model is unavailable). Please try again later."
)
STORAGE_ERROR = "Sorry, I could not save that just now, so nothing changed. Please send it again in a moment."
REC_CARD = "{position}/{total}: {title}{extra}\nDo you like it? You can also ask why, details{more}, or skip."
REC_CARD_MORE = {"trailer": ", trailer", "listen": ", listen", "read": ", read"}
"""What a card offers besides why and details: only what the item has (a trailer, a page to listen
to it or to read it)."""
LIST_KEPT = 'Say "more" whenever you want another one.'
"""After thanks at a card: the list stays open, the card is not shown again."""
REC_FINISHED = "That was the last one of this list. Ask for more recommendations whenever you like."
REC_STOPPED = "OK, I stopped the recommendations."
NO_ITEM_ON_SCREEN = "There is no recommendation on screen. Ask me for recommendations first."
WHY = "Why {title}? {reasons}"
WHY_NONE = "I suggested {title} because it is popular and close to what you like."
DETAILS_NONE = "I have no details for {title}."
TRAILER = "Trailer / preview of {title}: {url}"
TRAILER_NONE = "I have no trailer for {title}. You can search for one: {url}"
CRITIQUE_ROLE = "Which one do you mean: {options}?"
CRITIQUE_DONE = "Noted: {items}. I re-ranked the remaining suggestions."
CRITIQUE_ROLE_DONE = "{name} as {role}"
"""A value disliked (or liked) in one role, in "Noted: ..." ("Quentin Tarantino as director (-)")."""
LEFT_OUT = "I left out {what}, as you asked."
NOTHING_ELSE = "I have nothing else left to suggest, so this list has {what} in it."
SESSION_CONSTRAINT = "OK, no {what} this time."
SESSION_CONSTRAINT_NONE = 'Sorry, I couldn\'t tell what to leave out. Name it, e.g. "no horror this time".'
CONSTRAINT_NOUNS = {"movie": "films", "book": "books", "music": "songs"}
CONSTRAINT_ANY = {"movie": "films with {x}", "book": "books by {x}", "music": "songs by {x}"}
"""What a constraint on a person or band in any role leaves out ("films with Tom Cruise")."""
CONSTRAINT_ROLE = {
    "P57": "{nouns} directed by {x}",
    "P161": "{nouns} with {x}",
    "P58": "{nouns} written by {x}",
    "P50": "{nouns} by {x}",
    "P175": "{nouns} by {x}",
    "P86": "{nouns} with music by {x}",
    "P162": "{nouns} produced by {x}",
    "P1431": "{nouns} produced by {x}",
    "P676": "{nouns} with lyrics by {x}",
    "P179": "{nouns} of {x}",
    "P361": "{nouns} from {x}",
    "P264": "{nouns} on {x}",
    "P123": "{nouns} published by {x}",
}
"""What a constraint in one role leaves out ("films directed by Quentin Tarantino")."""
WHY_CONFLICT = "{conflicts}, but {reasons}"
"""An explanation that names what still speaks against the item ("It is a horror film, which you
dislike, but you like Quentin Tarantino, who directed it.")."""
CONFLICT_DISLIKED = "{claim}, which you don't like"
CONFLICT_SESSION = "{claim}, which you asked me to leave out this time"
CONFLICT_CREATOR = "{claim}, like {other}, which you don't like"
CARD_BY = "{title}, by {names}"
"""A card's title with its creator ("Dunkirk (2017), by Christopher Nolan")."""
FACT_BY = {
    "director": "{title} was directed by {names}.",
    "author": "{title} was written by {names}.",
    "band": "{title} is by {names}.",
    "artist": "{title} is by {names}.",
}
FACT_BY_DEFAULT = "{title} is by {names}."
FACT_BY_UNKNOWN = "I don't know who made {title}: my knowledge base has no {role} for it."
FACT_YEAR = "{title} is from {year}."
FACT_YEAR_UNKNOWN = "I don't know when {title} is from: my knowledge base has no date for it."
CREATOR_ROLE_WORDS = {"movie": "director", "book": "author", "music": "performer"}
LISTEN = "Listen to {title}: {url}"
READ = "Read {title}: {url}"
PROFILE_EMPTY = "Your {nouns} profile is empty. Tell me what you like!"
PROFILE = 'Your {nouns} profile:\n{lines}\nSay "delete X" to remove one, or "reset my profile".'
PROFILE_LINE = "{sign} {label}{role}"
DELETE_NOT_FOUND = "I couldn't find that in your profile."
DELETED = "Removed {label} from your profile."
RESTORED = "OK, {labels} is back in your profile."
REVISED = "Changed: {items}."
RESET_WHAT = (
    "What should I reset: everything (movies, books and music), only the {items}, or only the properties "
    "(people, genres...) of {items}?"
)
RESET_CONFIRM = "Are you sure you want to reset {what}? (yes/no)"
RESET_DONE = "Done: I reset {what}."
RESET_CANCELLED = "OK, nothing was reset."
RESET_YES_OR_NO = "Please answer yes or no: {question}"
RESET_WHICH = "Which one? {question}"
UNAVAILABLE = "Sorry, the {what} is not available right now ({reason}). Try again later."
SMALLTALK = {
    "smalltalk.greetings.hello": "Hello! Tell me a {item} you like, or ask for recommendations.",
    "smalltalk.greetings.bye": "Bye! Come back for more {nouns}.",
    "smalltalk.greetings.how_are_you": "I'm fine, thanks! Ready to find you some {nouns}.",
    "smalltalk.appraisal.thank_you": "You're welcome!",
    "smalltalk.appraisal.good": "Glad you like it!",
    "smalltalk.appraisal.bad": "Sorry about that. Tell me more of what you like and I'll do better.",
    "smalltalk.agent.bad": "I'm sorry you feel that way. I'm still learning; tell me what you like and I'll try again.",
    "smalltalk.user.angry": "I'm sorry. Let's try again: tell me a {item} you like.",
    "smalltalk.agent.acquaintance": "I'm a recommender bot: I suggest {nouns} from Wikidata using what you tell me.",
    "smalltalk.user.loves_agent": "That's kind of you! Tell me which {nouns} you love.",
    "smalltalk.user.likes_agent": "Thanks! Tell me which {nouns} you like.",
}
SMALLTALK_DEFAULT = "Nice chatting! Tell me a {item} you like, or ask for recommendations."

# --- button labels and other short texts shown by the dialog manager -----------------------------
YES = "Yes"
NO = "No"
RECOMMEND_AGAIN = "Recommend again"
RECOMMEND_MORE = "Recommend more"
CARD_BUTTONS = (
    ("👍 Like", "like"),
    ("👎 Dislike", "dislike"),
    ("Skip", "skip"),
    ("Why?", "why"),
    ("Details", "details"),
)
"""(label, payload action) of the buttons under every recommendation card."""
CARD_MEDIA_BUTTONS = {"trailer": "🎬 Trailer", "listen": "🎧 Listen", "read": "📖 Read"}
"""The card's media button, only where the item has it: a trailer (films), a page to listen to it
(music) or to read it (books); each sends ``trailer:<QID>`` (the study's trailer act)."""
RESET_EVERYTHING_BUTTON = "Everything"
RESET_ITEMS_BUTTON = "Only {items}"
RESET_PROPERTIES_BUTTON = "Only properties"
RESET_LABELS = {
    "everything": "your whole profile (movies, books and music)",
    "items": "the items you rated",
    "properties": "the people, genres and other properties you rated",
}
"""What a reset removes, as said in "Are you sure you want to reset {what}?"."""
STALE_QUESTION = "That button belongs to an older question, so I didn't take it."
STALE_LIST = "That list is out of date (it belongs to an older message). Ask me again, or tap below for a fresh one."
STALE_SUGGESTION = "That suggestion is out of date. Tell me a title or a name you like instead."
DETAILS_PEOPLE = "{role}: {names}"
DETAILS_GENRES = "Genres: {names}"
DETAILS_LINK = "{site}: {url}"

# active elicitation (issue 13, bot/dialog/suggestions.py)
SUGGESTION_START = "Now a few {nouns} to rate: it helps me learn your taste faster."
SUGGESTION_ASK = "Do you like {title}?"
SUGGESTION_HINT = 'Say "I like it", "I don\'t like it" or "Skip" (or tell me about another title).'
SUGGESTION_SKIPPED = "OK, skipped {title}."
SUGGESTION_WHY = (
    "{title} is not a recommendation yet: I ask about a few {nouns} you may know, to learn your taste faster."
)
SUGGESTION_BUTTONS = (("👍 I like it", "+"), ("👎 I don't like it", "-"), ("⏭ Skip", "skip"))
"""The suggestion card's buttons: label and what it says (payload ``sugg:<said>:<QID>@<stamp>``)."""
ALL_VALUES_QUESTION = "You {verb} these of {title}: {values}. Right?"
LIKE_VERBS = {"+": "like", "-": "don't like"}
