"""The nightly job: score what is new, then check the judge on a labelled golden set.

`run_nightly` is plain Python; the Prefect flow (`flows/nightly_flow.py`) passes task-wrapped
steps to it, so both routes run the same code. This module does not import Prefect, so the
`faith` CLI that adds `nightly` and `serve` from here stays fast.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
import polars as pl

from faith_udfs import Judge, MetricConfig, score_cases
from faith_udfs.errors import ConfigError
from flows.errors import InputUnreadable, TooManyInvalid
from flows.source import resolve_source
from flows.store import open_store, register, run, sql, transaction, write_snapshot

if TYPE_CHECKING:
    from flows.pipeline import Progress, Steps
    from flows.settings import ScoreSettings

log = logging.getLogger("faithpipe")

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "golden.parquet"
DEFAULT_AGREEMENT_FLOOR = 0.9
GOLDEN_SCHEMA: dict[str, pl.DataType] = {
    "case_id": pl.String(),
    "actual_output": pl.String(),
    "retrieval_context": pl.List(pl.String()),
    "expected_verdicts": pl.List(pl.String()),
}
VERDICTS = ("yes", "no", "idk")
# A claim the golden set expects none for (chit-chat) agrees unless the judge calls it one of these.
DECISIVE = ("yes", "no")


@dataclass(frozen=True)
class GoldenSet:
    """The labelled cases a judge is checked on, and a hash naming their content."""

    path: str
    cases: pl.DataFrame
    content_hash: str


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
    checked_at: datetime = field(default_factory=lambda: datetime.now(UTC).replace(tzinfo=None))

    @property
    def agreed(self) -> int:
        return int(self.items["agreed"].sum())

    @property
    def agreement(self) -> float | None:
        return self.agreed / self.items.height if self.items.height else None

    @property
    def passed(self) -> bool | None:
        """agreement >= floor; None when pending cases leave the check incomplete."""
        if self.cases_pending or self.agreement is None:
            return None
        return self.agreement >= self.floor

    @property
    def warning(self) -> str | None:
        """What the run is marked with when the check fails or is incomplete."""
        if self.passed is None:
            return (
                f"judge check incomplete: {self.cases_pending} of {self.cases} golden cases "
                "pending (judge call budget spent); agreement not compared with the floor"
            )
        if self.passed:
            return None
        invalid = f", {self.cases_invalid} golden cases invalid" if self.cases_invalid else ""
        return (
            f"judge drift: agreement with the golden set {self.agreement:.1%} "
            f"({self.agreed}/{self.items.height}{invalid}) is below the floor {self.floor:.1%}; "
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
            "disagreements": wrong.to_dicts(),
        }


def read_golden(path: Path | str) -> GoldenSet:
    """Read and check a golden set (see `data/golden.py`); a bad one fails before any run."""
    path = Path(path)
    try:
        frame = pl.read_parquet(path, glob=False)
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise InputUnreadable(
            f"golden set {path}: not readable ({type(exc).__name__}); "
            "`python data/golden.py` writes the bundled one, or pass --golden PATH"
        ) from None
    missing = [name for name in GOLDEN_SCHEMA if name not in frame.columns]
    wrong = [
        name
        for name, dtype in GOLDEN_SCHEMA.items()
        if name in frame.columns and frame.schema[name] != dtype
    ]
    if missing or wrong:
        raise InputUnreadable(
            f"golden set {path}: missing columns {missing}, wrong types {wrong}; expected "
            + ", ".join(f"{name}: {dtype}" for name, dtype in GOLDEN_SCHEMA.items())
        )
    cases = frame.select(list(GOLDEN_SCHEMA))
    unknown = cases.select(pl.col("expected_verdicts").explode()).drop_nulls().unique()
    unknown = unknown.filter(~pl.col("expected_verdicts").is_in(list(VERDICTS)))
    if unknown.height or cases["case_id"].is_duplicated().any() or cases["case_id"].has_nulls():
        raise InputUnreadable(
            f"golden set {path}: case_id must be unique and not null, and expected_verdicts "
            f"only {'/'.join(VERDICTS)} (found {unknown['expected_verdicts'].to_list()})"
        )
    content = json.dumps(cases.sort("case_id").to_dicts(), sort_keys=True)
    digest = hashlib.md5(content.encode(), usedforsecurity=False).hexdigest()
    return GoldenSet(path=str(path), cases=cases, content_hash=digest)


def compare_verdicts(
    golden: pl.DataFrame, case_scores: pl.DataFrame, claim_verdicts: pl.DataFrame
) -> pl.DataFrame:
    """One row an item: each expected verdict against the judge's at the same claim index
    (extra or missing claims disagree); in an answer expected to have no claims, each claim
    the judge found, or one row when it found none. Cases not `scored` never agree."""
    expects_claims = pl.col("expected_verdicts").list.len() > 0
    found = claim_verdicts.select("case_id", "claim_index", "claim", "verdict")
    with_claims = golden.filter(expects_claims)
    expected = (
        with_claims.select(
            "case_id",
            expected="expected_verdicts",
            claim_index=pl.int_ranges(pl.col("expected_verdicts").list.len(), dtype=pl.Int32),
        )
        .explode("expected", "claim_index")
        .join(
            found.join(with_claims, on="case_id", how="semi"),
            on=["case_id", "claim_index"],
            how="full",
            coalesce=True,
        )
    )
    without_claims = golden.filter(~expects_claims).select("case_id")
    found_anyway = found.join(without_claims, on="case_id", how="semi")
    none_found = without_claims.join(found_anyway, on="case_id", how="anti")
    items = pl.concat([expected, found_anyway, none_found], how="diagonal_relaxed").join(
        case_scores.select("case_id", "status"), on="case_id", how="left"
    )
    same = pl.col("verdict") == pl.col("expected")
    undecided = ~pl.col("verdict").is_in(list(DECISIVE)).fill_null(False)
    agreed = pl.when(pl.col("expected").is_null()).then(undecided).otherwise(same)
    return items.select(
        "case_id",
        pl.col("claim_index").cast(pl.Int32),
        pl.col("claim").cast(pl.String),
        pl.col("expected").cast(pl.String),
        pl.col("verdict").cast(pl.String),
        agreed=(agreed & (pl.col("status") == "scored")).fill_null(False),
    ).sort("case_id", "claim_index", nulls_last=True)


def check_judge(
    golden: GoldenSet, judge: Judge, config: MetricConfig, *, floor: float
) -> JudgeCheck:
    """Score the golden set with `judge` and `config` (nothing is stored) and compare."""
    started = time.perf_counter()
    frames = score_cases(golden.cases, judge, config)
    status = frames.case_scores["status"]
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
    )


def record_check(con: duckdb.DuckDBPyConnection, run_id: str, check: JudgeCheck) -> None:
    """Store the check in `judge_checks` and its items, and warn on the run, in one transaction."""
    register(con, "check_items", check.items)
    try:
        with transaction(con):
            run(
                con,
                "record_judge_check",
                {
                    "run_id": run_id,
                    "config_id": check.config_id,
                    "golden": check.golden,
                    "golden_hash": check.golden_hash,
                    "checked_at": check.checked_at,
                    "cases": check.cases,
                    "cases_invalid": check.cases_invalid,
                    "cases_pending": check.cases_pending,
                    "items": check.items.height,
                    "agreed": check.agreed,
                    "agreement": check.agreement,
                    "floor": check.floor,
                    "passed": check.passed,
                    "seconds": check.seconds,
                },
            )
            if check.warning:
                con.execute(sql("mark_run_warning"), {"run_id": run_id, "warning": check.warning})
    finally:
        con.unregister("check_items")


@dataclass(frozen=True)
class CheckSteps:
    """The judge-check steps; the Prefect flow swaps in task-wrapped versions."""

    check: Callable[..., JudgeCheck] = check_judge
    record: Callable[[duckdb.DuckDBPyConnection, str, JudgeCheck], None] = record_check


def check_agreement_floor(floor: float) -> None:
    """Refuse an agreement floor outside 0..1, naming the option."""
    if not 0.0 <= floor <= 1.0:
        raise ConfigError(f"--agreement-floor must be between 0 and 1, got {floor}")


def run_nightly(
    settings: ScoreSettings,
    *,
    golden: Path | str | None = None,
    agreement_floor: float = DEFAULT_AGREEMENT_FLOOR,
    judge: Judge | None = None,
    steps: Steps | None = None,
    progress: Progress | None = None,
    check_steps: CheckSteps | None = None,
) -> dict[str, Any]:
    """Score SOURCE as a `nightly` run, then check the judge on the golden set.

    Returns the run's row of `runs` (with any drift warning) plus `judge_check`, the check's
    summary. A given `judge` is used again for the check after the run, so it must stay usable.
    """
    # Imported here: `faith` builds its parser from this module and must start fast.
    from flows.judge_factory import build_judge, close_judge
    from flows.pipeline import run_row, run_score, warn_if_mostly_invalid

    check_agreement_floor(agreement_floor)
    check_steps = check_steps or CheckSteps()
    settings = settings.model_copy(update={"flow": "nightly"})
    golden_set = read_golden(golden or GOLDEN)
    resolve_source(settings.source)  # an unreadable source fails before the database is touched
    # Held from before the run to after its check: this process keeps the write lock, so no
    # other run slips in between (run_score's own connection shares this process's database).
    con = open_store(settings.db, lock_timeout=settings.lock_timeout)
    try:
        # The invalid share is checked, and the snapshot for readers written, after the judge
        # check: a night whose judge failed still records the check, and the copy carries it.
        scoring = settings.model_copy(update={"snapshot": False, "max_invalid_share": 1.0})
        scored = run_score(scoring, steps=steps, progress=progress, judge=judge)
        checker = judge if judge is not None else build_judge(settings.judge, con)
        try:
            check = check_steps.check(
                golden_set, checker, settings.metric_config(), floor=agreement_floor
            )
        finally:
            if judge is None:
                close_judge(checker)
        check_steps.record(con, scored["run_id"], check)
        too_many_invalid = warn_if_mostly_invalid(con, scored["run_id"], settings.max_invalid_share)
        if settings.snapshot:
            write_snapshot(con, settings.db)
        if check.warning:
            log.warning("run %s: %s", scored["run_id"], check.warning)
        if too_many_invalid:
            raise TooManyInvalid(too_many_invalid)
        return {**run_row(con, scored["run_id"]), "judge_check": check.summary()}
    finally:
        con.close()


def check_line(check: dict[str, Any]) -> str:
    """One terminal line: the judge check's outcome."""
    agreement = check["agreement"]
    said = "n/a" if agreement is None else f"{agreement:.1%}"
    verdict = {True: "ok", False: "BELOW THE FLOOR", None: "incomplete"}[check["passed"]]
    return (
        f"judge check on {check['cases']} golden cases: agreement {said} "
        f"({check['agreed']}/{check['items']}), floor {check['floor']:.1%}: {verdict}"
    )


