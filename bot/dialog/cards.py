"""Cards people can judge an item by (issue 23): the card line, its buttons, details, media, facts.

Everything shown comes from ``recommender.cards.item_card`` (the KB only): the creator whenever the KB
knows one ("Dunkirk (2017), by Christopher Nolan"), the year, the image (the ``Reply`` carries it: a
photo on Telegram, ``image`` in ``chat --jsonl``), and one media button only where the item has it (a
trailer for a film, a page to listen to a song or to read a book; all send the study's trailer act).
"who is it by?" and "when is it from?" (``TurnParse.card_fact``) are answered from the card's item.
Texts and labels live in ``bot/messages.py``.
"""

from __future__ import annotations

from bot import messages as msg
from bot.dialog.context import TurnContext
from bot.dialog.render import BARE_QID, display
from bot.turns import Choice
from recommender.cards import ItemCard, item_card


def card_of(ctx: TurnContext, qid: str) -> ItemCard:
    """The item's card (``recommender.cards.item_card`` over the domain's knowledge base)."""
    return item_card(ctx.kb, qid)  # type: ignore[arg-type]


def media(found: ItemCard) -> str | None:
    """What the item offers beyond its details: ``"trailer"``, ``"listen"``, ``"read"``, or None."""
    if found.trailer:
        return "trailer"
    if found.listen:
        return "listen"
    if found.read:
        return "read"
    return None


def card_buttons(ctx: TurnContext, qid: str | None, found: ItemCard | None = None) -> tuple[Choice, ...]:
    """The card's buttons: like, dislike, skip, why, details, and its media button only where the
    item has one. Payloads carry the item's QID (``like:Q42``), so a tap on an older card is
    answered "out of date" instead of rating another item."""
    if qid is None:
        return tuple(Choice(label, action) for label, action in msg.CARD_BUTTONS)
    found = found or card_of(ctx, qid)
    buttons = [Choice(label, f"{action}:{qid}") for label, action in msg.CARD_BUTTONS]
    kind = media(found)
    if kind is not None:
        buttons.append(Choice(msg.CARD_MEDIA_BUTTONS[kind], f"trailer:{qid}"))
    return tuple(buttons)


def card_title(ctx: TurnContext, qid: str, found: ItemCard | None = None) -> str:
    """The item's name and year, with its creator when the KB knows one."""
    found = found or card_of(ctx, qid)
    title = display(ctx, qid)
    names = [n for n in found.creators if not BARE_QID.match(n)]
    return msg.CARD_BY.format(title=title, names=_names(names)) if names else title


def card_more(found: ItemCard) -> str:
    """The card's ", trailer" / ", listen" / ", read" hint (empty when the item has none)."""
    kind = media(found)
    return msg.REC_CARD_MORE[kind] if kind else ""


def _names(names: list[str] | tuple[str, ...]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def details_reply(ctx: TurnContext, qid: str) -> tuple[str, str | None]:
    """The details of an item (title, creator, description, people by role, genres, links) and its
    image URL, for the card on screen, an item named outside a list and a suggested item alike."""
    found = card_of(ctx, qid)
    lines = [display(ctx, found.qid)]
    if found.description:
        lines.append(found.description)
    for role, names in found.people:
        shown = [name for name in names if not BARE_QID.match(name)]  # never a bare QID to a user
        if shown:
            lines.append(msg.DETAILS_PEOPLE.format(role=role.capitalize(), names=", ".join(shown)))
    if found.genres:
        lines.append(msg.DETAILS_GENRES.format(names=", ".join(found.genres)))
    lines.extend(msg.DETAILS_LINK.format(site=site, url=url) for site, url in found.links)
    reply = "\n".join(lines) if len(lines) > 1 else msg.DETAILS_NONE.format(title=lines[0])
    return reply, found.image


def trailer_reply(ctx: TurnContext, qid: str) -> str:
    """The trailer of ``qid`` (a card's item or a suggested one), else its page to listen to or read,
    else an honest preview note with a search link."""
    found = card_of(ctx, qid)
    title = display(ctx, found.qid)
    if found.trailer:
        return msg.TRAILER.format(title=title, url=found.trailer)
    if found.listen:
        return msg.LISTEN.format(title=title, url=found.listen)
    if found.read:
        return msg.READ.format(title=title, url=found.read)
    return found.preview_note or msg.TRAILER_NONE.format(title=title, url=found.search_url)


def fact_reply(ctx: TurnContext, qid: str, fact: str) -> str | None:
    """The answer to "who is it by?" (``fact`` = ``"creator"``) or "when is it from?" (``"year"``)
    about ``qid``, from its card; None for another fact (the details answer it)."""
    found = card_of(ctx, qid)
    title = display(ctx, qid) if fact != "year" else found.label
    if fact == "creator":
        names = [n for n in found.creators if not BARE_QID.match(n)]
        if not names:
            role = msg.CREATOR_ROLE_WORDS.get(ctx.state.domain, "creator")
            return msg.FACT_BY_UNKNOWN.format(title=title, role=role)
        template = msg.FACT_BY.get(found.creator_role or "", msg.FACT_BY_DEFAULT)
        return template.format(title=title, names=_names(names))
    if fact == "year":
        if found.year is None:
            return msg.FACT_YEAR_UNKNOWN.format(title=title)
        return msg.FACT_YEAR.format(title=title, year=found.year)
    return None


__all__ = [
    "card_buttons",
    "card_more",
    "card_of",
    "card_title",
    "details_reply",
    "fact_reply",
    "media",
    "trailer_reply",
]
