"""Which judge mode a model can use, and how long its calls take: found by `faith judge-check`,
remembered per endpoint and model (`judge_modes`, migration 018), used by `faith score` and
`faith nightly` unless `--judge-mode` (or `--timeout`) is given (docs/small-models.md)."""

from __future__ import annotations

import logging
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from flows.judges.endpoint.call_policy import MAX_TIMEOUT
from flows.judges.endpoint.request_details import endpoint_key
from flows.store.judge_memory import MEMORY_ERRORS, JudgeMemory, JudgeMode

if TYPE_CHECKING:
    from flows.judges.settings import JudgeSettings

log = logging.getLogger(__name__)

# --timeout left unset: this many times the slowest call the check measured (a run's calls
# carry bigger packs than the check's three examples, and queue behind each other), never
# below the default.
TIMEOUT_FACTOR = 3
DEFAULT_TIMEOUT = 60.0


def suggested_timeout(slowest: float | None) -> float:
    """Seconds per call that fit a server whose slowest checked call took `slowest`; never
    past what --timeout takes (MAX_TIMEOUT), so the suggestion can be typed."""
    if slowest is None:
        return DEFAULT_TIMEOUT
    return min(MAX_TIMEOUT, max(DEFAULT_TIMEOUT, float(math.ceil(TIMEOUT_FACTOR * slowest))))


class CheckReport(Protocol):
    """What one judge check found, as the mode search reads it (flows/judges/check.py's
    JudgeCheckReport; named by its shape so the check can import this module)."""

    @property
    def mode(self) -> str: ...

    @property
    def latencies(self) -> list[float]: ...

    @property
    def problem(self) -> str | None: ...

    @property
    def unreachable(self) -> bool: ...

    @property
    def usable(self) -> bool: ...

    def lines(self) -> list[str]: ...


@dataclass(frozen=True)
class ModeSearch:
    """The checks of one `faith judge-check`: packed, then per-item if packed failed."""

    reports: Sequence[CheckReport]
    concurrency: int
    searched: bool = True  # False: the mode was given, only it was checked

    @property
    def usable_mode(self) -> str | None:
        """The first mode whose check passed, or None."""
        return next((r.mode for r in self.reports if r.usable), None)

    @property
    def unreachable(self) -> bool:
        """The endpoint refused or could not be reached: exit 6, not a judge that cannot judge."""
        return any(report.unreachable for report in self.reports)

    @property
    def problem(self) -> str | None:
        """Why no mode can be used (the last check's reason), or None."""
        return None if self.usable_mode else self.reports[-1].problem

    @property
    def latencies(self) -> list[float]:
        """Seconds of the usable mode's calls (every check's when none is usable)."""
        usable = [r for r in self.reports if r.usable]
        return [s for r in usable or self.reports for s in r.latencies]

    def lines(self) -> list[str]:
        """Every check's report, then the mode to use and the --timeout that fits."""
        out = [line for report in self.reports for line in report.lines()]
        mode = self.usable_mode
        if mode is not None and self.searched:
            tried = [r.mode for r in self.reports if not r.usable]
            why = f" ({', '.join(tried)} cannot be used)" if tried else ""
            out.append(f"judge mode: {mode}{why}")
        latencies = self.latencies
        if latencies:
            slowest = max(latencies)
            out.append(
                f"latency at --concurrency {self.concurrency}: median "
                f"{statistics.median(latencies):.2f} s, slowest {slowest:.2f} s; "
                f"--timeout {suggested_timeout(slowest):g} fits (3x the slowest, at least 60)"
            )
        return out


def remember_mode(memory: JudgeMemory, key: str, model: str, search: ModeSearch) -> None:
    """Store the usable mode and its latency for the endpoint and model (nothing when no mode
    could be used: the mode remembered before stays)."""
    mode = search.usable_mode
    if mode is None:
        return
    latencies = search.latencies
    row = JudgeMode(
        judge_mode=mode,
        seconds_per_call=statistics.median(latencies) if latencies else None,
        slowest_call=max(latencies) if latencies else None,
        concurrency=search.concurrency,
    )
    try:
        memory.remember_mode(key, model, row)
    except MEMORY_ERRORS as exc:
        log.warning("judge mode not remembered (%s)", type(exc).__name__)


def with_remembered_mode(settings: JudgeSettings, memory: JudgeMemory) -> JudgeSettings:
    """`settings` with the judge mode `faith judge-check` remembered for its endpoint and
    model when none is given, and, when --timeout is not given, a timeout that fits the
    latency measured (`suggested_timeout`). LLM judges only; a memory that cannot be read
    changes nothing."""
    if settings.kind != "openai" or not settings.model:
        return settings
    try:
        found = memory.judge_mode(endpoint_key(settings.base_url), settings.model)
    except MEMORY_ERRORS as exc:
        log.warning("judge memory unreadable (%s); judge mode as given", type(exc).__name__)
        return settings
    if found is None:
        return settings
    update: dict[str, object] = {}
    if settings.mode is None:
        update["mode"] = found.judge_mode
        log.info(
            "judge %s: judge mode %s, as `faith judge-check` found for this endpoint",
            settings.model,
            found.judge_mode,
        )
    fitting = suggested_timeout(found.slowest_call)
    if "timeout" not in settings.model_fields_set and fitting > settings.timeout:
        update["timeout"] = fitting
        log.info(
            "judge %s: --timeout %g s (3x the slowest call judge-check measured)",
            settings.model,
            fitting,
        )
    return settings.model_copy(update=update) if update else settings
