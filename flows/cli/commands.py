"""`faith`: the command line over the same Python API the flows use."""

from __future__ import annotations

import argparse
import errno
import os
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from polars.exceptions import PanicException

from faith_udfs.errors import ConfigError, FaithError
from flows.cli.option_types import MAX_LISTED, whole_number
from flows.cli.options import (
    DEFAULT_DB_MODE,
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    SERVER_START,
    add_db_argument,
    add_dry_run_argument,
    add_lock_timeout_argument,
    add_read_arguments,
    add_run_arguments,
    add_run_timeout_argument,
    add_source_argument,
    add_wait_argument,
    umask_for,
)
from flows.cli.routes import execute, use_prefect
from flows.cli.settings import run_settings
from flows.errors import DISK_FULL_ERRNOS, DatabaseWriteFailed, InputUnreadable, RunAlarm
from flows.printable import printable


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `faith` console script: every failure is one line and an exit code
    (the traceback too with -v)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    from rich.markup import escape

    from flows.cli.output import configure_logging, print_traceback, stderr
    from flows.run.stop_signals import (
        as_stop,
        exit_code_of,
        install_stop_handlers,
        signal_name,
    )
    from flows.scrub import scrub

    verbose = getattr(args, "verbose", False)
    configure_logging(verbose)
    # Files this process creates from here on (the database, its WAL, the readers' snapshot,
    # Dask shards; local workers inherit it) get --db-mode, 0600 by default.
    os.umask(umask_for(getattr(args, "db_mode", DEFAULT_DB_MODE)))
    install_stop_handlers()

    def say(message: object) -> None:
        if verbose:
            print_traceback()  # scrubbed: an exception's message may quote a secret
        # escaped: a message's own brackets ('faithpipe[dask]', a path) are text, not markup,
        # and its control characters and line breaks (from a path, a server, a segment value)
        # are shown, not obeyed: the line stays one line, and no text can forge another
        text = escape(printable(scrub(str(message))))
        stderr.print(f"[red]error:[/red] {text}", highlight=False, soft_wrap=True, markup=True)

    # A command that commits batches says they are kept; `faith calibrate` or `faith report`,
    # which commit none, said so too.
    scoring = hasattr(args, "batch_size") or args.command is demo_command
    kept = "committed batches are kept; run again to finish" if scoring else "run it again"
    try:
        return int(args.command(args) or EXIT_OK)
    except KeyboardInterrupt as exc:
        # one line, however narrow the terminal: a log keeps it whole
        stderr.print(f"interrupted ({signal_name(exc)}): {kept}", soft_wrap=True)
        return exit_code_of(exc)
    except BrokenPipeError:  # `faith report | head`: the reader has all it wanted
        from flows.cli.output import stdout_to_devnull

        stdout_to_devnull()
        return EXIT_BROKEN_PIPE
    except (Exception, PanicException) as exc:
        stop = as_stop(exc)  # a signal that DuckDB reworded while a query ran
        if stop is not None:
            stderr.print(f"interrupted ({signal_name(stop)}): {kept}", soft_wrap=True)
            return exit_code_of(stop)
        code, message = failure(exc, getattr(args, "db", None), scoring=hasattr(args, "batch_size"))
        say(message)
        return code


# A shell's code for a writer whose reader went away (128 + SIGPIPE), as `yes | head` ends.
EXIT_BROKEN_PIPE = 141


def failure(exc: BaseException, db: str | None, *, scoring: bool = True) -> tuple[int, str]:
    """The exit code and line of a failure: a named error's own; a DuckDB fault of the
    database file (unwritable 12, corrupt 13), its out-of-memory or a full disk (7) wherever
    it is raised; else 1, a bug or a failure no named error covers (a Rust panic in polars or
    pyarrow is a BaseException), the traceback only with -v. `scoring`: a command that
    commits batches (it takes --batch-size), whose advice names them."""
    if isinstance(exc, ConfigError):
        return EXIT_USAGE, str(exc)
    # a reader's: the file is fine, its memory is short (a commit's is DatabaseWriteFailed)
    if isinstance(exc, InputUnreadable) and out_of_memory(exc.__cause__):
        return DatabaseWriteFailed.exit_code, (
            f"{exc}: reading it took more memory than the reader has ({exc.memory_advice}; "
            "committed batches are safe"
        )
    if isinstance(exc, FaithError):
        return int(getattr(exc, "exit_code", EXIT_FAILED)), str(exc)
    from flows.store.db import database_fault

    fault = database_fault(exc, db or "the database")
    if fault is not None:
        return int(fault.exit_code), str(fault)
    short = short_of_room(exc, scoring=scoring)
    if short is not None:
        return DatabaseWriteFailed.exit_code, short
    return EXIT_FAILED, f"{one_line(exc)} (run again with -v for the traceback)"


