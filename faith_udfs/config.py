"""The metric config: every setting that changes a verdict, a score or a success, and its id."""

from __future__ import annotations

import hashlib
import json
import numbers
from dataclasses import asdict, dataclass, field

from faith_udfs.errors import ConfigError

# Bump when the scoring rules change meaning (vocabulary, score formula, strict mode, no-claims
# rule): a new version is a new config id, hence a new series in every view.
SCORING_RULES_VERSION = "faithfulness-score-v1"


def check_threshold(value: float, name: str = "threshold") -> None:
    """The one rule for a pass mark: a number from 0 to 1 (the CLI and the report use it too)."""
    if value is None:  # float(None) was a bare TypeError
        raise ConfigError(
            f"{name}=None (DeepEval's score-only mode) is not taken: give a pass mark from 0 "
            "to 1; the score is kept whatever it is"
        )
    # True would pass as 1.0, and a string ("0.5", from a setting read as text) as a number
    if isinstance(value, bool | str | bytes):
        raise ConfigError(f"{name} must be a number from 0 to 1, got {value!r}")
    try:
        number = float(value)
    except (TypeError, ValueError):  # a list, a dict, a complex: float() names no setting
        raise ConfigError(f"{name} must be a number from 0 to 1, got {value!r}") from None
    if not 0.0 <= number <= 1.0:
        raise ConfigError(f"{name} must be between 0 and 1, got {value!r}")


@dataclass(frozen=True)
class JudgeIdentity:
    """What makes two judges give the same verdicts: kind, model, prompt template version.

    Never holds a secret: it is stored in tables and shown in logs.
    """

    kind: str
    model: str
    prompt_version: str
    options: tuple[tuple[str, str], ...] = ()

    def as_dict(self) -> dict[str, object]:
        """Plain dict for JSON (runs.config, artifacts)."""
        return {
            "kind": self.kind,
            "model": self.model,
            "prompt_version": self.prompt_version,
            "options": dict(self.options),
        }


# numpy's bool types, by name: faith_udfs does not import numpy for a type check
_NUMPY_BOOLS = {("numpy", "bool"), ("numpy", "bool_")}


def check_flag(value: object, name: str) -> bool:
    """The one rule for a True-or-False setting: a bool, numpy's bool_ too (a setting read
    from a frame), as a plain bool; a string is refused: "False" is a true value, and
    strict_mode="False" turned strict mode on."""
    kind = type(value)
    if not isinstance(value, bool) and (kind.__module__, kind.__name__) not in _NUMPY_BOOLS:
        raise ConfigError(f"{name} must be True or False, got {value!r}")
    return bool(value)


@dataclass(frozen=True)
class MetricConfig:
    """DeepEval-shaped settings of the faithfulness metric (defaults as DeepEval's)."""

    threshold: float = 0.5
    penalize_ambiguous_claims: bool = False
    strict_mode: bool = False
    include_reason: bool = True
    truths_extraction_limit: int | None = None
    scoring_rules_version: str = field(default=SCORING_RULES_VERSION)

    def __post_init__(self) -> None:
        check_threshold(self.threshold)
        for name in ("penalize_ambiguous_claims", "strict_mode", "include_reason"):
            # a plain bool: it is hashed as JSON
            object.__setattr__(self, name, check_flag(getattr(self, name), name))
        limit = self.truths_extraction_limit
        if limit is None:
            return
        # numpy's integers too (a setting read from a frame): Integral, as a bool is not here
        kind = type(limit)
        if (
            isinstance(limit, bool)
            or (kind.__module__, kind.__name__) in _NUMPY_BOOLS
            or not isinstance(limit, numbers.Integral)
            or limit < 1
        ):
            raise ConfigError(
                f"truths_extraction_limit must be a positive integer or None, got {limit!r}"
            )
        object.__setattr__(self, "truths_extraction_limit", int(limit))  # hashed as JSON

    @property
    def effective_threshold(self) -> float:
        """The threshold success is judged against: 1 in strict mode, as in DeepEval."""
        return 1.0 if self.strict_mode else float(self.threshold)

    def config_id(self, judge: JudgeIdentity) -> str:
        """Stable id of (judge identity, scoring rules, settings that change a score or success).

        `include_reason` only changes prose, so it is left out: turning it on or off does not
        start a new series.
        """
        payload = {"judge": judge.as_dict(), **self.identity_settings()}
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        return f"faith-{digest[:16]}"

    def identity_settings(self) -> dict[str, object]:
        """The settings that enter the config id."""
        settings = asdict(self)
        settings.pop("include_reason")
        settings["threshold"] = float(self.threshold)
        return settings
