"""`faith compare`: did side B pass less often than side A, beyond noise? (docs/compare.md)"""

from __future__ import annotations

import argparse
import json
import re
import sys
from contextlib import nullcontext
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from flows.cli.options import EXIT_OK, add_db_argument, add_lock_timeout_argument

if TYPE_CHECKING:
    import duckdb

    from flows.report.compare import Sides

# Characters outside printable ASCII: the only ones of a JSON text a terminal may obey.
_NOT_ASCII = re.compile(r"[^\x20-\x7e\n]")


def add_compare_command(commands: argparse._SubParsersAction) -> None:
    """Add `faith compare` to the CLI's subcommands."""
    from faith_udfs.compare_stats import BOOTSTRAP_REPS, BOOTSTRAP_SEED
    from flows.report.compare import MAX_CLAIMS, MAX_REPS, MAX_SEED

    parser = commands.add_parser(
        "compare",
        help="compare two configs, segment values or windows: pass rate and mean score",
        description="Two sides of the scored cases: a config each (--a-config/--b-config), two "
        "values of a segment column (--segment app_version --a 2.4.0 --b 2.4.1) or two windows "
        "(--a-since/--a-until, --b-since/--b-until), combined as you like. Sides that differ by "
        "config only are compared case by case (paired: exact McNemar test); sides of different "
        "segment values or windows hold different cases (unpaired: Newcombe interval), whatever "
        "their configs. Differences are B minus A. A side that selects no scored case is "
        "refused (exit 2). The result is kept in the table comparisons for `faith report`.",
    )
    add_db_argument(parser)
    parser.add_argument("--a-config", metavar="ID", help="config of side A (default: latest)")
    parser.add_argument("--b-config", metavar="ID", help="config of side B (default: A's)")
    parser.add_argument("--segment", metavar="COL", help="segment column --a and --b are values of")
    parser.add_argument("--a", metavar="VALUE", help="side A's value of --segment")
    parser.add_argument("--b", metavar="VALUE", help="side B's value of --segment")
    day = date.fromisoformat
    parser.add_argument("--since", type=day, metavar="D", help="first day of both sides")
    parser.add_argument("--until", type=day, metavar="D", help="last day of both, inclusive")
    for side in ("a", "b"):
        name = side.upper()
        parser.add_argument(f"--{side}-since", type=day, metavar="D", help=f"first day of {name}")
        parser.add_argument(f"--{side}-until", type=day, metavar="D", help=f"last day of {name}")
    parser.add_argument("--threshold", type=float, help="recompute success at this pass mark")
    parser.add_argument(
        "--penalize-ambiguous",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="recompute scores counting idk claims as unfaithful, or not",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=BOOTSTRAP_SEED,
        help=f"bootstrap seed, 0 to {MAX_SEED:,} ({BOOTSTRAP_SEED})",
    )
    parser.add_argument(
        "--reps",
        type=int,
        default=BOOTSTRAP_REPS,
        help=f"bootstrap resamples, 1 to {MAX_REPS:,} ({BOOTSTRAP_REPS})",
    )
    parser.add_argument(
        "--claims",
        type=int,
        default=10,
        metavar="N",
        help=f"claims listed, 0 to {MAX_CLAIMS:,} (10)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--store",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="keep the result in the table comparisons (default yes; --no-store only reads)",
    )
    add_lock_timeout_argument(parser, help="wait this long for a run holding the database")
    parser.set_defaults(command=compare_command)


def compare_command(args: argparse.Namespace) -> int:
    """Compare, print the verdict (or JSON), and keep the result. Everything the options
    can get wrong is refused (exit 2) before the database is opened, and a database that
    does not exist is not created (exit 5, as `faith report`)."""
    from faith_udfs.config import check_threshold
    from flows.report.compare import check_numbers, compare, store_comparison
    from flows.store.db import reader_memory

    if args.threshold is not None:
        check_threshold(args.threshold, "--threshold")
    check_numbers(seed=args.seed, reps=args.reps, top_claims=args.claims)
    sides = sides_of(args)
    sides.check()
    con = open_database(args)
    try:
        # read as a report reads: the writer's memory limit is for writing runs (store/db.py)
        with reader_memory(con) if args.store else nullcontext(con):
            result = compare(con, sides, seed=args.seed, reps=args.reps, top_claims=args.claims)
        if args.store:
            at = datetime.now(UTC).replace(tzinfo=None)
            store_comparison(con, result, at)
    finally:
        con.close()
    if args.json:
        print(json_for_terminal(result))
    else:
        print_comparison(result)
    return EXIT_OK


def sides_of(args: argparse.Namespace) -> Sides:
    """The two sides the options describe."""
    from flows.report.compare import Sides

    return Sides(
        a_config=args.a_config,
        b_config=args.b_config,
        segment=args.segment,
        a=args.a,
        b=args.b,
        since=args.since,
        until=args.until,
        a_since=args.a_since,
        a_until=args.a_until,
        b_since=args.b_since,
        b_until=args.b_until,
        threshold=args.threshold,
        penalize_ambiguous=args.penalize_ambiguous,
    )