def short_of_room(exc: BaseException, *, scoring: bool = True) -> str | None:
    """The line of a DuckDB out-of-memory or a full disk (exit 7), wherever raised; a command
    that commits no batches (`faith cache check`, `report`) is told only to free memory."""
    if out_of_memory(exc):
        if not scoring:
            return f"{one_line(exc)}: free memory (stop other work), or run it on a larger machine"
        return f"{one_line(exc)}: committed batches are safe; lower --batch-size or free memory"
    if disk_full(exc):
        return (
            f"{one_line(exc)}: the disk is full; committed batches are safe: free disk space, "
            "then run again"
        )
    if disk_full(exc, _TOO_LARGE):
        return (
            f"{one_line(exc)}: the file reached the largest size this process or file system "
            "allows (ulimit -f); committed batches are safe: raise the limit, then run again"
        )
    return None


def out_of_memory(exc: BaseException | None) -> bool:
    """Whether DuckDB ran out of memory (told by its class: the CLI does not import duckdb)."""
    kind = type(exc)
    return kind.__name__ == "OutOfMemoryException" and kind.__module__.startswith(
        ("duckdb", "_duckdb")
    )


# A file past its size limit (EFBIG: `ulimit -f`, a file system's largest file) is refused its
# bytes as by a full disk: an upgrade's migration or a run's row was exit 1, a bug's code.
_TOO_LARGE = frozenset({errno.EFBIG})


def disk_full(exc: BaseException, numbers: frozenset[int] = DISK_FULL_ERRNOS) -> bool:
    """Whether the disk said it is full (ENOSPC, EDQUOT; or `numbers`), to the OS or through
    DuckDB: opening a new database, a run's row, a snapshot's checkpoint, not only a batch's
    commit."""
    if isinstance(exc, OSError):
        return exc.errno in numbers
    from_duckdb = type(exc).__module__.startswith(("duckdb", "_duckdb"))
    words = [os.strerror(number).lower() for number in numbers]
    return from_duckdb and any(word in str(exc).lower() for word in words)


def one_line(exc: BaseException) -> str:
    """`Type: first line of the message`."""
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0] if text else ''}"


class WholeWordsHelp(argparse.HelpFormatter):
    """argparse's help, wrapped at spaces only: it broke a word longer than the column
    (`--columns`' example as `inp` / `ut=question,…`) and at hyphens (`docs/llm-` /
    `judge.md`), text a reader copies."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        text = self._whitespace_matcher.sub(" ", text).strip()
        return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        text = self._whitespace_matcher.sub(" ", text).strip()
        return textwrap.fill(
            text,
            width,
            initial_indent=indent,
            subsequent_indent=indent,
            break_long_words=False,
            break_on_hyphens=False,
        )


class OneLineParser(argparse.ArgumentParser):
    """argparse's parser whose usage errors are one line on stderr, exit 2, as every other
    failure is (docs/exit-codes.md): argparse printed its usage block first, several lines a
    scheduler's log keeps as the error. Its subcommands' parsers are of this class too, and
    so is their help's formatter (WholeWordsHelp)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", WholeWordsHelp)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {self.prog}: {message} (see {self.prog} --help)\n")

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """Refuse an unknown option in the command that was given it: argparse passed it up to
        `faith`, whose line sent `faith score --thresold` to `faith --help`, listing no option
        of `faith score`."""
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def build_parser() -> argparse.ArgumentParser:
    """Every command and option, with help (the manual in docs/ defers to `faith --help`)."""
    parser = OneLineParser(
        prog="faith",
        description="Score the faithfulness of logged RAG / chat-bot answers into DuckDB.",
    )
    parser.add_argument("--version", action="version", version=f"faith {faithpipe_version()}")
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")

    score = commands.add_parser(
        "score",
        help="score logs: Parquet, CSV or JSON (a file, folder, glob, hive partitions; "
        "cases or conversations)",
        description="Score SOURCE into the DuckDB file. Cases already scored under the same "
        "metric config with unchanged content are skipped: re-running costs nothing.",
    )
    add_source_argument(score)
    add_read_arguments(score)
    add_run_arguments(score)
    add_dry_run_argument(score)
    add_run_timeout_argument(score, default=None)
    score.set_defaults(command=score_command)

    from flows.cli.report_command import add_report_arguments

    runs = commands.add_parser(
        "runs",
        help="recent runs and their counts",
        description="List the latest runs in --db, newest first: status, rows in, scored, "
        "invalid, pending and quarantined (rows in = the other four), pass rate, invalid share, "
        "judge calls and cost. Read-only.",
    )
    add_db_argument(runs)
    runs.add_argument(
        "--limit", type=whole_number(1, MAX_LISTED), default=20, help="how many runs (default 20)"
    )
    add_wait_argument(runs)
    runs.set_defaults(command=runs_command)

    rekey = commands.add_parser(
        "rekey",
        help="bring passage ids stored before version 7 to the version-independent ids",
        description="Read SOURCE (the logs the database was scored from) and map every passage "
        "id stored the pre-version-7 way (polars' hash()) to md5_number_lower of its text. "
        "Nothing is judged again; ids of passages SOURCE lacks stay as they are.",
    )
    add_source_argument(rekey)
    add_db_argument(rekey)
    add_lock_timeout_argument(
        rekey, help="wait this long for a run holding the database (default 0)"
    )
    rekey.set_defaults(command=rekey_command)

    demo = commands.add_parser(
        "demo",
        help="score the bundled sample as a Prefect flow and print pass rates by day",
        description="What `make demo` runs: score the bundled sample (data/sample/cases.parquet, "
        "3,003 logged answers of a fictional shop's support bot) with the grounded judge into "
        "--db, print the run line and the pass rate by day, and write an offline HTML "
        "report.html beside the database. Run again, it judges nothing twice.",
    )
    add_db_argument(demo)
    demo.add_argument("--source", help="sample to score (default: bundled)")
    demo.add_argument(
        "--prefect",
        choices=("yes", "no"),
        default="yes",
        help="run as a Prefect flow (default yes: without a server, Prefect starts a "
        f"temporary one: {SERVER_START})",
    )
    demo.set_defaults(command=demo_command)

    report = commands.add_parser(
        "report",
        help="pass rates by period in the terminal, and an offline HTML report",
        description="Read-only: works while no run is writing.",
    )
    add_report_arguments(report)

    from flows.cli.batches_command import add_batches_command

    add_batches_command(commands)

    from flows.cli.nightly_commands import add_nightly_commands

    add_nightly_commands(commands)
    from flows.cli.judge_check_command import add_judge_check_command

    add_judge_check_command(commands)
    from flows.cli.calibrate_command import add_calibrate_command

    add_calibrate_command(commands)
    from flows.cli.cache_command import add_cache_command

    add_cache_command(commands)
    from flows.cli.compare_command import add_compare_command

    add_compare_command(commands)
    from flows.cli.sql_command import add_sql_command

    add_sql_command(commands)
    # Every failure line of exit 1 offers `-v` for its traceback: every command takes it.
    for command in commands.choices.values():
        if "--verbose" not in command._option_string_actions:
            command.add_argument("-v", "--verbose", action="store_true", help="debug log lines")
    return parser