# --- the command line ---------------------------------------------------------------------


def add_nightly_commands(commands: argparse._SubParsersAction) -> None:
    """Add `faith nightly` and `faith serve` to the CLI's subcommands."""
    from flows.cli import add_run_arguments

    nightly = commands.add_parser(
        "nightly",
        help="score what is new in SOURCE, then check the judge on the golden set",
        description="Score the cases of SOURCE not yet scored under this metric config (and "
        "those left invalid or pending), batch by batch, as a `nightly` run; then score the "
        "golden set with the same judge and store the agreement in judge_checks. A run below "
        "--agreement-floor is marked with a drift warning.",
    )
    nightly.add_argument("source", metavar="SOURCE", help="Parquet file, folder or glob")
    add_run_arguments(nightly)
    _add_check_arguments(nightly)
    nightly.set_defaults(command=nightly_command)

    serve = commands.add_parser(
        "serve",
        help="serve the nightly flow on a cron schedule (Prefect)",
        description="Serve the nightly flow of SOURCE on a cron schedule with Prefect: this "
        "process registers the deployment with the Prefect server (PREFECT_API_URL; the "
        "temporary server has no scheduler) and runs each scheduled run until stopped (Ctrl-C).",
    )
    serve.add_argument("source", metavar="SOURCE", help="Parquet file, folder or glob")
    add_run_arguments(serve)
    _add_check_arguments(serve)
    schedule = serve.add_argument_group("schedule")
    schedule.add_argument("--cron", default="0 2 * * *", help='cron schedule (default "0 2 * * *")')
    schedule.add_argument("--timezone", default="UTC", help="IANA zone of the cron (default UTC)")
    schedule.add_argument("--name", default="nightly", help="deployment name (default nightly)")
    schedule.add_argument(
        "--dry-run",
        action="store_true",
        help="print the deployment (name, schedule, parameters) as JSON and exit",
    )
    for action in serve._actions:  # serve always runs through Prefect
        if action.dest == "prefect":
            action.help = argparse.SUPPRESS
    serve.set_defaults(command=serve_command)


