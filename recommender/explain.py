"""Why was an item recommended? Reasons read off the PageRank mass that reaches it.

With scores ``x``, damping ``a`` and transition probabilities ``P`` (weighted edge / out-weight of
the source), the stationary equation ``x_i = a * sum_j x_j P_ji + (1 - a) p_i`` splits an item's
score into the mass each neighbour sends it. Candidate reasons and their weights (all shares of
``x_i``):

- ``LIKED_VALUE``: a liked node ``v`` adjacent to the item (a liked director, genre, or a liked
  item linked directly): ``a * x_v * P_vi``;
- ``SHARED_VALUE``: a liked item ``u`` sharing a value ``v`` with the item
  (``u -> v -> i``): ``a^2 * x_u * P_uv * P_vi``;
- ``RELATED_VALUE``: a value ``v`` of the item that is neither liked nor explained by a liked
  item: ``a * x_v * P_vi`` minus the ``SHARED_VALUE`` mass already attributed through ``v``;
- ``CO_LIKED`` (collaborative graph only): a liked node ``u`` and the item were both liked by
  other users ``w`` (``u -> w -> i``): ``sum_w a^2 * x_u * P_uw * P_wi``, summed over the users
  (who are never named). Rendered "People who liked Inception also liked it."

The top 3 LIKED_VALUE/SHARED_VALUE/CO_LIKED reasons by weight are kept (a RELATED_VALUE only when no liked
entity reaches the item within two steps, and then just the strongest one); entities without a
label are skipped. Two rules of what is worth reading (issue 16):

- a reason through a weak property (record label, publisher, country, award, language:
  ``recommender.schema.weak_pids``) comes after every reason through a stronger one, so it is never
  the only reason while a stronger one exists;
- collaborative (CO_LIKED) reasons are given only when they are the main carrier: their summed
  mass at least that of the KB reasons found.

A SHARED_VALUE names the property of each of its two edges: the one they share when there is one
(``via_pid`` None), else both ("It is written by X, and Doctor Strange, which you like, has X as
director"). They are rendered as short sentences, e.g.
``"You like Christopher Nolan, who directed it, and science fiction films."``

Example:
    >>> render_reasons((Reason(ReasonKind.LIKED_VALUE, "Q25191", "P57", None, 0.3),),
    ...                label=lambda q: {"Q25191": "Christopher Nolan"}[q])
    'You like Christopher Nolan, who directed it.'
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from recommender.kbgraph import is_user_node
from recommender.names import known_role, unfinished_name
from recommender.pagerank import SparseGraph
from recommender.phrases import CAMEO, IT_PHRASE, LIKED_PHRASE
from recommender.schema import weak_pids
from recommender.weighting import LIKED_BY, GraphWeighting


class Recommender(Protocol):
    """What the reasons are read from: ``recommender.recommend.Recommender`` (its graph, damping,
    edge weighting and knowledge base)."""

    @property
    def kb(self) -> Any: ...
    @property
    def graph(self) -> SparseGraph: ...
    @property
    def damping(self) -> float: ...
    @property
    def weighting(self) -> GraphWeighting: ...
    def edge_pids(self, a: str, b: str) -> tuple[str, ...]: ...


logger = logging.getLogger(__name__)

MAX_REASONS = 3
MAX_LABEL_CHARS = 60


class ReasonKind(StrEnum):
    """What links the item to the user's taste."""

    LIKED_VALUE = "liked_value"
    SHARED_VALUE = "shared_value"
    RELATED_VALUE = "related_value"
    CO_LIKED = "co_liked"


@dataclass(frozen=True, slots=True)
class Reason:
    """One reason for a recommendation.

    Attributes:
        kind: see :class:`ReasonKind`.
        entity: the liked node (LIKED_VALUE, SHARED_VALUE: the liked item; CO_LIKED: the liked
            item or value other users liked together with the item) or the related value.
        pid: property linking ``via`` (or ``entity`` for LIKED_VALUE/RELATED_VALUE) to the item,
            e.g. "P57" (director); None if unknown.
        via: the shared value for SHARED_VALUE, else None.
        weight: share of the item's PageRank score carried by this path, in [0, 1].
        via_pid: SHARED_VALUE only: the property linking ``entity`` and ``via`` when it is not
            ``pid`` (Doctor Strange is *directed* by the man who *wrote* the item); None when both
            edges have the same property (or for other kinds).
    """

    kind: ReasonKind
    entity: str
    pid: str | None
    via: str | None
    weight: float
    via_pid: str | None = None