def score_command(args: argparse.Namespace) -> int:
    from flows.run.cost_summary import dry_run_line
    from flows.run.deadline import run_deadline

    settings = run_settings(args, flow="score")
    try:
        with run_deadline(args.run_timeout):
            run = execute(settings, prefect=use_prefect(args.prefect))
    except RunAlarm as exc:  # exit 8 or 11 after a run kept whole: its line, then the error
        if exc.run is not None:
            print_run(exc.run)
        raise
    if run.get("dry_run"):
        print(dry_run_line(run))
        if run.get("dry_run_alarm"):  # the real run would end so: exit 11 or 8
            raise run["dry_run_alarm"]
        return EXIT_OK
    print_run(run)
    return EXIT_OK


def print_run(run: dict[str, Any]) -> None:
    """A finished run's line, and what its judge calls cost when it made any."""
    from flows.run.cost_summary import spend_line
    from flows.run.summary import run_line

    print(run_line(run))
    if run["judge_calls"] or run["judge_cached"]:
        print(spend_line(run))


def runs_command(args: argparse.Namespace) -> int:
    from flows.cli.output import print_frame
    from flows.store.db import connect_for_reading, sql

    con = connect_for_reading(args.db, wait=args.wait)
    try:
        frame = con.sql(sql("recent_runs"), params={"limit": args.limit}).pl()
    finally:
        con.close()
    if frame.is_empty():  # made by `faith judge-check --db`: one line, not a header alone
        print(printable(f"no runs in {args.db} yet: faith score and faith nightly add them"))
        return EXIT_OK
    print_frame(frame, title=f"runs in {args.db}")
    return EXIT_OK


def rekey_command(args: argparse.Namespace) -> int:
    from flows.errors import DatabaseError
    from flows.run.rekey import rekey_passages
    from flows.store.db import connect_for_reading, holds_no_database

    # A database that is not there is refused, not made: a typo in --db became a new
    # database, 'rekeyed 0 of 0', exit 0 (as `faith batches --refresh` did); so is a DuckDB
    # file without faithpipe tables (an empty one, another program's).
    if str(args.db).strip() and holds_no_database(args.db):
        raise DatabaseError(f"{args.db}: no such database; give --db the database to rekey")
    connect_for_reading(
        args.db, wait=args.lock_timeout, snapshot=False, option="--lock-timeout"
    ).close()
    counts = rekey_passages(args.source, args.db, lock_timeout=args.lock_timeout)
    said = f"rekeyed {counts['rekeyed']} of {counts['legacy']} legacy passage ids"
    if not counts["legacy"]:  # it said "0 left (their passages are not in SOURCE)"
        said = f"no legacy passage ids in {args.db}: nothing to rekey"
    elif counts["left"]:
        said += f"; {counts['left']} left (their passages are not in {args.source})"
    print(printable(said))
    return EXIT_OK


def demo_command(args: argparse.Namespace) -> int:
    from flows.cli.demo import run_demo
    from flows.read.bundled import sample_path

    source = Path(args.source) if args.source else sample_path()
    return run_demo(source, Path(args.db), prefect=args.prefect == "yes", bundled=not args.source)


def faithpipe_version() -> str:
    """The installed distribution's version (`faith --version`)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("faithpipe")
    except PackageNotFoundError:  # a source tree on sys.path, not installed
        return "unknown (not installed)"