def _add_check_arguments(parser: argparse.ArgumentParser) -> None:
    check = parser.add_argument_group("judge check")
    check.add_argument(
        "--golden",
        metavar="PATH",
        help=f"labelled golden set (default {GOLDEN.relative_to(GOLDEN.parent.parent)})",
    )
    check.add_argument(
        "--agreement-floor",
        type=float,
        default=DEFAULT_AGREEMENT_FLOOR,
        metavar="F",
        help=f"warn when agreement with the golden set is below F "
        f"(default {DEFAULT_AGREEMENT_FLOOR})",
    )


def nightly_command(args: argparse.Namespace) -> int:
    from flows.cli import EXIT_OK, settings_from, use_prefect
    from flows.console import console_progress
    from flows.summary import run_line

    settings = settings_from(args, flow="nightly")
    progress = console_progress()
    if use_prefect(args.prefect):
        from flows.flow import show_console_progress
        from flows.nightly_flow import nightly_flow

        show_console_progress(progress)
        result = nightly_flow(settings, golden=args.golden, agreement_floor=args.agreement_floor)
    else:
        result = run_nightly(
            settings, golden=args.golden, agreement_floor=args.agreement_floor, progress=progress
        )
    # A drift warning is already logged on stderr by the run.
    print(run_line(result))  # noqa: T201 - the command's output
    print(check_line(result["judge_check"]))  # noqa: T201
    return EXIT_OK