def top_reasons(
    recommender: Recommender,
    scores: NDArray[np.float64],
    mask: NDArray[np.bool_],
    liked: Iterable[str],
    item: str,
    *,
    limit: int = MAX_REASONS,
) -> tuple[Reason, ...]:
    """The strongest reasons for ``item`` given the solved PageRank ``scores``.

    Args:
        recommender: gives the sparse graph, the networkx graph (edge ``pids``) and damping.
        scores: (n,) PageRank scores of this profile.
        mask: (n,) True for nodes removed for this profile (disliked).
        liked: liked QIDs present in the graph.
        item: the item QID.
        limit: number of reasons kept.

    Returns:
        Up to ``limit`` reasons, strongest first (ties by entity id).
    """
    g = recommender.graph
    if item not in g.index:
        return ()
    a = recommender.damping
    wt = g.weights_t
    keep = ~mask
    i = g.index[item]
    x_i = float(scores[i])
    if x_i <= 0:
        return ()
    liked_set = set(liked)

    unmasked = not mask.any()

    def out_weight(j: int) -> float:
        if unmasked:  # nothing disliked: the graph's own out-weights
            return float(g.out_weight[j])
        start, end = wt.indptr[j], wt.indptr[j + 1]  # symmetric graph: row j = arcs out of j
        cols = wt.indices[start:end]
        return float(np.sum(wt.data[start:end][keep[cols]]))

    def neighbours(j: int) -> list[tuple[int, float]]:
        start, end = wt.indptr[j], wt.indptr[j + 1]
        return [(int(c), float(w)) for c, w in zip(wt.indices[start:end], wt.data[start:end], strict=True) if keep[c]]

    index = g.index
    liked_mask = np.zeros(len(keep), dtype=bool)
    liked_mask[[index[q] for q in liked_set if q in index]] = True
    liked_mask &= keep

    def liked_neighbours(j: int) -> list[tuple[int, float]]:
        """The liked (kept) neighbours of j other than the item: a genre has thousands of others."""
        start, end = wt.indptr[j], wt.indptr[j + 1]
        cols = wt.indices[start:end]
        sel = np.flatnonzero(liked_mask[cols] & (cols != i))
        return [(int(cols[k]), float(wt.data[start + k])) for k in sel]

    out_cache: dict[int, float] = {}

    def transition(src: int, w: float) -> float:
        d = out_cache.get(src)
        if d is None:
            d = out_cache[src] = out_weight(src)
        return w / d if d > 0 else 0.0

    kb = recommender.kb
    claims_of: dict[str, frozenset[tuple[str, str]]] = {}
    order = getattr(kb, "pids", None)

    def claims(q: str) -> frozenset[tuple[str, str]]:
        found = claims_of.get(q)
        if found is None:
            found = claims_of[q] = frozenset(kb.item_values(q))
        return found

    def pids_between(a: str, b: str) -> tuple[str, ...]:  # Recommender.edge_pids, claims read once
        if order is None:
            return recommender.edge_pids(a, b)
        found = {p for p, v in claims(a) if v == b} | {p for p, v in claims(b) if v == a}
        return tuple(p for p in order if p in found)

    def reversed_(subject: str, pid: str, other: str) -> bool:  # _reversed, claims read once
        return (pid, other) not in claims(subject) and (pid, subject) in claims(other)

    reasons: list[Reason] = []
    co_liked: dict[str, float] = {}
    nodes = g.nodes
    for v, w_vi in neighbours(i):
        v_qid = str(nodes[v])
        if is_user_node(v_qid):  # another user who liked the item: credit the likes they share
            p_vi = transition(v, w_vi)
            for u, w_uv in liked_neighbours(v):
                u_qid = str(nodes[u])
                if u_qid in liked_set:
                    share = a * a * float(scores[u]) * transition(u, w_uv) * p_vi / x_i
                    co_liked[u_qid] = co_liked.get(u_qid, 0.0) + share
            continue
        pids_vi = pids_between(v_qid, item)
        pid = _best_pid(recommender, pids_vi, v_qid)
        direct = a * float(scores[v]) * transition(v, w_vi) / x_i
        if v_qid in liked_set:
            reasons.append(Reason(ReasonKind.LIKED_VALUE, v_qid, pid, None, direct))
            continue
        attributed = 0.0
        p_vi = transition(v, w_vi)
        for u, w_uv in liked_neighbours(v):
            u_qid = str(nodes[u])
            if u_qid not in liked_set:
                continue
            share = a * a * float(scores[u]) * transition(u, w_uv) * p_vi / x_i
            attributed += share
            pids_uv = pids_between(u_qid, v_qid)
            common = [  # the same property, read the same way on both edges
                p for p in pids_vi if p in pids_uv and reversed_(item, p, v_qid) == reversed_(u_qid, p, v_qid)
            ]
            if common:  # both edges by one property: "Like Inception, it stars Tom Hardy"
                shared = _best_pid(recommender, common, v_qid)
                reasons.append(Reason(ReasonKind.SHARED_VALUE, u_qid, shared, v_qid, share))
            else:
                reasons.append(
                    Reason(ReasonKind.SHARED_VALUE, u_qid, pid, v_qid, share, _best_pid(recommender, pids_uv, v_qid))
                )
        rest = direct - attributed
        if rest > 0:
            reasons.append(Reason(ReasonKind.RELATED_VALUE, v_qid, pid, None, rest))
    reasons.extend(Reason(ReasonKind.CO_LIKED, u, None, None, w) for u, w in co_liked.items())
    label = recommender.kb.label

    def readable(q: str) -> bool:  # an unlabeled entity would be shown as a bare QID, a cut name as nonsense
        name = label(q)
        return name != q and not unfinished_name(name)

    def named(r: Reason) -> bool:
        return readable(r.entity) and (r.via is None or readable(r.via))

    reasons = [r for r in reasons if r.weight > 0 and named(r)]
    reasons.sort(key=lambda r: (-r.weight, r.kind != ReasonKind.LIKED_VALUE, r.entity, r.via or ""))
    weak = weak_pids(getattr(recommender.kb, "domain", None))

    def is_weak(r: Reason) -> bool:
        return r.kind != ReasonKind.CO_LIKED and (r.pid or "").lstrip("~") in weak

    personal = [r for r in reasons if r.kind != ReasonKind.RELATED_VALUE]
    collaborative = sum(r.weight for r in personal if r.kind == ReasonKind.CO_LIKED)
    from_kb = sum(r.weight for r in personal if r.kind != ReasonKind.CO_LIKED)
    if collaborative < from_kb:  # "people who liked X" only when the co-likes carry the item
        personal = [r for r in personal if r.kind != ReasonKind.CO_LIKED]
    if personal:  # reasons from the user's own likes first; related values never pad them
        ordered = [r for r in personal if not is_weak(r)] + [r for r in personal if is_weak(r)]
        return tuple(ordered[:limit])
    related = [r for r in reasons if not is_weak(r)] or reasons
    return tuple(related[:1])


