"""Write a replay comparison as ``report.json``, ``report.md`` and ``per_intent.png``.

The caller (``corsbot replay --report DIR``) supplies what only it knows in ``extra`` (e.g.
``{"messages_per_second": 812.4, "exceptions": 0, "files": [...]}``); it is written as given into
the JSON and listed in the Markdown.

Example:
    >>> # write_report(comparison, paths.reports_dir() / "replay-…", extra={"exceptions": 0})
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from pathlib import Path

from corsbot_errors import CorsbotError
from logs.compare import Comparison

__all__ = ["ReportError", "write_report"]

logger = logging.getLogger(__name__)

#: Intents shown in the chart (the most frequent logged ones).
CHART_MAX_INTENTS = 40


class ReportError(CorsbotError):
    """The report cannot be written (message names the folder)."""


def write_report(
    comparison: Comparison,
    out_dir: str | os.PathLike[str],
    *,
    extra: Mapping[str, object],
    parts: Mapping[str, Comparison] | None = None,
    title: str = "Replay report",
) -> dict[str, Path]:
    """Write ``report.json``, ``report.md`` and ``per_intent.png`` into ``out_dir``.

    Args:
        comparison: the overall comparison (e.g. :func:`logs.compare.merge` of the files).
        out_dir: the folder, created if missing; existing report files are replaced.
        extra: caller figures (messages per second, exceptions, files, ...), JSON-serialisable.
        parts: optional per-part comparisons (e.g. per file), one row each in the tables.
        title: the Markdown title.

    Returns:
        ``{"json": path, "markdown": path, "chart": path}``.

    Raises:
        ReportError: the folder or a file cannot be written, or ``extra`` is not JSON-serialisable.
    """
    out = Path(out_dir)
    parts = dict(parts or {})
    payload = {
        "figures": comparison.figures(),
        "counts": {
            "intent_matches": comparison.intent_matches,
            "validated_intent_matches": comparison.validated_intent_matches,
            "events_matches": comparison.events_matches,
            "tocheck_matches": comparison.to_check_matches,
            "objects_tp": comparison.objects_tp,
            "objects_fp": comparison.objects_fp,
            "objects_fn": comparison.objects_fn,
        },
        "per_intent": [
            {
                "intent": s.intent,
                "count": s.count,
                "correct": s.correct,
                "agreement": s.agreement,
                "confusions": [list(c) for c in s.confusions],
            }
            for s in comparison.per_intent
        ],
        "parts": {name: part.figures() for name, part in parts.items()},
        "extra": dict(extra),
    }
    paths = {"json": out / "report.json", "markdown": out / "report.md", "chart": out / "per_intent.png"}
    try:
        out.mkdir(parents=True, exist_ok=True)
        text = json.dumps(payload, indent=2, ensure_ascii=False)
    except TypeError as exc:
        raise ReportError(f"{out}: report data is not JSON-serialisable ({exc})") from exc
    except OSError as exc:
        raise ReportError(f"{out}: cannot create the report folder ({exc.strerror or exc})") from exc
    try:
        paths["json"].write_text(text + "\n", encoding="utf-8")
        paths["markdown"].write_text(_markdown(comparison, parts, extra, title, paths["chart"].name), encoding="utf-8")
        _chart(comparison, paths["chart"])
    except OSError as exc:
        raise ReportError(f"{out}: cannot write the report ({exc.strerror or exc})") from exc
    logger.info("report written to %s", out)
    return paths


def _markdown(
    comparison: Comparison, parts: Mapping[str, Comparison], extra: Mapping[str, object], title: str, chart: str
) -> str:
    c = comparison
    lines = [
        f"# {title}",
        "",
        "| figure | value |",
        "|---|---|",
        f"| messages | {c.messages} |",
        f"| validated messages (logged toCheck=false) | {c.validated} |",
        f"| intent agreement | {c.intent_agreement:.3f} |",
        f"| intent agreement, validated | {c.intent_agreement_validated:.3f} |",
        f"| events agreement | {c.events_agreement:.3f} |",
        f"| objects precision / recall / F1 (task level, {c.object_tasks} tasks) |"
        f" {c.objects_precision:.3f} / {c.objects_recall:.3f} / {c.objects_f1:.3f} |",
        f"| toCheck agreement | {c.to_check_agreement:.3f} |",
    ]
    for key, value in extra.items():
        shown = f"{value:.1f}" if isinstance(value, float) else value
        if isinstance(value, (list, tuple)):
            shown = ", ".join(str(v) for v in value)
        lines.append(f"| {key.replace('_', ' ')} | {shown} |")
    if parts:
        lines += [
            "",
            "## Per part",
            "",
            "| part | messages | intent | intent (validated) | events | objects F1 | toCheck |",
            "|---|---|---|---|---|---|---|",
        ]
        for name, p in parts.items():
            lines.append(
                f"| {name} | {p.messages} | {p.intent_agreement:.3f} | {p.intent_agreement_validated:.3f} |"
                f" {p.events_agreement:.3f} | {p.objects_f1:.3f} | {p.to_check_agreement:.3f} |"
            )
    lines += [
        "",
        "## Per logged intent",
        "",
        f"![per-intent agreement]({chart})",
        "",
        "| logged intent | messages | agreement | most frequent other predictions |",
        "|---|---|---|---|",
    ]
    for s in c.per_intent:
        confusions = ", ".join(f"`{name}` ({n})" for name, n in s.confusions) or "-"
        lines.append(f"| `{s.intent}` | {s.count} | {s.agreement:.3f} | {confusions} |")
    lines += [
        "",
        "Objects F1: logged and replayed `recognizedObjects` pooled per task (preference task with its"
        " disambiguations, one recommended item with its rating, ...; tasks as split by"
        " `logs.tocheck.split_tasks` on the logged conversation), micro-averaged over tasks.",
        "",
    ]
    return "\n".join(lines)


def _chart(comparison: Comparison, path: Path) -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    stats = comparison.per_intent[:CHART_MAX_INTENTS]
    height = max(2.5, 0.28 * len(stats) + 1.2)
    figure = Figure(figsize=(9, height))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    labels = [f"{s.intent} ({s.count})" for s in reversed(stats)]
    values = [s.agreement for s in reversed(stats)]
    axes.barh(range(len(values)), values, color="#4C72B0")
    axes.set_yticks(range(len(values)), labels, fontsize=7)
    axes.set_xlim(0, 1)
    axes.set_xlabel("intent agreement (exact name)")
    axes.set_title(
        f"Per logged intent (n messages): overall {comparison.intent_agreement:.3f},"
        f" validated {comparison.intent_agreement_validated:.3f}",
        fontsize=9,
    )
    figure.tight_layout()
    figure.savefig(path, dpi=110)
