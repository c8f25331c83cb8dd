"""A completed run that should not look green: most of its judged cases ended invalid (the
judge is failing), or most of its rows were quarantined (the source drifted from the
contract). Everything is kept; `runs.warning` says why, and the caller raises."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from flows.read.duplicates import EXACT_COPY
from flows.read.turns import TURN_EXACT_COPY
from flows.run.summary import checks_line, percent
from flows.store.db import sql
from flows.store.run_costs import (
    record_max_invalid_share,
    record_max_quarantine_share,
    top_new_quarantine_checks,
    top_quarantine_checks,
)
from flows.store.run_registry import mark_run_warning, run_row
from schemas.batches import percents_apart

if TYPE_CHECKING:
    import duckdb

log = logging.getLogger("faithpipe")


def warn_if_mostly_invalid(con: duckdb.DuckDBPyConnection, run_id: str, most: float) -> str | None:
    """A completed run whose judged cases mostly failed keeps everything and says so in
    `runs.warning`; returns the error for the caller to raise, so that a schedule does not
    show success for a night scored by nothing."""
    record_max_invalid_share(con, run_id, most)
    run = run_row(con, run_id)
    invalid, judged, again = checked_invalid(run)
    if not judged or invalid / judged <= most:
        return None
    why = (
        # A dry run's stand-in fails only a reply longer than --max-output-tokens.
        "their replies cut at --max-output-tokens (a dry run keeps no rows)"
        if run.get("dry_run")
        else "see case_scores.error; they are retried by the next run"
    )
    left_out = f" ({again:,} more were invalid before with the same content)" if again else ""
    share, limit = _share_and_limit(invalid, judged, most)
    warning = (
        f"{invalid:,} of {judged:,} judged cases ({share}) ended invalid{left_out}, more than "
        f"--max-invalid-share {limit}: {why}"
    )
    _warn(con, run_id, warning)
    return f"run {run_id} completed, but {warning}"


def checked_invalid(run: dict) -> tuple[int, int, int]:
    """(invalid, judged, left out): the cases --max-invalid-share counts. Every invalid case
    is tried again by the next run; one invalid again with the content it was stored invalid
    with (`rows_invalid_again`: a day the retriever was down) was counted, and failed, every
    later night. They are left out, unless the run judged nothing else: then they say again
    what the source holds, as a run that read nothing new counts its quarantined rows."""
    judged = run["rows_newly_scored"] + run["rows_invalid"]
    again = run.get("rows_invalid_again") or 0
    if again and judged > again:
        return run["rows_invalid"] - again, judged - again, again
    return run["rows_invalid"], judged, 0


def quarantine_share(run: dict) -> float | None:
    """Share of the rows read that were quarantined (None: no rows)."""
    return run["rows_quarantined"] / run["rows_in"] if run["rows_in"] else None


# The checks of rows delivered again exactly as a row read beside them (overlapping nightly
# exports in one folder): recorded, the first copy scored, but no drift of the source.
RE_DELIVERED = (EXACT_COPY, TURN_EXACT_COPY)


def new_rows_quarantined(con: duckdb.DuckDBPyConnection, run: dict) -> tuple[int, int, bool]:
    """(rows quarantined for the first time, rows read for the first time, True) of a run: a
    nightly run reads its whole folder again, and the rows of nights before (scored, or
    quarantined then) must neither hide a new night's drift nor raise one every night; nor do
    exact copies of rows read beside them (RE_DELIVERED: a night's export overlapping the
    night before's raised exit 11 every night). A run that read nothing new (the same source
    again), and a dry run (it keeps no quarantine rows), count all their rows but the copies:
    they say again what the source holds (the third item False)."""
    params = {"run_id": run["run_id"], "copies": list(RE_DELIVERED)}
    (all_copies,) = con.execute(sql("run_copies"), params).fetchall()[0]
    whole = run["rows_quarantined"] - int(all_copies), run["rows_in"] - int(all_copies), False
    if run.get("dry_run"):
        return whole
    first, copies = con.execute(sql("run_new_quarantine"), params).fetchall()[0]
    seen_before = (run["rows_scored"] - run["rows_newly_scored"]) + (
        run["rows_quarantined"] - first
    )
    read = run["rows_in"] - seen_before - copies
    return (int(first - copies), read, True) if read > 0 else whole


# What to do when a whole source fails one of these checks: a first export's shape, which
# the error line must say how to fix, not only where to look.
FIXES = {
    "logged_at_is_null": (
        "the rows have no time: if your log keeps it in another column (a chat log's "
        "created_at), name it with --columns logged_at=COLUMN"
    ),
    "logged_at_unparseable": (
        "a time is read as ISO-8601 (2026-11-01T10:00:00+02:00, a space for the T, a Z or "
        "UTC, or none: UTC), a date (2026-11-01) or epoch numbers: export it so "
        "(docs/input.md, Timestamps)"
    ),
    "retrieval_context_not_a_list_of_strings": (
        "the passages must be a list of strings (one passage: [text]; in a CSV cell, "
        'JSON text, ["first passage", "second passage"]; a string joined with | or '
        "newlines is one string): write them so in the export"
    ),
}


def warn_if_mostly_quarantined(
    con: duckdb.DuckDBPyConnection, run_id: str, most: float | None
) -> str | None:
    """A completed run whose rows were mostly quarantined (a column renamed or retyped
    upstream) keeps everything and says so in `runs.warning`, naming the top failing checks;
    returns the error for the caller to raise (exit 11). `most` None: no limit."""
    if most is None:
        return None
    record_max_quarantine_share(con, run_id, most)
    run = run_row(con, run_id)
    quarantined, read, of_new_rows = new_rows_quarantined(con, run)
    share = quarantined / read if read > 0 else None
    if share is None or share <= most:
        return None
    # rows a run before had seen, and exact copies, are left out
    new = "new " if of_new_rows and read != run["rows_in"] else ""
    # The checks of the rows the share counts: of new rows alone, those of the old rows read
    # again would name an old broken file's checks, and push tonight's out of the top three.
    top = (
        top_new_quarantine_checks(con, run_id, excluding=RE_DELIVERED)
        if new
        else (top_quarantine_checks(con, run_id, excluding=RE_DELIVERED))
    )
    shown, limit = _share_and_limit(quarantined, read, most)
    warning = (
        f"{quarantined:,} of {read:,} {new}rows ({shown}) were quarantined, more than "
        f"--max-quarantine-share {limit}; top checks: "
        f"{checks_line(top)} "
        + ("(a dry run keeps no rows)" if run.get("dry_run") else "(see the quarantine table)")
        + (f"; {FIXES[top[0][0]]}" if top and top[0][0] in FIXES else "")
    )
    _warn(con, run_id, warning)
    return f"run {run_id} completed, but {warning}"


def _share_and_limit(part: int, whole: int, most: float) -> tuple[str, str]:
    """The share as a percentage and the limit as given; when the two read alike at 0.1 %
    (1 of 3, 33.3%, over a limit of 0.333), both with the decimals that tell them apart."""
    shown = percent(part, whole)
    if shown != f"{most:.1%}":
        return shown, f"{most:g}"
    share, limit = percents_apart(part / whole, most)
    return share, f"{most:g} ({limit})"


def _warn(con: duckdb.DuckDBPyConnection, run_id: str, warning: str) -> None:
    mark_run_warning(con, run_id, warning)
    log.warning("run %s: %s", run_id, warning)