def open_database(args: argparse.Namespace) -> duckdb.DuckDBPyConnection:
    """The database to compare in: migrated for writing (the result is kept), or read only
    with --no-store. Either way it must be a faithpipe database already: a file that does
    not exist, an empty one (touch) or a DuckDB file without faithpipe's tables is refused
    (exit 5) by the read-only look first, where --store once wrote the schema into it."""
    from flows.errors import DatabaseError, DatabaseLocked
    from flows.store.db import connect_for_reading, holds_no_database, open_store, sql
    from flows.store.snapshot import snapshot_path

    if args.db.strip() and holds_no_database(args.db):  # '' is named by connect_for_reading
        raise DatabaseError(f"{args.db}: no such database; run `faith score` first")
    # Its own line for an older database (below); with --store, the look precedes an upgrade,
    # of --db itself: the result is kept there, never in the snapshot a run writes for readers
    # (it said 'reading its snapshot', then failed on the lock).
    try:
        looked = connect_for_reading(
            args.db,
            wait=args.lock_timeout,
            option="--lock-timeout",
            warn_older=False,
            snapshot=not args.store,
        )
    except DatabaseLocked as busy:
        copy = snapshot_path(args.db)
        if not copy.exists():
            raise
        said = str(busy).removesuffix(".")
        raise DatabaseLocked(f"{said}; --no-store reads its snapshot ({copy.name})") from None
    if not args.store:
        # --no-store reads as the older faithpipe left it: without the macros, a Catalog Error
        if not looked.execute(sql("compare_has_macros")).fetchall()[0][0]:
            looked.close()
            raise DatabaseError(
                f"{args.db} was made by an older faithpipe and not upgraded since: it has no "
                "compare macros; run `faith compare` once without --no-store (or `faith "
                "score`) to upgrade it"
            )
        return looked
    looked.close()
    return open_store(args.db, lock_timeout=args.lock_timeout)


def json_for_terminal(result: dict[str, Any]) -> str:
    """`--json`'s text with every character a terminal would obey (bidirectional overrides,
    C1 controls; JSON escapes C0 itself) written as a JSON escape: the same JSON to a parser,
    shown, not obeyed, on a screen."""
    from flows.printable import holds_any_character, printable

    if not holds_any_character(sys.stdout):  # PYTHONIOENCODING=ascii: escaped, never '?'
        return json.dumps(result, indent=2, default=str)
    text = json.dumps(result, indent=2, default=str, ensure_ascii=False)
    return _NOT_ASCII.sub(
        lambda m: m.group() if printable(m.group()) == m.group() else f"\\u{ord(m.group()):04x}",
        text,
    )


def print_comparison(result: dict[str, Any]) -> None:
    """The verdict line, both sides' figures, the score difference and the changed claims.
    Every line and cell goes through `shown`: segment values, config ids and claim texts are
    the logs' and the database's, and a bracket or a control code in them is text. Each line
    is one line however long (soft_wrap): piped, rich broke the verdict at 100 columns, so
    `| head -1` or a log's grep got half of it; only the claims table is fitted to a width."""
    from faith_udfs.compare_stats import signed
    from flows.cli.output import StdoutConsole

    out = StdoutConsole(width=None if sys.stdout.isatty() else 100, highlight=False, emoji=False)
    rates, scores = result["pass_rates"], result["scores"]
    out.print(shown(result["verdict"]), soft_wrap=True)
    out.print(shown(f"method: {rates['method']}"), soft_wrap=True)
    for side in ("a", "b"):
        n, passed, rate = rates[f"n_{side}"], rates[f"passed_{side}"], rates[f"rate_{side}"]
        rate_text = "-" if rate is None else f"{rate:.1%}"
        out.print(
            shown(
                f"{side.upper()} {result[side]['label']} (config "
                f"{result[side]['config_id']}): {passed:,} of {n:,} pass, {rate_text}"
            ),
            soft_wrap=True,
        )
    if scores["diff"] is not None and scores["bootstrap_low"] is not None:
        out.print(
            f"mean score B − A: {signed(scores['diff'] * 100)} points, 95% bootstrap CI "
            f"[{signed(scores['bootstrap_low'] * 100)}, {signed(scores['bootstrap_high'] * 100)}] "
            f"({scores['bootstrap_reps']} resamples, seed {scores['bootstrap_seed']})",
            soft_wrap=True,
        )
    if result["claims"]:
        out.print("claims that changed most (failures per 100 cases, B − A):", soft_wrap=True)
        out.print(claims_table(result["claims"]))


def claims_table(claims: list[dict[str, Any]]) -> Any:
    """The changed claims as a rich table, each claim's text shown, not obeyed, and cut."""
    from rich.table import Table

    from faith_udfs.compare_stats import signed
    from flows.report.markup import shown as cut

    table = Table()
    table.add_column("change", justify="right", no_wrap=True)
    table.add_column("A fails", justify="right", no_wrap=True)
    table.add_column("B fails", justify="right", no_wrap=True)
    table.add_column("claim", overflow="fold", min_width=20)
    for claim in claims:
        table.add_row(
            signed(claim["change"]),
            str(claim["failed_a"]),
            str(claim["failed_b"]),
            # cut as the HTML report cuts logged text: a claim of a pasted document, whole,
            # was 500 KB of the terminal (--json and `comparisons` keep it whole)
            shown(cut(claim["claim"])),
        )
    return table


def shown(text: object) -> str:
    """`text` as rich markup that prints it as it is: control characters written as escapes
    (flows.printable), brackets escaped (a '[/red]' in a claim raised MarkupError)."""
    from rich.markup import escape

    from flows.printable import printable

    return escape(printable(text))