def _best_pid(recommender: Recommender, pids: Iterable[str], value: str | None = None) -> str | None:
    """The property a sentence names among those of one edge: the role ``value`` (a person) is
    known for when its description names one of them (``names.known_role``: a producer's cameo is
    "produced by", not "stars"), else the heaviest in the walk, then the lowest number (``P57``
    before ``P58``)."""
    pids = tuple(pids)
    if not pids:
        return None
    if value is not None and len(pids) > 1:
        known = known_role(recommender.kb, value, pids)
        if known is not None:
            return known
    weighting = recommender.weighting
    return max(pids, key=lambda p: (weighting.pid_weight(p), -_pid_number(p)))


def _pid_number(pid: str) -> int:
    return int(pid[1:]) if pid[1:].isdigit() else 10**9


# --------------------------------------------------------------------------------------------
# rendering


_DOUBLE_STOP = re.compile(r"(?<!\.)\.\.(?!\.)")
_DOMAIN_NOUN = {"movie": "films", "book": "books", "music": "music"}


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_LABEL_CHARS else text[: MAX_LABEL_CHARS - 1].rstrip() + "…"


def _role(pid: str | None, role_name: Callable[[str], str] | None) -> str | None:
    if pid is None or role_name is None:
        return None
    try:
        return role_name(pid)
    except Exception:  # noqa: BLE001 - an unnamed property is just not named
        return None


