"""Is an LLM endpoint usable as the judge? The seed's three examples through every stage.

`faith judge-check` prints the report; the nightly run calls `require_usable_judge` first, so a
night does not pay for thousands of calls to a judge whose replies do not parse. A few small
requests: the found structured-output mode, each call's latency, whether the replies parse,
and the examples' scores against the seed's 1.0 / 1.0 / 0.5. Unless a judge mode is given,
packed is tried first and per-item after it; the mode that works is remembered for the
endpoint and model (judge_modes), with the latency measured (flows/judges/modes.py).
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import TYPE_CHECKING

import polars as pl

from faith_udfs import MetricConfig, score_cases
from flows.errors import JudgeEndpointError, JudgeUnusable
from flows.judges.endpoint.breaker import LEFT_PENDING
from flows.judges.endpoint.call_policy import CallPolicy
from flows.judges.endpoint.request_details import endpoint_key
from flows.judges.live.judge import OpenAIJudge
from flows.judges.live.tasks import DEFAULT_MODE
from flows.judges.modes import ModeSearch, remember_mode, with_remembered_mode
from flows.store.judge_memory import MEMORY_ERRORS, JudgeMemory

if TYPE_CHECKING:
    from collections.abc import Callable

    import duckdb

    from flows.judges.settings import JudgeSettings

log = logging.getLogger(__name__)

# The seed's lesson (shared/seeds/000): one policy line read, three answers, their scores.
SEED_CONTEXT = ("Order A17 shipped on 3 March by courier.",)
EXAMPLES = (
    ("grounded", "Order A17 shipped on 3 March.", 1.0),
    ("invented", "Order A17 shipped on 3 March. It arrives tomorrow.", 1.0),
    ("contradicting", "Order A17 was cancelled. We are sorry.", 0.5),
)
# A judge must score at least this many examples as the seed does (one slip allowed: a good
# model may, e.g., not count "We are sorry." as a claim).
AGREEING_EXAMPLES = 2
# One retry with a short backoff: the check is a few small requests, asked while a user waits.
CHECK_POLICY = CallPolicy(max_retries=1, backoff_base=0.2, backoff_max=2.0, overload_slack=False)
# A passed nightly preflight is trusted this long for the same endpoint, model and judge:
# under a day by hours, so a daily schedule checks every night (trusted for 24 hours, a night
# that started seconds earlier than the one before skipped it: every other night was checked)
# and a second run the same day does not pay it again.
PREFLIGHT_VALID = timedelta(hours=20)


@dataclass(frozen=True)
class JudgeCheckReport:
    """What the check found; `problem` is None when the judge can be used."""

    model: str
    mode: str
    response_format: str | None
    latencies: list[float]
    scores: dict[str, float | None]
    errors: dict[str, str]
    seconds: float
    problem: str | None = None
    calls: int = 0
    failed: int = 0
    notes: list[str] = field(default_factory=list)
    escalated: int = 0  # packed answers unusable or another item's, asked again alone
    concurrency: int = 1
    # The endpoint refuses every call (key, model) or cannot be reached (the circuit breaker
    # opened): exit 6, not 9; `problem` says which.
    unreachable: bool = False

    @property
    def usable(self) -> bool:
        return self.problem is None

    def lines(self) -> list[str]:
        """The report as terminal lines."""
        latency = ", ".join(f"{seconds:.2f}" for seconds in self.latencies) or "none"
        out = [
            f"judge {self.model} ({self.mode}): response_format "
            f"{self.response_format or 'none answered'}",
            f"calls {self.calls} ({self.failed} failed, {self.escalated} packed answers asked "
            f"again alone); latency per call at --concurrency {self.concurrency} (s): {latency}",
        ]
        for name, _, expected in EXAMPLES:
            score = self.scores.get(name)
            got = "invalid" if score is None else f"{score:.2f}"
            error = f" ({self.errors[name]})" if name in self.errors else ""
            out.append(f"  {name}: score {got}, expected {expected:.2f}{error}")
        out.append(
            f"usable: yes ({self.seconds:.1f} s)"
            if self.usable
            else f"usable: NO: {self.problem} ({self.seconds:.1f} s)"
        )
        return out


def seed_examples() -> pl.DataFrame:
    """The three examples as the frame `score_cases` takes."""
    return pl.DataFrame(
        [(name, answer, list(SEED_CONTEXT)) for name, answer, _ in EXAMPLES],
        schema={
            "case_id": pl.String,
            "actual_output": pl.String,
            "retrieval_context": pl.List(pl.String),
        },
        orient="row",
    )


def check_judge_endpoint(judge: OpenAIJudge) -> JudgeCheckReport:
    """Score the seed's examples with `judge` (its cache should be off: the endpoint is what
    is checked) and say whether it can be used."""
    started = time.perf_counter()
    frames = score_cases(seed_examples(), judge, MetricConfig())
    rows = {row["case_id"]: row for row in frames.case_scores.iter_rows(named=True)}
    scores = {name: rows[name]["score"] for name, _, _ in EXAMPLES}
    errors = {name: _checked(rows[name]["error"]) for name, _, _ in EXAMPLES if rows[name]["error"]}
    usage = judge.usage()
    return JudgeCheckReport(
        model=judge.model,
        mode=judge.mode,
        response_format=judge.response_format if judge.response_format_confirmed else None,
        latencies=judge.latencies,
        scores=scores,
        errors=errors,
        seconds=time.perf_counter() - started,
        problem=_checked(judge.fatal_error or "")
        or _problem(scores, errors, judge.mode, usage["escalated"]),
        unreachable=judge.fatal_error is not None,
        calls=usage["calls"],
        failed=usage["failed"],
        escalated=usage["escalated"],
    )


def _checked(said: str) -> str:
    """An endpoint's refusal (or an example's error) as a check says it: it has no cases to
    leave pending."""
    return said.replace(LEFT_PENDING, "fix the endpoint (or --base-url) and run again")


def _problem(
    scores: dict[str, float | None], errors: dict[str, str], mode: str, escalated: int
) -> str | None:
    """Why the judge cannot be used, or None."""
    if mode == "packed" and escalated and len(errors) < len(EXAMPLES):
        # Asked again alone, the items may well have passed: the model still cannot answer
        # packed prompts, and a run would pay for every pack twice. (None passed alone: the
        # endpoint refuses them all, a 400 to every request, and per-item fails as well.)
        return (
            f"{escalated} packed answers were unusable or another item's and had to be asked "
            "again one by one: this model cannot answer packed prompts (try --judge-mode "
            "per-item)"
        )
    if errors:
        name, error = next(iter(errors.items()))
        return f"{len(errors)} of {len(EXAMPLES)} examples could not be judged; {name}: {error}"
    agreeing = sum(
        score is not None and abs(score - expected) < 0.01
        for (name, _, expected), score in zip(EXAMPLES, scores.values(), strict=True)
    )
    if agreeing >= AGREEING_EXAMPLES:
        return None
    got = " / ".join("-" if s is None else f"{s:.2f}" for s in scores.values())
    return (
        f"the replies parse, but the scores {got} match the seed's 1.00 / 1.00 / 0.50 on "
        f"{agreeing} of {len(EXAMPLES)} examples: the model does not judge faithfulness "
        "(see README, Judging with an LLM: model size)"
    )


def checking_judge(settings: JudgeSettings, mode: str, concurrency: int) -> OpenAIJudge:
    """A judge for the check: the run's model and limits in `mode`, `concurrency` calls at
    once, no cache, no remembered mode (the check finds the mode again), one retry with a
    short backoff."""
    only = settings.model_copy(
        update={
            "mode": mode,
            "concurrency": concurrency,
            "max_calls": None,
            "max_tokens": None,
            "rpm": None,
            "tpm": None,
            "llm_reason": False,
            # Its calls are tried twice: an endpoint that fails them all in the same way
            # (refused, DNS, TLS) is unreachable, exit 6, not a judge that cannot judge.
            "breaker_failures": min(settings.breaker_failures, 2),
        }
    )
    return OpenAIJudge(only, policy=CHECK_POLICY)


def run_judge_check(
    settings: JudgeSettings, memory: JudgeMemory | None = None, *, concurrency: int | None = None
) -> ModeSearch:
    """Check the endpoint the settings name in their mode, or (none given) packed, then
    per-item when packed cannot be used; with `memory`, remember each check and the mode
    that works. `concurrency`: calls sent at once (default: the settings', at most 4)."""
    at_once = concurrency or min(settings.concurrency, 4)
    # Batch mode asks the packed questions through the Batch API: checked live, packed.
    given = "packed" if settings.mode == "batch" else settings.mode
    reports: list[JudgeCheckReport] = []
    for mode in [given] if given else ["packed", "per-item"]:
        with checking_judge(settings, mode, at_once) as judge:
            report = replace(check_judge_endpoint(judge), concurrency=at_once)
        reports.append(report)
        if memory is not None:
            _record(memory, settings, report)
        if report.usable or judge.fatal_error:
            break
    search = ModeSearch(reports=reports, concurrency=at_once, searched=given is None)
    if memory is not None:
        remember_mode(memory, endpoint_key(settings.base_url), settings.model or "", search)
    return search


def require_usable_judge(
    settings: JudgeSettings,
    con: duckdb.DuckDBPyConnection,
    before_paying: Callable[[], object] | None = None,
) -> JudgeSettings:
    """The nightly preflight: pass at once when this endpoint, model and judge passed a check
    within PREFLIGHT_VALID, else check now; JudgeUnusable stops the night before it pays.
    `before_paying` runs just before the check's calls are made (the night reads its input
    through: one refused must not cost them). Returns the settings with the judge mode to use
    (the given one, else the remembered or found one)."""
    memory = JudgeMemory(con)
    try:
        settings = with_remembered_mode(settings, memory)
        key, identity = endpoint_key(settings.base_url), _identity(settings, settings.mode)
        try:
            passed = memory.passed_check(
                key, settings.model or "", identity, within=PREFLIGHT_VALID
            )
        except MEMORY_ERRORS:
            passed = None
        if passed is not None:
            log.info("judge check: passed at %s UTC; not asked again", f"{passed[0]:%H:%M}")
            return settings
        if before_paying is not None:
            before_paying()
        search = run_judge_check(settings, memory)
        for line in search.lines():
            log.info("judge check: %s", line)
        if search.unreachable:
            raise JudgeEndpointError(
                f"{search.problem}; nothing was scored (the nightly judge check)"
            )
        if search.usable_mode is None:
            raise JudgeUnusable(
                f"the judge {settings.model} cannot be used, so nothing was scored: "
                f"{search.problem}; run `faith judge-check` for the details"
            )
        if settings.mode is None:
            return settings.model_copy(update={"mode": search.usable_mode})
        return settings
    finally:
        memory.close()


def _identity(settings: JudgeSettings, mode: str | None) -> str:
    return json.dumps({"model": settings.model, "mode": mode or DEFAULT_MODE}, sort_keys=True)


def _record(memory: JudgeMemory, settings: JudgeSettings, report: JudgeCheckReport) -> None:
    key = endpoint_key(settings.base_url)
    # A check of packed mode for batch settings is the batch judge's check too.
    mode = settings.mode if settings.mode == "batch" else report.mode
    try:
        if report.response_format is not None:
            memory.remember_format(key, report.model, report.response_format)
        memory.record_check(
            key,
            report.model,
            _identity(settings, mode),
            usable=report.usable,
            response_format=report.response_format,
            calls=report.calls,
            seconds=report.seconds,
            scores=json.dumps(report.scores),
            problem=report.problem,
        )
    except MEMORY_ERRORS as exc:
        log.warning("judge check not recorded (%s)", type(exc).__name__)
