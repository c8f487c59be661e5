"""Phrase templates: the one notation of the wording files, compiled to regular expressions or sampled.

A template is a phrase as people type it, with its variants written in place, in the spirit of
spaCy's ``Matcher`` token patterns and of the ``{a|b}`` templates of ``nlu/intent_templates.json``:

==========================  ====================================================================
template                    meaning
==========================  ====================================================================
``what made you pick``      these words, in this order, one or more spaces between them
``{pick|choose|select}``    one of the alternatives (each is a template); ``{a|b|}``: optional
``{items}``                 one entry of the file's list ``items`` (a slot; a name that is no list
                            is the word itself: ``!{not}``)
``{seed=like|similar to}``  alternatives whose match is kept as the group ``seed`` of the match
``movie{s|}``, ``like*``    pieces glued without a space: "movie" or "movies"; ``*``: the word goes on
                            ("likes", "liked"); ``hmm+``: the letter before ``+`` once or more ("hmmm")
``<w>``, ``<w?>``           any one word (``\\w+``); an optional one
``<w0-3>``, ``<w1-2>``      from 0 to 3 (1 to 2) words; ``<a>``, ``<a0-3>``: words with ``'`` inside
                            ("what's"); ``<t>``, ``<t0-3>``: with ``' . -`` ("jackson's", "sci-fi")
``<rest>``                  the rest of the message, at least one character
``<name>``                  a name (one to six words of a title or a person); in training phrases the
                            classifier's placeholder of a name it does not know
``!{not|never}``            not followed by one of these (after the space, if written after one)
``^ ...``, ``^~ ...``       the message opens with this; ``^~``: after any signs (``^\\W*``: "...more")
``... $``, ``... ~$``       the message ends here; ``~$``: but for any signs after it (``\\W*$``: "more!!")
==========================  ====================================================================

Words match whole words: a template that opens (ends) with a letter or digit does not match inside a
longer word ("why" is not in "whyever"), one that opens or ends with a sign ("?", an emoji) has no
such edge there. An optional element takes the space before it along ("{please|} delete" matches
"delete"). Any other character is literal (``?``, ``'``, ``/``, ``-``, ``.``). Patterns are matched
as compiled (lower-case text unless the pattern says ``ignore_case``).

Example:
    >>> regex = compile_template("what made {you|u} {pick|choose} !{me}", {})
    >>> bool(regex.search("so what made u pick this one?")), bool(regex.search("what made you pick me"))
    (True, False)
    >>> sorted(expand("{show|give} me more", {}))
    ['give me more', 'show me more']
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from nlu.errors import NluError

__all__ = ["TemplateError", "compile_template", "expand", "parse", "regex_source", "sample"]

SEP = r"\s+"
"""What one space of a template matches."""
_WORD_START = r"(?:(?<!\w)(?=\w)|(?!\w))"
"""A template's start: not inside a word when it opens with a word character (``\\b`` there only)."""
_WORD_END = r"(?:(?<=\w)(?!\w)|(?<!\w))"
"""A template's end: not inside a word when it ends with a word character."""
_WILD = re.compile(r"<(w|a|t)(?:(\?)|(\d+)-(\d+))?>|<rest>|<name>")
_WILD_WORD = {"w": r"\w+", "a": r"[\w']+", "t": r"[\w.'-]+", "name": r"[\w'.&:!-]+"}
NAME_WORDS = 6
"""Words of a name ``<name>`` matches at most ("The Good, the Bad and the Ugly" is 6 words after its signs)."""
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_GROUP_NAME = re.compile(r"^([a-z][a-z0-9_]*)=")


class TemplateError(NluError):
    """A template that cannot be read (unbalanced braces, nothing that is always there)."""


# ------------------------------------------------------------------------------------------ the syntax tree


@dataclass(frozen=True, slots=True)
class Lit:
    """Literal text."""

    text: str


@dataclass(frozen=True, slots=True)
class Group:
    """Alternatives (``{a|b}``), maybe named; a slot is a group of its list's entries."""

    alternatives: tuple[Seq, ...]
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Slot:
    """A list of the file, by name (``{items}``)."""

    name: str


@dataclass(frozen=True, slots=True)
class Wild:
    """``low`` to ``high`` words (``kind`` ``w``: ``\\w+``; ``a``: with ``'``; ``t``: with ``' . -``); ``high`` 0 =
    the rest."""

    low: int
    high: int
    kind: str = "w"


@dataclass(frozen=True, slots=True)
class More:
    """``*``: the word goes on."""


@dataclass(frozen=True, slots=True)
class Plus:
    """``x+``: the character ``x`` once or more."""

    char: str


