"""What one batch, or one judge check, carries from one room of flows/ to the next: plain
frames and counts, no I/O. Here so that every room may name them (read/, run/, store/,
nightly/), and the imports still run one way."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import polars as pl

from faith_udfs import FaithfulnessFrames

__all__ = ["JudgeCheck", "ScoredBatch", "ValidatedRows", "percents_apart"]

_MOST_DECIMALS = 12  # a float's digits: two values closer than this are the same figure


def percents_apart(value: float, floor: float) -> tuple[str, str]:
    """`value` and `floor` as percentages, with as many decimals (one at least) as tell two
    different ones apart: an agreement of 35/37 under a floor of 0.946 read `94.6% is below
    the floor 94.6%`."""
    decimals = 1
    while (
        value != floor
        and decimals < _MOST_DECIMALS
        and f"{value:.{decimals}%}" == f"{floor:.{decimals}%}"
    ):
        decimals += 1
    return f"{value:.{decimals}%}", f"{floor:.{decimals}%}"


@dataclass(frozen=True)
class ValidatedRows:
    """A raw batch split into valid rows (with `source_file`) and quarantine rows."""

    valid: pl.DataFrame
    quarantined: pl.DataFrame
    seconds: float


@dataclass(frozen=True)
class ScoredBatch:
    """What one batch produced: the frames to write and the counts to add to the run."""

    cases: pl.DataFrame
    classified: pl.DataFrame
    frames: FaithfulnessFrames | None
    usage: pl.DataFrame | None
    quarantined: pl.DataFrame
    counts: dict[str, int]
    seconds_score: float
    spent: dict[str, int]  # judge calls and tokens this batch cost


@dataclass(frozen=True)
class JudgeCheck:
    """A judge compared with the golden set's expected verdicts, item by item."""

    config_id: str
    golden: str
    golden_hash: str
    cases: int
    cases_invalid: int
    cases_pending: int
    floor: float
    seconds: float
    items: pl.DataFrame = field(repr=False)
    # What the check asked an LLM judge (0 for the offline judges): asked afresh each night,
    # never from judge_cache, so the night's bill holds it.
    judge_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # Why golden cases were left pending (the first one's error: the circuit breaker opened,
    # the key refused, --max-calls spent), for the warning of an incomplete check.
    pending_reason: str | None = None
    checked_at: datetime = field(default_factory=lambda: datetime.now(UTC).replace(tzinfo=None))

    @property
    def agreed(self) -> int:
        return int(self.items["agreed"].sum())

    @property
    def agreement(self) -> float | None:
        """The share of items agreed; None when pending cases leave the check incomplete (its
        agreement is unknown: counted as 0 it read as a judge that fell to 0% and back)."""
        if self.cases_pending or not self.items.height:
            return None
        return self.agreed / self.items.height

    @property
    def passed(self) -> bool | None:
        """agreement >= floor; None when pending cases leave the check incomplete."""
        if self.agreement is None:  # pending cases, or no item
            return None
        return self.agreement >= self.floor

    @property
    def warning(self) -> str | None:
        """What the run is marked with when the check fails or is incomplete."""
        if self.passed is None:
            why = self.pending_reason or "a judge cap reached"
            return (
                f"judge check incomplete: {self.cases_pending:,} of {self.cases:,} golden cases "
                f"pending ({why}); agreement not compared with the floor"
            )
        if self.passed:
            return None
        invalid = f", {self.cases_invalid:,} golden cases invalid" if self.cases_invalid else ""
        assert self.agreement is not None  # passed is False
        agreement, floor = percents_apart(self.agreement, self.floor)
        return (
            f"judge drift: agreement with the golden set {agreement} "
            f"({self.agreed:,}/{self.items.height:,}{invalid}) is below the floor "
            f"{floor}; "
            "this run's verdicts may not mean what earlier runs' did "
            "(see judge_check_verdicts)"
        )

    def summary(self) -> dict[str, Any]:
        """JSON-ready summary, with the items the judge disagreed on."""
        wrong = self.items.filter(~pl.col("agreed")).drop("agreed")
        return {
            "config_id": self.config_id,
            "golden": self.golden,
            "golden_hash": self.golden_hash,
            "cases": self.cases,
            "cases_invalid": self.cases_invalid,
            "cases_pending": self.cases_pending,
            "items": self.items.height,
            "agreed": self.agreed,
            "agreement": self.agreement,
            "floor": self.floor,
            "passed": self.passed,
            "warning": self.warning,
            "judge_calls": self.judge_calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "disagreements": wrong.to_dicts(),
        }
