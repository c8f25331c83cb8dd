"""`faith cache check`: stored judge answers that are not their own item's, found and dropped."""

from __future__ import annotations

import argparse

from flows.cli.options import EXIT_OK, add_db_argument, add_lock_timeout_argument
from flows.printable import printable

__all__ = ["add_cache_command"]


def add_cache_command(commands: argparse._SubParsersAction) -> None:
    """Add `faith cache check` to the CLI's subcommands."""
    cache = commands.add_parser(
        "cache",
        help="the LLM judge's reply cache (judge_cache)",
        description="Work on the LLM judge's reply cache, the judge_cache table of --db, which "
        "makes each judge call paid for once: `faith cache check` (see its --help).",
    )
    actions = cache.add_subparsers(dest="cache_command", required=True, metavar="ACTION")
    check = actions.add_parser(
        "check",
        help="find cached answers and stored claims that are not their own item's",
        description="Hold every judge_cache answer to the rules a fresh answer meets (its "
        "statements come from its own item's text; one verdict per claim), and every case's "
        "stored claims to its answer. Answers cached before faithpipe stored their item are "
        "matched to the stored cases' answers where they can be. Reports what fails; with "
        "--drop, deletes those answers and those cases' scores, so the next run asks and "
        "scores them again. Exits 0 (the counts say what was found).",
    )
    add_db_argument(check)
    check.add_argument(
        "--drop",
        action="store_true",
        help="delete the answers and case scores that fail (the next run redoes them)",
    )
    add_lock_timeout_argument(
        check, help="wait this long for a run holding the database (default 0)"
    )
    # -v after the action too, as every command takes it (`faith cache -v check` set it
    # already: SUPPRESS keeps that value when it is not given again here)
    check.add_argument(
        "-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help="debug log lines"
    )
    check.set_defaults(command=cache_check_command)


def cache_check_command(args: argparse.Namespace) -> int:
    from flows.errors import DatabaseError
    from flows.judges.live.asking import legacy_claims_key
    from flows.store.cache_check import check_cache
    from flows.store.db import connect_for_reading, holds_no_database, open_store

    # A database that is not there is refused, not made (a typo in --db reported '0 answers
    # checked'); a check alone reads, as the other read commands do (a snapshot while a run
    # writes, a read-only file); only --drop writes.
    if holds_no_database(args.db):
        raise DatabaseError(f"{args.db}: no such database; run `faith score` first")
    if args.drop:
        con = open_store(args.db, lock_timeout=args.lock_timeout)
    else:
        con = connect_for_reading(args.db, wait=args.lock_timeout, option="--lock-timeout")
    try:
        report = check_cache(con, drop=args.drop, legacy_key=legacy_claims_key)
    finally:
        con.close()
    for line in report.lines():
        print(printable(line))  # case ids and statements are logged text
    return EXIT_OK