@dataclass(frozen=True, slots=True)
class Not:
    """``!{...}``: not followed by one of the alternatives."""

    group: Group


Piece = Lit | Group | Slot | Wild | More | Plus | Not


@dataclass(frozen=True, slots=True)
class Element:
    """Pieces glued together (no space between them)."""

    pieces: tuple[Piece, ...]


@dataclass(frozen=True, slots=True)
class Seq:
    """Elements separated by spaces; ``start``: anchored at the message's start (``"^"``, or ``"^~"`` after any
    signs); ``end``: at its end (``"$"``, or ``"~$"`` before any signs)."""

    elements: tuple[Element, ...]
    start: str = ""
    end: str = ""


# ------------------------------------------------------------------------------------------ parsing


def _split_top(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside braces."""
    out: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == sep and depth == 0:
            out.append("".join(current))
            current = []
        else:
            current.append(ch)
    out.append("".join(current))
    return out


def _closing(text: str, at: int) -> int:
    """Index of the brace closing the one at ``at``."""
    depth = 0
    for k in range(at, len(text)):
        if text[k] == "{":
            depth += 1
        elif text[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    raise TemplateError(f"unbalanced braces in template {text!r}")


def _group(inner: str, template: str) -> Group | Slot:
    if "|" not in inner and _NAME.match(inner):
        return Slot(inner)
    name = None
    named = _GROUP_NAME.match(inner)
    if named is not None:
        name, inner = named.group(1), inner[named.end() :]
    return Group(tuple(parse(alt, _top=False) for alt in _split_top(inner, "|")), name)


def _element(text: str, template: str) -> Element:
    pieces: list[Piece] = []
    literal: list[str] = []
    k = 0

    def flush() -> None:
        if literal:
            pieces.append(Lit("".join(literal)))
            literal.clear()

    while k < len(text):
        ch = text[k]
        if ch == "{" or (ch == "!" and text[k + 1 : k + 2] == "{"):
            negated = ch == "!"
            k += negated
            end = _closing(text, k)
            flush()
            group = _group(text[k + 1 : end], template)
            if negated:
                pieces.append(Not(group if isinstance(group, Group) else Group((Seq((Element((group,)),)),))))
            else:
                pieces.append(group)
            k = end + 1
        elif ch == "}":
            raise TemplateError(f"unbalanced braces in template {template!r}")
        elif ch == "*" and (literal or pieces):
            flush()
            pieces.append(More())
            k += 1
        elif ch == "+" and literal:
            last = literal.pop()
            flush()
            pieces.append(Plus(last))
            k += 1
        elif ch == "<" and (wild := _WILD.match(text, k)) is not None:
            flush()
            if wild.group(0) == "<rest>":
                pieces.append(Wild(1, 0))
            elif wild.group(0) == "<name>":
                pieces.append(Wild(1, NAME_WORDS, "name"))
            elif wild.group(2):
                pieces.append(Wild(0, 1, wild.group(1)))
            elif wild.group(3):
                pieces.append(Wild(int(wild.group(3)), int(wild.group(4)), wild.group(1)))
            else:
                pieces.append(Wild(1, 1, wild.group(1)))
            k = wild.end()
        else:
            literal.append(ch)
            k += 1
    flush()
    return Element(tuple(pieces))


def parse(template: str, *, _top: bool = True) -> Seq:
    """The syntax tree of a template (module docstring).

    Raises:
        TemplateError: unbalanced braces.
    """
    text = template.strip() if _top else template
    start = end = ""
    if _top and text.startswith("^"):
        start = "^~" if text.startswith("^~") else "^"
        text = text[len(start) :].lstrip()
    if _top and text.endswith("$") and not text.endswith("\\$"):
        end = "~$" if text.endswith("~$") else "$"
        text = text[: -len(end)].rstrip()
    words = [w for w in _split_top(text, " ") if w != ""] if text.strip() else []
    return Seq(tuple(_element(w, template) for w in words), start, end)


# ------------------------------------------------------------------------------------------ compiling

Lists = Mapping[str, Sequence[str]]


def _slot_group(name: str, lists: Lists) -> Group:
    """The alternatives of ``{name}``: the entries of the list ``name``, else the word itself ("!{not}")."""
    if name not in lists:
        return Group((Seq((Element((Lit(name),)),)),))
    return Group(tuple(parse(entry, _top=False) for entry in lists[name]))


class _Compiler:
    def __init__(self, lists: Lists, template: str) -> None:
        self.lists, self.template = lists, template

    def slot(self, name: str) -> Group:
        return _slot_group(name, self.lists)

    def seq(self, seq: Seq) -> tuple[str, bool]:
        """``(regex, optional)`` of a sequence: a space between elements, an optional element takes its space
        along; ``regex`` never matches nothing (an optional sequence's caller adds the ``?``).

        Raises:
            TemplateError: several elements, all optional ("{a|} {b|}": write the alternatives out).
        """
        compiled = [self.element(e) for e in seq.elements]
        consuming = [k for k, e in enumerate(seq.elements) if not _zero_width(e)]
        first = next((k for k in consuming if not compiled[k][1]), None)
        if first is None:
            if len(consuming) > 1:
                raise TemplateError(f"template {self.template!r}: several optional words and nothing else")
            if not consuming:
                return "", True
            first = consuming[0]
        out = []
        for k, (rx, optional) in enumerate(compiled):
            if _zero_width(seq.elements[k]):  # "why !{not}": not followed by "not" after the space
                out.append(self.negation(seq.elements[k], spaced=k > 0))
            elif k < first:
                out.append(f"(?:{rx}{SEP})?")
            elif k == first:
                out.append(rx)
            elif optional:
                out.append(f"(?:{SEP}{rx})?")
            else:
                out.append(SEP + rx)
        return "".join(out), compiled[first][1]

    def negation(self, element: Element, *, spaced: bool) -> str:
        parts = []
        for piece in element.pieces:
            assert isinstance(piece, Not)
            alternatives = "|".join(self.seq(alt)[0] for alt in piece.group.alternatives)
            parts.append(f"(?!{SEP if spaced else ''}(?:{alternatives}){_WORD_END})")
        return "".join(parts)

    def element(self, element: Element) -> tuple[str, bool]:
        """``(regex, optional)`` of glued pieces; a lone optional piece leaves its ``?`` to the caller."""
        compiled = [self.piece(piece) for piece in element.pieces]
        if len(compiled) == 1:
            return compiled[0]
        out = [f"(?:{rx})?" if optional and rx else rx for rx, optional in compiled]
        return "".join(out), all(optional for _rx, optional in compiled)

    def piece(self, piece: Piece) -> tuple[str, bool]:
        if isinstance(piece, Lit):
            return re.escape(piece.text), piece.text == ""
        if isinstance(piece, More):
            return r"\w*", False
        if isinstance(piece, Plus):
            return re.escape(piece.char) + "+", False
        if isinstance(piece, Not):
            return self.negation(Element((piece,)), spaced=False), False
        if isinstance(piece, Wild):
            word = _WILD_WORD[piece.kind]
            if piece.high == 0:
                return ".+", False
            more = f"(?:{SEP}{word}){{0,{piece.high - 1}}}" if piece.high > 1 else ""
            return word + more, piece.low == 0
        group = self.slot(piece.name) if isinstance(piece, Slot) else piece
        compiled = [self.seq(alt) for alt in group.alternatives]
        body = "|".join(rx for rx, _optional in compiled if rx)
        optional = any(o for _rx, o in compiled)
        if isinstance(piece, Group) and piece.name:
            return f"(?P<{piece.name}>{body})", optional
        return f"(?:{body})", optional


def _edge_chars(seq: Seq, lists: Lists, *, last: bool) -> set[bool]:
    """Whether the first (``last``: the last) character a sequence can match is a word character: ``{True}``,
    ``{False}`` or both (then the general edge is needed). A sequence that can be empty adds the outside's."""
    out: set[bool] = set()
    elements = [e for e in seq.elements if not _zero_width(e)]
    for element in reversed(elements) if last else elements:
        found, optional = _element_edge(element, lists, last=last)
        out |= found
        if not optional:
            return out
    return out | {True, False}  # all optional: what surrounds it decides


def _element_edge(element: Element, lists: Lists, *, last: bool) -> tuple[set[bool], bool]:
    out: set[bool] = set()
    for piece in reversed(element.pieces) if last else element.pieces:
        if isinstance(piece, Not):
            continue
        if isinstance(piece, Lit):
            if not piece.text:
                continue
            return out | {bool(re.match(r"\w", piece.text[-1 if last else 0]))}, False
        if isinstance(piece, Plus):
            return out | {bool(re.match(r"\w", piece.char))}, False
        if isinstance(piece, More):
            if last:
                continue  # "\w*" after a word ends with its word
            return out | {True}, False
        if isinstance(piece, Wild):
            if piece.high == 0:
                return out | {True, False}, False
            out.add(True)
            if piece.low > 0:
                return out, False
            continue
        group = _slot_group(piece.name, lists) if isinstance(piece, Slot) else piece
        optional = False
        for alt in group.alternatives:
            found = _edge_chars(alt, lists, last=last) if alt.elements else {True, False}
            if not alt.elements or _only_optional(alt, lists):
                optional = True
            out |= found - ({True, False} if not alt.elements else set())
        if not optional:
            return out, False
    return out, True


def _only_optional(seq: Seq, lists: Lists) -> bool:
    """Every element of the sequence can be left out."""
    return all(_element_edge(e, lists, last=False)[1] for e in seq.elements if not _zero_width(e))


def _zero_width(element: Element) -> bool:
    """The element only says what may not follow (``!{...}``)."""
    return bool(element.pieces) and all(isinstance(p, Not) for p in element.pieces)


def regex_source(template: str, lists: Lists, *, edges: bool = True, after_lead: bool = False) -> str:
    """The regular expression of ``template`` (``lists``: the file's lists, for its slots).

    Args:
        edges: whole words at its ends, and its anchors; without, the bare sequence (a list's entry inside a
            structure the code keeps).
        after_lead: the phrase follows a lead the code matches (the filler words opening a request): no
            start edge or anchor, its end kept.

    Raises:
        TemplateError: a template that cannot be read.
    """
    seq = parse(template)
    body, optional = _Compiler(lists, template).seq(seq)
    if optional or not body:
        raise TemplateError(f"template {template!r} can match nothing at all: one word must always be there")
    if not edges:
        return body
    # the edge a template needs, simplest first: "\b" when every way to start (end) is a word character, none
    # when none is, else the general edge
    starts, ends = _edge_chars(seq, lists, last=False), _edge_chars(seq, lists, last=True)
    start_edge = r"\b" if starts == {True} else "" if starts == {False} else _WORD_START
    end_edge = r"\b" if ends == {True} else "" if ends == {False} else _WORD_END
    head = "" if after_lead else {"": "", "^": "^", "^~": r"^\W*"}[seq.start] + start_edge
    tail = {"": "", "$": "$", "~$": r"\W*$"}[seq.end]
    return f"{head}(?:{body}){end_edge}{tail}"


def compile_template(template: str, lists: Lists, *, ignore_case: bool = False) -> re.Pattern[str]:
    """``template`` compiled (:func:`regex_source`).

    Raises:
        TemplateError: as :func:`regex_source`, or a regex the engine refuses.
    """
    source = regex_source(template, lists)
    try:
        return re.compile(source, re.IGNORECASE if ignore_case else 0)
    except re.error as exc:
        raise TemplateError(f"template {template!r}: {exc}") from exc


# ------------------------------------------------------------------------------------------ phrases


def _phrases(
    seq: Seq, lists: Lists, pick: Callable[[Sequence[Seq]], Sequence[Seq]], name: str | None = None
) -> list[str]:
    """The phrases of a sequence, each group's alternatives chosen by ``pick`` (all of them, or one); ``<name>``
    is said as ``name`` (without one, a template with a name gives no phrase)."""
    out = [""]
    for element in seq.elements:
        words = [""]
        for piece in element.pieces:
            if isinstance(piece, Lit | Plus):
                words = [w + (piece.text if isinstance(piece, Lit) else piece.char) for w in words]
            elif isinstance(piece, Slot | Group):
                group = piece if isinstance(piece, Group) else _slot_group(piece.name, lists)
                options = [p for alt in pick(group.alternatives) for p in _phrases(alt, lists, pick, name)]
                words = [w + o for w in words for o in options]
            elif isinstance(piece, Wild) and piece.kind == "name" and name is not None:
                words = [w + name for w in words]
            elif isinstance(piece, Wild) and piece.low > 0:
                return []  # a word that must be there but is not written: no phrase to say
        out = [f"{a} {w}" if a and w else a or w for a in out for w in words]
    return out


def expand(template: str, lists: Lists) -> set[str]:
    """Every phrase a template stands for (optional words left out or said; ``*``, ``!{...}``, anchors
    dropped); none if a wildcard word must be there (``<w>``). Grows with the product of the groups' sizes:
    for a template with many groups, :func:`sample`."""
    return {" ".join(p.split()) for p in _phrases(parse(template), lists, lambda alts: alts)}


def sample(template: str, lists: Lists, rng: random.Random, *, n: int, name: str | None = None) -> set[str]:
    """At most ``n`` phrases of ``template``, each group's alternative drawn by ``rng`` (fewer if the
    template has fewer, or has a wildcard that must be there); ``<name>`` is said as ``name``."""
    seq = parse(template)
    out: set[str] = set()
    for _ in range(n * 3):
        if len(out) >= n:
            break
        phrases = _phrases(seq, lists, lambda alts: [rng.choice(alts)], name)
        if not phrases:
            break
        out.add(" ".join(phrases[0].split()))
    return out