def serve_command(args: argparse.Namespace) -> int:
    from flows.cli import EXIT_OK, settings_from

    settings = settings_from(args, flow="nightly")
    # Scheduled runs start from wherever the runner was: pin every path now.
    settings = settings.model_copy(
        update={"source": _absolute(settings.source), "db": _absolute(settings.db)}
    )
    golden = _absolute(args.golden) if args.golden else None
    from flows.nightly_flow import build_deployment, describe_deployment

    deployment = build_deployment(
        settings,
        cron=args.cron,
        timezone=args.timezone,
        name=args.name,
        golden=golden,
        agreement_floor=args.agreement_floor,
    )
    if args.dry_run:
        print(json.dumps(describe_deployment(deployment), indent=2))  # noqa: T201
        return EXIT_OK
    from flows.prefect_env import prefect_server_configured

    # Prefect's temporary server runs no scheduler: served runs would never start.
    if not prefect_server_configured():
        raise ConfigError(
            "faith serve needs a Prefect server for its schedule: start `prefect server start` "
            "and set PREFECT_API_URL=http://127.0.0.1:4200/api (see README.md, Nightly runs)"
        )
    from prefect import serve

    # The runner polls the server every ~10 s; httpx would log an INFO line for each poll.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    serve(deployment)
    return EXIT_OK


def _absolute(path: str) -> str:
    return str(Path(path).expanduser().absolute())
