"""Noisy variants of a training wording for the dialogue-act classifier (:mod:`nlu.acts`): how people type in a
chat, so the model learns the act and not the spelling. Lowercase, no punctuation, typos (a letter dropped,
doubled, swapped with its neighbour), chat spellings ("u", "r", "pls", "wat"), a filler before or after, an emoji.

Example::

    noisy_variants("Could you show me another one, please?", 2, seed=3)
    # ['could you show me anothr one please', 'cud u show me another one pls 🙏']
"""

from __future__ import annotations

import random
import re

__all__ = ["noisy_variants"]

_CHAT = {
    "you": "u",
    "your": "ur",
    "you're": "ur",
    "are": "r",
    "please": "pls",
    "what": "wat",
    "what's": "whats",
    "thanks": "thx",
    "why": "y",
    "because": "cuz",
    "something": "sth",
    "some": "sum",
    "with": "w",
    "to": "2",
    "for": "4",
    "okay": "ok",
    "could": "cud",
    "don't": "dont",
    "i'm": "im",
    "that": "dat",
    "the": "da",
    "give me": "gimme",
    "let me": "lemme",
    "want to": "wanna",
    "going to": "gonna",
    "another": "anotha",
    "anything": "anythin",
    "about": "abt",
    "them": "em",
    "really": "rly",
    "got you": "gotchu",
    "later": "l8r",
    "great": "gr8",
    "know": "kno",
    "this": "dis",
    "and": "n",
}
"""Common chat spellings; each is used only sometimes (``_CHAT_RATE``)."""
_CHAT_RATE = 0.5
_LEADS = ("ok ", "hmm ", "so ", "well ", "um ", "oh ", "alright ", "right, ", "yeah ", "haha ")
_TAILS = (
    " lol",
    " pls",
    " please",
    " thx",
    " :)",
    " 🙏",
    " 😅",
    " 👀",
    "!!",
    "...",
    " tbh",
    " haha",
    " ?",
    " 🤔",
    " 😊",
)
_COURTESY = ("merci", "danke", "gracias", "grazie", "obrigado", "bitte", "por favor", "s'il vous plaît", "bitteschön")
"""Courtesy words of other languages people mix into English (a closed class): a lead or a tail of any act, so the
model learns they decide none (a farewell's own words do, "ciao", "au revoir", in the training wordings)."""
_COURTESY_RATE = 0.1
_WORD = re.compile(r"[a-z']+")


def _typo(word: str, rng: random.Random) -> str:
    """One letter dropped, doubled or swapped with the next (words of 4 letters or more)."""
    if len(word) < 4:
        return word
    i = rng.randrange(1, len(word) - 1)
    kind = rng.randrange(3)
    if kind == 0:
        return word[:i] + word[i + 1 :]
    if kind == 1:
        return word[:i] + word[i] + word[i:]
    return word[:i] + word[i + 1] + word[i] + word[i + 2 :]


def _chat(text: str, rng: random.Random) -> str:
    """Chat spellings of :data:`_CHAT`, some of them."""
    for word, short in _CHAT.items():
        if rng.random() < _CHAT_RATE:
            text = re.sub(rf"\b{re.escape(word)}\b", short, text)
    return text


def _variant(text: str, rng: random.Random) -> str:
    """One noisy variant: always lowercase; then, each with its chance, no punctuation, chat spellings, typos, a
    filler before, a tail after."""
    out = text.lower()
    if rng.random() < 0.6:
        out = re.sub(r"[.,!?;:]", "", out)
    if rng.random() < 0.5:
        out = _chat(out, rng)
    if rng.random() < 0.6:
        words = out.split(" ")
        for _ in range(rng.choice((1, 1, 2))):
            k = rng.randrange(len(words))
            if _WORD.fullmatch(words[k]):
                words[k] = _typo(words[k], rng)
        out = " ".join(words)
    if rng.random() < 0.25:
        out = rng.choice(_LEADS) + out
    if rng.random() < 0.3:
        out = out + rng.choice(_TAILS)
    if rng.random() < _COURTESY_RATE:
        word = rng.choice(_COURTESY)
        out = f"{word}, {out}" if rng.random() < 0.5 else f"{out} {word}"
    return out.strip()


def noisy_variants(text: str, n: int, *, seed: int = 0) -> list[str]:
    """Up to ``n`` distinct noisy variants of ``text`` (deterministic for a seed), none equal to it."""
    rng = random.Random(seed)
    out: list[str] = []
    for _ in range(3 * n):
        variant = _variant(text, rng)
        if variant and variant != text and variant not in out:
            out.append(variant)
        if len(out) == n:
            break
    return out


_LEADS_INTO = {
    "why": ("card_seen", "card_skip", "smalltalk"),
    "details": ("card_seen", "card_skip", "smalltalk"),
    "trailer": ("card_skip", "smalltalk"),
    "more": ("card_skip", "smalltalk"),
    "bye": ("smalltalk",),
    "card_like": ("card_seen",),
    "card_dislike": ("card_seen",),
    "card_hedge": ("card_seen",),
}
"""An act whose wording may follow another clause that does not decide the message: "never heard of it, who's in
it?" asks about the card, "read it, loved it" rates it. The later clause carries the act."""
_JOINS = (", ", ". ", " - ", " but ", " ", "... ")


def compounds(examples: list[tuple[str, str]], n: int, *, seed: int = 0) -> list[tuple[str, str]]:
    """``n`` two-clause wordings per act of :data:`_LEADS_INTO`: a clause of a leading act, then one of the act."""
    rng = random.Random(seed)
    by_act: dict[str, list[str]] = {}
    for text, act in examples:
        by_act.setdefault(act, []).append(text)
    out: list[tuple[str, str]] = []
    for act, leads in _LEADS_INTO.items():
        if act not in by_act:
            continue
        pool = [t for lead in leads for t in by_act.get(lead, ())]
        for _ in range(n if pool else 0):
            first, second = rng.choice(pool).rstrip(".!"), rng.choice(by_act[act])
            join = rng.choice(_JOINS)
            out.append((first + join + (second if join.startswith(".") else second[:1].lower() + second[1:]), act))
    return out