def render_reasons(
    reasons: Iterable[Reason],
    *,
    label: Callable[[str], str],
    domain: str = "movie",
    role_name: Callable[[str], str] | None = None,
) -> str:
    """Short English sentences for up to :data:`MAX_REASONS` reasons.

    Args:
        reasons: strongest first.
        label: QID -> display name.
        domain: "movie", "book" or "music" (to say "science fiction films").
        role_name: PID -> role word for properties without a phrase ("award received").

    Returns:
        E.g. "You like Christopher Nolan, who directed it, and science fiction films. Like
        Inception, it stars Tom Hardy." Empty string if there is no reason.
    """
    reasons = list(reasons)[:MAX_REASONS]
    noun = _DOMAIN_NOUN.get(domain, "ones")
    liked_parts: list[str] = []
    sentences: list[str] = []
    co_liked = [_short(label(r.entity)) for r in reasons if r.kind == ReasonKind.CO_LIKED]
    # likes sharing one value are one sentence ("Like Alien and Aliens, which you like, it belongs to
    # Alien"), not one per like repeating the value
    sharing: dict[tuple[str | None, str], list[str]] = {}
    for r in reasons:
        if r.kind == ReasonKind.SHARED_VALUE and r.via is not None and r.via_pid is None:
            sharing.setdefault((r.pid, r.via), []).append(_short(label(r.entity)))
    for r in reasons:
        if r.kind == ReasonKind.LIKED_VALUE:
            x = _short(label(r.entity))
            if r.pid == "P136":  # genre
                liked_parts.append(f"{x} {noun}" if domain != "music" else f"{x} music")
            elif r.pid in LIKED_PHRASE:
                liked_parts.append(LIKED_PHRASE[r.pid].format(x=x))
            else:
                role = _role(r.pid, role_name) if not (r.pid or "").startswith("~") else None
                liked_parts.append(f"{x} ({role})" if role else x)
        elif r.kind == ReasonKind.SHARED_VALUE and r.via is not None and r.via_pid is None:
            likes = sharing.pop((r.pid, r.via), None)
            if likes is None:  # said already, with the first claim of the same likes
                continue
            # the same likes sharing several values are one sentence too ("Like The Godfather, which you like,
            # it stars Al Pacino and Diane Keaton"), not one per value repeating the likes (fresh tester, fault 28)
            claims: dict[str | None, list[str]] = {r.pid: [label(r.via)]}
            for (pid, via), others in list(sharing.items()):
                if others == likes:
                    claims.setdefault(pid, []).append(label(via))
                    del sharing[(pid, via)]
            names = _and(likes)
            said = ", and ".join(_it_all(pid, values, role_name) for pid, values in claims.items())
            sentences.append(f"Like {names}, which you like, {said}.")
        elif r.kind == ReasonKind.SHARED_VALUE and r.via is not None:  # two edges, two properties
            via_pid = r.via_pid or ""
            role = _role(via_pid.lstrip("~"), role_name) or "related"
            v, u = _short(label(r.via)), _short(label(r.entity))
            if via_pid.startswith("~"):  # the claim is via -> entity: "GotG 2 has Karen Gillan as actor"
                other = f"{v} has {u}, which you like, as {role}"
            else:
                other = f"{u}, which you like, has {v} as {role}"
            sentences.append(f"{_capital(_it(r.pid, label(r.via), role_name))}, and {other}.")
        elif r.kind == ReasonKind.RELATED_VALUE:
            sentences.append(f"{_capital(_it(r.pid, label(r.entity), role_name))}, close to your taste.")
    if liked_parts:
        if len(liked_parts) == 1:
            joined = liked_parts[0]
        else:
            joined = ", ".join(liked_parts[:-1]) + ", and " + liked_parts[-1]
        sentences.insert(0, f"You like {joined}.")
    if co_liked:
        names = co_liked[0] if len(co_liked) == 1 else ", ".join(co_liked[:-1]) + " and " + co_liked[-1]
        sentences.append(f"People who liked {names} also liked it.")
    return _DOUBLE_STOP.sub(".", " ".join(sentences))  # a label ending in "." ("Warner Bros.")


