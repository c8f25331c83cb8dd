"""The nightly job: score what is new, then check the judge on a labelled golden set.

`run_nightly` is plain Python; the Prefect flow (`flows/orchestration/nightly_flow.py`)
passes task-wrapped steps to it, so both routes run the same code. The command line
is in `flows/cli/nightly_commands.py`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from faith_udfs import Judge, MetricConfig, score_cases
from faith_udfs.agreement import compare_verdicts
from faith_udfs.errors import ConfigError
from flows.errors import PassRateAlert, QuarantineShareExceeded, TooManyInvalid
from flows.nightly.alerts import AlertSettings, check_alerts, night_alerts, send_alerts
from flows.read.bundled import golden_set_path
from flows.read.golden import GoldenSet, read_golden
from flows.store.db import holds_no_database, open_store
from flows.store.judge_checks import record_check
from flows.store.run_registry import run_row
from flows.store.snapshot import write_snapshot
from schemas import JudgeCheck
from schemas.batches import percents_apart

if TYPE_CHECKING:
    import duckdb

    from flows.judges.settings import JudgeSettings
    from flows.run.progress import Progress
    from flows.run.run_state import Steps
    from flows.run.settings import ScoreSettings

log = logging.getLogger("faithpipe")

DEFAULT_AGREEMENT_FLOOR = 0.9


def check_judge(
    golden: GoldenSet, judge: Judge, config: MetricConfig, *, floor: float
) -> JudgeCheck:
    """Score the golden set with `judge` and `config` (nothing is stored) and compare; with
    the calls and tokens it spent (an LLM judge's)."""
    from flows.judges.factory import judge_usage

    started = time.perf_counter()
    before = judge_usage(judge)
    frames = score_cases(golden.cases, judge, config)
    spent = {key: value - before[key] for key, value in judge_usage(judge).items()}
    status = frames.case_scores["status"]
    pending = frames.case_scores.filter(status == "pending")["error"].drop_nulls()
    return JudgeCheck(
        config_id=config.config_id(judge.identity),
        golden=golden.path,
        golden_hash=golden.content_hash,
        cases=golden.cases.height,
        cases_invalid=int((status == "invalid").sum()),
        cases_pending=int((status == "pending").sum()),
        floor=floor,
        seconds=time.perf_counter() - started,
        items=compare_verdicts(golden.cases, frames.case_scores, frames.claim_verdicts),
        judge_calls=spent["calls"],
        prompt_tokens=spent["prompt_tokens"],
        completion_tokens=spent["completion_tokens"],
        pending_reason=pending[0] if len(pending) else None,
    )


@dataclass(frozen=True)
class CheckSteps:
    """The judge-check steps; the Prefect flow swaps in task-wrapped versions."""

    check: Callable[..., JudgeCheck] = check_judge
    record: Callable[[duckdb.DuckDBPyConnection, str, JudgeCheck], None] = record_check


def check_agreement_floor(floor: float) -> None:
    """Refuse an agreement floor outside 0..1, naming the option."""
    if not 0.0 <= floor <= 1.0:
        raise ConfigError(f"--agreement-floor must be between 0 and 1, got {floor}")


def check_night_options(golden: Path | str | None, alerts: AlertSettings | None = None) -> None:
    """Refuse what no night can use, before anything is read: an empty golden path (an unset
    variable; it checked against the bundled set without a word that the user's was not
    read), and `alerts` out of range or a webhook no POST can reach."""
    if golden is not None and not str(golden).strip():
        raise ConfigError(
            "--golden is empty: name the golden set's file, or leave --golden out for the "
            "bundled one"
        )
    if alerts is not None:
        check_alerts(alerts)


def read_before_creating(settings: ScoreSettings) -> Callable[[], object]:
    """Before a new database is made: read SOURCE as `faith score` does before it touches one
    (an input refused once read through, exit 3: a chat log with no time anywhere, made the
    file all the same). Returns SOURCE's read, made once: on an existing database when first
    asked, just before an LLM judge's paid start-up check (a refused input cost the check's
    calls first) or by the run, which scores from it, so a night reads its source through
    once; None on Dask, whose run reads it itself."""
    from flows.run.pipeline import read_before_writing

    if settings.on_dask:
        return lambda: None
    made = [read_before_writing(settings)] if holds_no_database(settings.db) else []

    def read() -> object:
        if not made:
            made.append(read_before_writing(settings))
        return made[0]

    return read


def run_nightly(
    settings: ScoreSettings,
    *,
    golden: Path | str | None = None,
    agreement_floor: float = DEFAULT_AGREEMENT_FLOOR,
    judge: Judge | None = None,
    steps: Steps | None = None,
    progress: Progress | None = None,
    check_steps: CheckSteps | None = None,
    alerts: AlertSettings | None = None,
) -> dict[str, Any]:
    """Score SOURCE as a `nightly` run, then check the judge on the golden set, then its pass
    rates against the trailing window (`alerts`; warnings go to its webhook).

    Returns the run's row of `runs` (with any drift warning) plus `judge_check`, the check's
    summary. A given `judge` is used again for the check after the run, so it must stay usable.
    """
    # Imported here: `faith` builds its parser from this module and must start fast.
    from flows.engines import check_engine_source, score_with_engine
    from flows.judges.factory import close_judge
    from flows.run.alarms import warn_if_mostly_invalid, warn_if_mostly_quarantined
    from flows.run.calibration import check_calibration_database, with_calibration
    from flows.run.stop_signals import completion_held

    # a flow's parameters and the environment too, on every route, before anything is read
    check_agreement_floor(agreement_floor)
    check_night_options(golden, alerts)
    check_steps = check_steps or CheckSteps()
    settings = settings.model_copy(update={"flow": "nightly"})
    golden_set = read_golden(golden or golden_set_path())
    # an unreadable source, one the engine does not read, or a judge no run could build,
    # fails before the database is touched
    check_engine_source(settings)
    if settings.dry_run:  # the estimate of the run; the judge check would call the judge
        return {**score_with_engine(settings, steps=steps, progress=progress), "judge_check": None}
    # Held from before the run to after its check: this process keeps the write lock, so no
    # other run slips in between (run_score's own connection shares this process's database).
    check_calibration_database(settings)  # before the file is created
    read_through = read_before_creating(settings)
    con = open_store(settings.db, lock_timeout=settings.lock_timeout)
    try:
        # --calibration NAME: the run and the judge check after it use the same cut-offs
        settings = with_calibration(settings, con)
        if settings.judge.kind == "openai" and judge is None:
            # Before any case is scored: an unusable LLM judge stops the night (exit 9) instead
            # of paying for invalid cases; a check passed within PREFLIGHT_VALID is not paid again.
            from flows.judges.check import require_usable_judge

            # The judge mode to use: given, remembered by `faith judge-check`, or found now.
            checked = require_usable_judge(settings.judge, con, before_paying=read_through)
            settings = settings.model_copy(update={"judge": checked})
        # The invalid share is checked, and the snapshot for readers written, after the judge
        # check: a night whose judge failed still records the check, and the copy carries it.
        scoring = settings.model_copy(
            update={"snapshot": False, "max_invalid_share": 1.0, "max_quarantine_share": 1.0}
        )
        # SOURCE's read: the one before the judge check when it was paid, not made again
        scored = score_with_engine(
            scoring, steps=steps, progress=progress, judge=judge, read=read_through()
        )
        checker = judge if judge is not None else golden_check_judge(settings.judge, con)
        try:
            check = check_steps.check(
                golden_set, checker, settings.metric_config(), floor=agreement_floor
            )
        finally:
            if judge is None:
                close_judge(checker)
        alerts = alerts or AlertSettings()
        # A stop waits (milliseconds) for the night's warnings and webhook messages, then its
        # check, to be stored: stopped between its check and its messages, a night's alerts
        # were lost (the next night sweeps only unchecked nights, night_runs.sql). Messages
        # first: a night killed between the two is swept, told twice rather than never. Each
        # message is marked as it arrives: a stop while sending leaves the rest to the next.
        with completion_held():
            too_many_invalid = warn_if_mostly_invalid(
                con, scored["run_id"], settings.max_invalid_share
            )
            drifted = warn_if_mostly_quarantined(
                con, scored["run_id"], settings.max_quarantine_share
            )
            drops = night_alerts(
                con,
                scored["run_id"],
                alerts,
                drift=check.warning,
                invalid=too_many_invalid,
                quarantine=drifted,
            )
            check_steps.record(con, scored["run_id"], check)
        send_alerts(con, scored["run_id"], alerts)
        night = {
            **run_row(con, scored["run_id"]),
            # the run line names them, as `faith score`'s does (hardening.md)
            "quarantine_checks": scored.get("quarantine_checks"),
            "judge_check": check.summary(),
        }
        if settings.snapshot:  # last: a disk too full for its checkpoint invalidates `con`
            write_snapshot(con, settings.db)
        if check.warning:
            log.warning("run %s: %s", scored["run_id"], check.warning)
        alarm = (
            QuarantineShareExceeded(drifted)
            if drifted
            else TooManyInvalid(too_many_invalid)
            if too_many_invalid
            else PassRateAlert(f"run {scored['run_id']} completed, but " + "; ".join(drops))
            if drops
            else None
        )
        if alarm is not None:
            alarm.night = night  # the CLI prints the night's lines before the error
            raise alarm
        return night
    finally:
        con.close()


def golden_check_judge(settings: JudgeSettings, con: duckdb.DuckDBPyConnection) -> Judge:
    """The judge the golden set is asked: asked afresh each night, never from judge_cache
    (the check watches for a model changed behind its name, which cached replies would hide);
    a batch judge's asked live, packed (its identity: the same config), as a batch of the
    golden set left the check incomplete until the next night, which then read judge_cache."""
    from flows.judges.factory import build_judge

    if settings.kind == "openai" and settings.mode == "batch":
        settings = settings.model_copy(update={"mode": "packed"})
    return build_judge(settings, con, cached=False)


def check_line(check: dict[str, Any]) -> str:
    """One terminal line: the judge check's outcome."""
    agreement = check["agreement"]
    said, floor = (
        ("n/a", f"{check['floor']:.1%}")
        if agreement is None
        else percents_apart(agreement, check["floor"])
    )
    verdict = {True: "ok", False: "BELOW THE FLOOR", None: "incomplete"}[check["passed"]]
    calls = check.get("judge_calls") or 0
    paid = (
        f"; {calls:,} judge calls, {check['prompt_tokens']:,} + {check['completion_tokens']:,} "
        "tokens"
        if calls
        else ""
    )
    return (
        f"judge check on {check['cases']:,} golden cases: agreement {said} "
        f"({check['agreed']:,}/{check['items']:,}), floor {floor}: {verdict}{paid}"
    )
