"""`faith`: the command line over the same Python API the flows use."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from polars.exceptions import PanicException

from faith_udfs.errors import ConfigError, FaithError
from flows.source import DEFAULT_BATCH_SIZE
from flows.store import DEFAULT_DB

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample" / "cases.parquet"

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `faith` console script: every failure is one line and an exit code
    (the traceback too with -v)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    from flows.console import configure_logging, stderr
    from flows.stop_signals import exit_code_of, install_stop_handlers, signal_name

    verbose = getattr(args, "verbose", False)
    configure_logging(verbose)
    install_stop_handlers()

    def say(message: object) -> None:
        if verbose:
            stderr.print_exception()
        stderr.print(f"[red]error:[/red] {message}", highlight=False, soft_wrap=True, markup=True)

    try:
        return int(args.command(args) or EXIT_OK)
    except ConfigError as exc:
        say(exc)
        return EXIT_USAGE
    except FaithError as exc:
        say(exc)
        return int(getattr(exc, "exit_code", EXIT_FAILED))
    except KeyboardInterrupt as exc:
        stderr.print(
            f"interrupted ({signal_name(exc)}): committed batches are kept; run again to finish"
        )
        return exit_code_of(exc)
    except (Exception, PanicException) as exc:
        # A bug, or a failure no named error covers (a Rust panic in polars or pyarrow is a
        # BaseException): still one line, the traceback only with -v.
        say(f"{one_line(exc)} (run again with -v for the traceback)")
        return EXIT_FAILED


def one_line(exc: BaseException) -> str:
    """`Type: first line of the message`."""
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0] if text else ''}"


def build_parser() -> argparse.ArgumentParser:
    """Every command and option, with help (the README's reference is `faith --help`)."""
    parser = argparse.ArgumentParser(
        prog="faith",
        description="Score the faithfulness of logged RAG / chat-bot answers into DuckDB.",
    )
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")

    score = commands.add_parser(
        "score",
        help="score a Parquet source (file, folder, glob, hive partitions)",
        description="Score SOURCE into the DuckDB file. Cases already scored under the same "
        "metric config with unchanged content are skipped: re-running costs nothing.",
    )
    score.add_argument("source", metavar="SOURCE", help="Parquet file, folder or glob")
    add_run_arguments(score)
    score.set_defaults(command=score_command)

    from flows.report import add_report_arguments, add_wait_argument

    runs = commands.add_parser("runs", help="recent runs and their counts")
    runs.add_argument("--db", default=str(DEFAULT_DB), help=f"DuckDB file (default {DEFAULT_DB})")
    runs.add_argument("--limit", type=int, default=20, help="how many runs (default 20)")
    add_wait_argument(runs)
    runs.set_defaults(command=runs_command)

    rekey = commands.add_parser(
        "rekey",
        help="bring passage ids stored before version 7 to the version-independent ids",
        description="Read SOURCE (the logs the database was scored from) and map every passage "
        "id stored the pre-version-7 way (polars' hash()) to md5_number_lower of its text. "
        "Nothing is judged again; ids of passages SOURCE lacks stay as they are.",
    )
    rekey.add_argument("source", metavar="SOURCE", help="Parquet file, folder or glob")
    rekey.add_argument("--db", default=str(DEFAULT_DB), help=f"DuckDB file (default {DEFAULT_DB})")
    rekey.add_argument("--lock-timeout", type=float, default=0.0, metavar="SECONDS")
    rekey.set_defaults(command=rekey_command)

    demo = commands.add_parser(
        "demo", help="score the bundled sample as a Prefect flow and print pass rates by day"
    )
    demo.add_argument("--db", default=str(DEFAULT_DB), help=f"DuckDB file (default {DEFAULT_DB})")
    demo.add_argument("--source", default=str(SAMPLE), help="sample to score (default: bundled)")
    demo.add_argument(
        "--prefect",
        choices=("yes", "no"),
        default="yes",
        help="run as a Prefect flow (default yes: starts a temporary server if none is set)",
    )
    demo.set_defaults(command=demo_command)

    report = commands.add_parser(
        "report",
        help="pass rates by period in the terminal, and an offline HTML report",
        description="Read-only: works while no run is writing.",
    )
    add_report_arguments(report)

    from flows.nightly import add_nightly_commands

    add_nightly_commands(commands)
    return parser


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by `score` and `nightly`: database, judge, metric, batching, route."""
    parser.add_argument("--db", default=str(DEFAULT_DB), help=f"DuckDB file (default {DEFAULT_DB})")
    judge = parser.add_argument_group("judge")
    judge.add_argument(
        "--judge",
        choices=("grounded", "lexical", "openai"),
        default="grounded",
        help="grounded: offline, deterministic, graded per-claim support (default); lexical: "
        "the seed tutorial's word rules; openai: any OpenAI-compatible endpoint",
    )
    judge.add_argument("--model", help="model name for --judge openai (e.g. gpt-4o-mini)")
    judge.add_argument("--base-url", help="endpoint, e.g. http://localhost:8000/v1 (vLLM, Ollama)")
    judge.add_argument(
        "--api-key-env",
        default="OPENAI_API_KEY",
        metavar="VAR",
        help="environment variable holding the API key (default OPENAI_API_KEY)",
    )
    judge.add_argument(
        "--judge-mode",
        dest="mode",
        choices=("packed", "per-item"),
        help="LLM call layout: packed (default; ~0.3 calls a case) or per-item (~2.5)",
    )
    judge.add_argument("--llm-reason", action="store_true", help="ask the LLM for prose reasons")
    judge.add_argument("--concurrency", type=int, default=8, help="parallel judge calls (8)")
    judge.add_argument("--timeout", type=float, default=60.0, help="seconds per judge call (60)")
    judge.add_argument("--max-calls", type=int, help="cap on judge calls this run; rest pending")
    judge.add_argument("--max-tokens", type=int, help="cap on judge tokens this run; rest pending")
    metric = parser.add_argument_group("metric (DeepEval's FaithfulnessMetric settings)")
    metric.add_argument("--threshold", type=float, default=0.5, help="pass mark (default 0.5)")
    metric.add_argument(
        "--penalize-ambiguous-claims",
        action="store_true",
        help="count idk claims as unfaithful (score = share of yes)",
    )
    metric.add_argument(
        "--strict-mode", action="store_true", help="threshold 1; a score below 1 becomes 0"
    )
    metric.add_argument(
        "--no-reason",
        dest="include_reason",
        action="store_false",
        help="skip the per-case reason",
    )
    metric.add_argument(
        "--truths-extraction-limit",
        type=int,
        metavar="N",
        help="at most N truths per passage (default: all)",
    )
    run = parser.add_argument_group("run")
    run.add_argument(
        "--batch-size",
        type=int,
        default=DEFAULT_BATCH_SIZE,
        help=f"rows per batch and transaction (default {DEFAULT_BATCH_SIZE:,})",
    )
    run.add_argument(
        "--lock-timeout",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="wait this long for another run holding the database (default 0)",
    )
    run.add_argument(
        "--max-invalid-share",
        type=float,
        default=0.1,
        metavar="F",
        help="exit 8 (everything kept, runs.warning set) when more than this share of the "
        "cases judged ended invalid (default 0.1)",
    )
    run.add_argument(
        "--snapshot",
        action="store_true",
        help="after the run, copy the database to DB.snapshot.duckdb, which dashboards, "
        "`faith report` and `faith runs` read while the next run holds the database",
    )
    run.add_argument(
        "--prefect",
        choices=("auto", "yes", "no"),
        default="auto",
        help="auto (default): a Prefect flow when PREFECT_API_URL names a server, plain local "
        "run otherwise; yes: always a flow (a temporary server costs ~15 s); no: never",
    )
    run.add_argument("-v", "--verbose", action="store_true", help="debug log lines")


def settings_from(args: argparse.Namespace, *, flow: str = "score") -> Any:
    """CLI arguments -> the one settings object every layer takes."""
    from pydantic import ValidationError

    from flows.settings import JudgeSettings, ScoreSettings

    try:
        return ScoreSettings(
            source=args.source,
            db=args.db,
            judge=JudgeSettings(
                kind=args.judge,
                model=args.model,
                base_url=args.base_url,
                api_key_env=args.api_key_env,
                mode=args.mode,
                llm_reason=args.llm_reason,
                concurrency=args.concurrency,
                timeout=args.timeout,
                max_calls=args.max_calls,
                max_tokens=args.max_tokens,
            ),
            threshold=args.threshold,
            penalize_ambiguous_claims=args.penalize_ambiguous_claims,
            strict_mode=args.strict_mode,
            include_reason=args.include_reason,
            truths_extraction_limit=args.truths_extraction_limit,
            batch_size=args.batch_size,
            lock_timeout=args.lock_timeout,
            max_invalid_share=args.max_invalid_share,
            snapshot=args.snapshot,
            flow=flow,
        )
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise ConfigError(problems) from None


def use_prefect(choice: str) -> bool:
    """Whether this run goes through Prefect (see --prefect)."""
    if choice == "auto":
        from flows.prefect_env import prefect_server_configured

        return prefect_server_configured()
    return choice == "yes"


def execute(settings: Any, *, prefect: bool) -> dict[str, Any]:
    """Run the scoring job on the chosen route, with a progress display."""
    from flows.console import console_progress

    progress = console_progress()
    if prefect:
        from flows.flow import score_flow, show_console_progress

        show_console_progress(progress)
        return score_flow(settings)
    from flows.pipeline import run_score

    return run_score(settings, progress=progress)


def score_command(args: argparse.Namespace) -> int:
    from flows.summary import run_line

    settings = settings_from(args)
    run = execute(settings, prefect=use_prefect(args.prefect))
    print(run_line(run))
    return EXIT_OK


def runs_command(args: argparse.Namespace) -> int:
    from flows.console import print_frame
    from flows.store import connect_for_reading, sql

    con = connect_for_reading(args.db, wait=args.wait)
    try:
        frame = con.sql(sql("recent_runs"), params={"limit": args.limit}).pl()
    finally:
        con.close()
    print_frame(frame, title=f"runs in {args.db}")
    return EXIT_OK


def rekey_command(args: argparse.Namespace) -> int:
    from flows.rekey import rekey_passages

    counts = rekey_passages(args.source, args.db, lock_timeout=args.lock_timeout)
    print(
        f"rekeyed {counts['rekeyed']} of {counts['legacy']} legacy passage ids; "
        f"{counts['left']} left (their passages are not in {args.source})"
    )
    return EXIT_OK


def demo_command(args: argparse.Namespace) -> int:
    from flows.demo import run_demo

    return run_demo(Path(args.source), Path(args.db), prefect=args.prefect == "yes")


if __name__ == "__main__":
    sys.exit(main())
