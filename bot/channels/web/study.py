"""The study configuration of ``corsbot web --study FILE`` (TOML): what participants see and which
condition each gets.

Example file (every key optional)::

    name = "pilot-2027"                  # the study (log session "web:pilot-2027")
    start_domain = "movie"               # movie | book | music
    consent = '''You are invited to ...  # shown before the chat; the participant must agree
    '''
    min_turns = 10                       # messages the participant typed (presses do not count) before "Finish"
    completion_code = "random"           # "random" (one per participant) or a fixed code, e.g. "C1A2B3C4"
    completion_url = "https://app.prolific.com/submissions/complete?cc={code}"   # optional link back
    feedback = true                      # the one satisfied / frustrated click (CRS Arena)
    evaluator = true                     # the outside evaluator's door at /agent

    [conditions]                         # condition name = elicitation setting (corsbot chat --help)
    popularity = "movie=popularity"
    no_suggestions = "none"

    [retrain]                            # what the console's "Retrain" runs (corsbot nlu train)
    data = []                            # dataset files besides the study's corrected log (default: released)
    extra = true                         # the agent's and our own training phrases
    folds = 5                            # cross-validation folds of the CV figure

Conditions are assigned when a participant arrives, balanced: the condition with the fewest participants
so far (ties: the first in the file). Without ``[conditions]`` every participant gets ``default``, the
elicitation setting of the command line (``--elicitation``, ``$CORSBOT_ELICITATION``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from corsbot_errors import ConfigError

__all__ = ["RetrainSettings", "StudyConfig", "load_study"]

_DOMAINS = ("movie", "book", "music")
_KEYS = {"name", "start_domain", "consent", "min_turns", "completion_code", "completion_url", "feedback",
         "evaluator", "conditions", "retrain", "session"}  # fmt: skip
MAX_CONSENT_CHARS = 20_000


@dataclass(frozen=True, slots=True)
class RetrainSettings:
    """What the console's retraining runs (``corsbot nlu train --logs ...``)."""

    data: tuple[Path, ...] = ()
    extra: bool = True
    folds: int = 5


@dataclass(frozen=True, slots=True)
class StudyConfig:
    """A study (see the module docstring).

    Attributes:
        name: the study's name; participants and figures are per study.
        conditions: condition name -> elicitation setting (``bot.suggestion.parse_elicitation``).
        start_domain: the domain of a new participant.
        consent: the consent text, or None (no consent step).
        min_turns: messages the participant typed (button presses do not count) needed before finishing.
        completion_code: ``"random"`` or a fixed code.
        completion_url: where the completion page links to (``{code}`` replaced), or None.
        feedback: offer the satisfied / frustrated click.
        evaluator: open the outside evaluator's door.
        retrain: the console's retraining settings.
        session: the log session of the participants' turns (default ``web:<name>``; ``web`` for the
            default study).
    """

    name: str = "default"
    conditions: dict[str, str] = field(default_factory=lambda: {"default": ""})
    start_domain: str = "movie"
    consent: str | None = None
    min_turns: int = 0
    completion_code: str = "random"
    completion_url: str | None = None
    feedback: bool = True
    evaluator: bool = True
    retrain: RetrainSettings = field(default_factory=RetrainSettings)
    session: str = ""

    @property
    def log_session(self) -> str:
        """The log session of the participants' turns."""
        return self.session or ("web" if self.name == "default" else f"web:{self.name}")

    @property
    def evaluator_session(self) -> str:
        """The log session of the outside evaluator's conversations (kept out of the study's figures)."""
        return f"{self.log_session}/evaluator"

    def assign(self, counts: dict[str, int]) -> str:
        """The condition for a new participant: the one with the fewest participants (first on ties)."""
        return min(self.conditions, key=lambda name: (counts.get(name, 0), list(self.conditions).index(name)))


def load_study(path: Path | None, *, default_elicitation: str = "") -> StudyConfig:
    """Read and check a study file (None: the default study with ``default_elicitation``).

    Raises:
        ConfigError: unreadable file, bad TOML, an unknown key, a bad value (the message names it).
    """
    if path is None:
        return StudyConfig(conditions={"default": default_elicitation})
    try:
        data: dict[str, Any] = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read the study file {path} ({exc.strerror or exc})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not a TOML study file ({exc})") from None
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ConfigError(f"{path}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(_KEYS))})")
    return _study(data, path, default_elicitation)


def _study(data: dict[str, Any], path: Path, default_elicitation: str) -> StudyConfig:
    from bot.suggestion import parse_elicitation

    def get(key: str, kind: type | tuple[type, ...], default: Any) -> Any:
        value = data.get(key, default)
        if value is not None and not isinstance(value, kind) or isinstance(value, bool) and kind is int:
            raise ConfigError(f"{path}: {key} has the wrong type ({type(value).__name__})")
        return value

    name = str(get("name", str, "default")).strip() or "default"
    start = get("start_domain", str, "movie")
    if start not in _DOMAINS:
        raise ConfigError(f"{path}: start_domain must be one of {', '.join(_DOMAINS)}")
    consent = get("consent", str, None)
    if consent is not None and len(consent) > MAX_CONSENT_CHARS:
        raise ConfigError(f"{path}: consent is longer than {MAX_CONSENT_CHARS} characters")
    min_turns = get("min_turns", int, 0)
    if not 0 <= min_turns <= 1000:
        raise ConfigError(f"{path}: min_turns must be between 0 and 1000")
    code = str(get("completion_code", str, "random")).strip() or "random"
    conditions_raw = get("conditions", dict, None)
    conditions = {"default": default_elicitation} if not conditions_raw else {}
    for cname, setting in (conditions_raw or {}).items():
        if not isinstance(setting, str) or not cname.strip():
            raise ConfigError(f'{path}: condition {cname!r} must be a name = "elicitation setting" pair')
        try:
            parse_elicitation(setting)
        except ConfigError as exc:
            raise ConfigError(f"{path}: condition {cname}: {exc}") from None
        conditions[str(cname)] = setting
    retrain_raw = get("retrain", dict, {})
    folds = retrain_raw.get("folds", 5)
    if not isinstance(folds, int) or isinstance(folds, bool) or not (folds == 0 or 2 <= folds <= 20):
        raise ConfigError(f"{path}: retrain.folds must be 0 (no CV figure) or 2-20")
    files = retrain_raw.get("data", [])
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        raise ConfigError(f"{path}: retrain.data must be a list of file paths")
    base = Path(path).resolve().parent
    retrain = RetrainSettings(tuple((base / f) for f in files), bool(retrain_raw.get("extra", True)), folds)
    return StudyConfig(
        name=name,
        conditions=conditions,
        start_domain=start,
        consent=consent.strip() if consent else None,
        min_turns=min_turns,
        completion_code=code,
        completion_url=get("completion_url", str, None),
        feedback=bool(get("feedback", bool, True)),
        evaluator=bool(get("evaluator", bool, True)),
        retrain=retrain,
        session=str(get("session", str, "")).strip(),
    )