def _and(names: list[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _it_all(pid: str | None, value_labels: list[str], role_name: Callable[[str], str] | None) -> str:
    """:func:`_it` of several values of one property: "it stars A and B" ("A and B appear in it")."""
    if len(value_labels) == 1:
        return _it(pid, value_labels[0], role_name)
    said = _claim(pid, _and([_short(v) for v in value_labels]), role_name)
    return said.replace(" appears in it", " appear in it") if pid == CAMEO else said


def _it(pid: str | None, value_label: str, role_name: Callable[[str], str] | None) -> str:
    return _claim(pid, _short(value_label), role_name)


def _claim(pid: str | None, x: str, role_name: Callable[[str], str] | None) -> str:
    """The item's claim of property ``pid`` with the value(s) ``x`` as shown ("it stars A and B")."""
    if pid in IT_PHRASE:
        return IT_PHRASE[pid].format(x=x)
    role = _role(pid, role_name)
    if pid is not None and pid.startswith("~"):  # the item is the value: "it is the album of X" is not safe
        return f"it is linked to {x} ({role})" if role else f"it is linked to {x}"
    return f"it has {x} as {role}" if role else f"it is linked to {x}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def claim_text(pid: str | None, value_label: str, domain: str = "movie") -> str:
    """The item's claim as the reasons state it, lower case: "it is directed by Quentin Tarantino",
    "it is a horror film" (a genre named with its medium noun), "its genre is jazz"."""
    from recommender.schema import role_name as schema_role_name

    if pid == "P136":
        last = value_label.split()[-1].lower() if value_label.split() else ""
        if last in ("film", "movie", "novel", "book", "song", "album", "fiction", "music"):
            article = "an" if value_label[:1].lower() in "aeiou" else "a"
            return (
                f"it is {article} {_short(value_label)}"
                if last not in ("fiction", "music")
                else _it(pid, value_label, None)
            )
    return _it(pid, value_label, lambda p: schema_role_name(p.lstrip("~"), domain))


def uncontradicted(reasons: Iterable[Reason], avoided: Iterable[str]) -> tuple[Reason, ...]:
    """``reasons`` without those that cite something the person said they do not want (a disliked
    value or item, a constraint of the session): an explanation never cites a contradicted reason."""
    gone = set(avoided)
    return tuple(r for r in reasons if r.entity not in gone and (r.via is None or r.via not in gone))


def explain_text(recommender: Recommender, reasons: Iterable[Reason], *, item: str | None = None) -> str:
    """:func:`render_reasons` with the recommender's KB labels, domain and the domain's role names.

    Args:
        recommender: gives the KB (labels, domain, claims).
        reasons: from :meth:`Recommender.explain`.
        item: the explained item; when given, an edge whose claim goes the other way (the item is
            the *value*: an artist recommended because you like an album they perform) is phrased
            from the item's side ("You like Nevermind, which it performs") instead of the claim's.

    Returns:
        The sentences (empty string if there is no reason).
    """
    from recommender.schema import role_name as schema_role_name

    kb = recommender.kb
    domain = getattr(kb, "domain", "movie")
    if item is not None:
        reasons = [_oriented(kb, item, r) for r in reasons]
    reasons = [_cameo(kb, r) for r in reasons]
    return render_reasons(
        reasons, label=kb.label, domain=domain, role_name=lambda pid: schema_role_name(pid.lstrip("~"), domain)
    )


def _cameo(kb: object, reason: Reason) -> Reason:
    """A cast reason about someone whose description names another role ("American film producer")
    is said as an appearance: "it stars Lawrence Bender" would call a producer's cameo a lead role."""
    person = reason.via if reason.kind == ReasonKind.SHARED_VALUE else reason.entity
    if reason.pid != "P161" or person is None or reason.kind == ReasonKind.CO_LIKED:
        return reason
    if known_role(kb, person, ("P161", "P162", "P57", "P58", "P86", "P344", "P1040")) in (None, "P161"):
        return reason
    return Reason(reason.kind, reason.entity, CAMEO, reason.via, reason.weight, reason.via_pid)


@dataclass(frozen=True, slots=True)
class Claim:
    """A fact the sentence of a reason states: the KB claim ``subject -pid-> value``, or for a
    collaborative reason (``pid`` = :data:`recommender.kbgraph.LIKED_BY`) "some other user liked
    both ``subject`` and ``value``"."""

    subject: str
    pid: str
    value: str


def reason_claims(kb: object, item: str, reason: Reason) -> tuple[Claim, ...]:
    """The facts the rendered sentence of ``reason`` states about ``item`` (what an audit checks
    against the KB, ``recommender.audit``), in the orientation :func:`explain_text` renders.

    - LIKED_VALUE / RELATED_VALUE: the claim linking the item and ``entity`` ("You like Christopher
      Nolan, who directed it": ``item -P57-> Nolan``; reversed ``~P..`` reasons: ``entity -P-> item``);
    - SHARED_VALUE: the item's claim with ``via`` and the same claim of the liked ``entity`` ("Like
      Inception, which you like, it stars Tom Hardy": both star him);
    - CO_LIKED: ``Claim(entity, LIKED_BY, item)``.

    A reason without a property states nothing checkable but its collaborative claim (empty tuple).
    """
    if reason.kind == ReasonKind.CO_LIKED:
        return (Claim(reason.entity, LIKED_BY, item),)
    if reason.pid is None:
        return ()
    r = _oriented(kb, item, reason)
    pid = (r.pid or "").lstrip("~")
    reversed_ = (r.pid or "").startswith("~")
    if reason.kind == ReasonKind.SHARED_VALUE:
        if reason.via is None:
            return ()
        mine = Claim(reason.via, pid, item) if reversed_ else Claim(item, pid, reason.via)
        if r.via_pid is not None:  # "..., and Doctor Strange, which you like, has X as director"
            q = r.via_pid.lstrip("~")
            theirs = (
                Claim(reason.via, q, reason.entity)
                if r.via_pid.startswith("~")
                else Claim(reason.entity, q, reason.via)
            )
        else:  # "Like Inception, which you like, it stars Tom Hardy": Inception stars him too
            theirs = Claim(reason.via, pid, reason.entity) if reversed_ else Claim(reason.entity, pid, reason.via)
        return (mine, theirs)
    return (Claim(reason.entity, pid, item) if reversed_ else Claim(item, pid, reason.entity),)


def _oriented(kb: object, item: str, reason: Reason) -> Reason:
    """``reason`` with its pid marked ``~P..`` when the claim is ``value -pid-> item`` (reversed),
    and its ``via_pid`` marked ``~`` when the liked entity's claim is ``via -via_pid-> entity``."""
    other = reason.via if reason.kind == ReasonKind.SHARED_VALUE else reason.entity
    if reason.pid is None or other is None or reason.kind == ReasonKind.CO_LIKED:
        return reason
    pid, via_pid = reason.pid, reason.via_pid
    if _reversed(kb, item, pid, other):
        pid = "~" + pid
    if via_pid is not None and reason.via is not None and _reversed(kb, reason.entity, via_pid, reason.via):
        via_pid = "~" + via_pid
    if (pid, via_pid) == (reason.pid, reason.via_pid):
        return reason
    return Reason(reason.kind, reason.entity, pid, reason.via, reason.weight, via_pid)


def _reversed(kb: object, subject: str, pid: str, other: str) -> bool:
    """True when ``subject`` and ``other`` are linked by ``other -pid-> subject`` only."""
    forward = (pid, other) in set(kb.item_values(subject))  # type: ignore[attr-defined]
    return not forward and (pid, subject) in set(kb.item_values(other))  # type: ignore[attr-defined]


__all__ = [
    "MAX_REASONS",
    "claim_text",
    "uncontradicted",
    "Claim",
    "Reason",
    "ReasonKind",
    "explain_text",
    "reason_claims",
    "render_reasons",
    "top_reasons",
]
