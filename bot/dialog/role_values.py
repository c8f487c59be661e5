"""'Do you like all of them: A, B?': an opinion about a role of an item, confirmed (issue 13).

"I like Pulp Fiction for the director" (a typed preference, :mod:`bot.dialog.preferences`) and "I don't
like the actors" at a suggested item (:mod:`bot.dialog.suggestions`) both ask this question; its answer
comes back to ``preferences.on_answer``. A plain module both import, so neither imports the other.
"""

from __future__ import annotations

from bot import messages as msg
from bot.dialog.acts import ConfirmQuestion, Outcome, PreferenceTask
from bot.dialog.context import TurnContext
from bot.dialog.render import display, option_names, stamp
from bot.turns import Choice
from logs.schema import Event

MAX_VALUES = 6
"""Values of one role named in an "all of them" question (the rest are left out)."""


def ask_role_values(ctx: TurnContext, item: str, roles: tuple[tuple[str, str], ...], outcome: Outcome) -> bool:
    """'Do you like all of them: A, B?' for the first role word with an opinion about ``item`` ("I don't
    like the director"): what it refers to is confirmed, as the original system did. True if asked."""
    for pid, polarity in roles:
        values = list(dict.fromkeys(v for p, v in ctx.kb.item_values(item) if p == pid))[:MAX_VALUES]
        if not values or polarity not in ("+", "-"):
            continue
        names = option_names(ctx, values)
        question = msg.ALL_VALUES_QUESTION.format(
            verb=msg.LIKE_VERBS[polarity], values=", ".join(names), title=display(ctx, item)
        )
        task = PreferenceTask(
            mention=display(ctx, item), candidates=values, polarity=polarity, role=pid, all_values=True
        )
        choices, number = stamp(ctx.state, [Choice(msg.YES, "yes"), Choice(msg.NO, "no")])
        ctx.state.pending = ConfirmQuestion(question=question, task=task, stamp=number, choices=choices)
        outcome.text = "\n".join(t for t in (outcome.text, question) if t)
        outcome.choices, outcome.card = choices, True
        outcome.events.extend(
            e for e in (Event.QUESTION, Event.PREFERENCE, Event.DISAMBIGUATION) if e not in outcome.events
        )
        outcome.webhook_contexts[ConfirmQuestion.context] = 2
        return True
    return False


def store_all_values(ctx: TurnContext, task: PreferenceTask, yes: bool, outcome: Outcome) -> None:
    """The answer to an "all of them" question: a yes stores every value with the task's polarity."""
    if not yes:
        outcome.text = msg.NOT_STORED.format(label=", ".join(option_names(ctx, task.candidates)))
        return
    for value in task.candidates:
        ctx.state.profile()[value] = {"polarity": task.polarity, "role": task.role}
        outcome.objects.append((value, task.polarity))
    marks = ", ".join(f"{msg.POLARITY_MARKS[task.polarity]} {name}" for name in option_names(ctx, task.candidates))
    outcome.text = msg.STORED.format(items=marks)


__all__ = ["MAX_VALUES", "ask_role_values", "store_all_values"]
