"""`--calibration NAME`: the named calibration's cut-offs, threshold and weights read into the
settings, once, by the run that holds the database (workers and the judge check get them from
there)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from faith_udfs import GroundedJudge
from faith_udfs.errors import ConfigError
from faith_udfs.grounded import CALIBRATED_RULES
from flows.errors import DatabaseLocked
from flows.judges.settings import CutoffSettings
from flows.run.settings import ScoreSettings
from flows.store.calibrations import calibration_names, load_calibration
from flows.store.db import connect, holds_no_database

if TYPE_CHECKING:
    import duckdb

__all__ = [
    "check_calibration_database",
    "check_calibration_stored",
    "check_name",
    "with_calibration",
]


def check_calibration_database(settings: ScoreSettings) -> None:
    """Refuse `--calibration NAME` on a database that does not exist yet, or an empty file
    (exit 2), before the run makes a database of it: no calibration can be stored there, and a
    refused run leaves no file and an empty one as it was."""
    name, db = settings.judge.calibration, settings.db
    if name is None or settings.judge.cutoffs is not None or db == ":memory:":
        return
    if holds_no_database(db):
        state = "is an empty file" if Path(db).exists() else "does not exist yet"
        raise ConfigError(
            f"--calibration {name!r}: no such calibration: {db} {state}; "
            "`faith calibrate LABELS --db DB --name NAME` stores one"
        )


def check_calibration_stored(settings: ScoreSettings) -> None:
    """`faith serve --calibration NAME`: refuse (exit 2) a name each night would refuse, before
    anything is scheduled: a typo once failed only at 02:00. The name stays in the deployment
    (a calibration fitted again is what the next night reads); a database a run holds is not
    waited for: that night checks it."""
    name = settings.judge.calibration
    if name is None or settings.judge.cutoffs is not None or settings.db == ":memory:":
        return
    check_calibration_database(settings)
    try:
        con = connect(settings.db, read_only=True)
    except DatabaseLocked:
        return
    try:
        stored = con.sql(
            "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'calibrations'"
        ).fetchall()[0][0]
        if not stored:  # a database from before calibrations (migration 020) holds none
            raise ConfigError(
                f"--calibration {name!r}: no such calibration in {settings.db} (stored: "
                "none); `faith calibrate LABELS --db DB --name NAME` stores one"
            )
        with_calibration(settings, con)
    finally:
        con.close()


def with_calibration(settings: ScoreSettings, con: duckdb.DuckDBPyConnection) -> ScoreSettings:
    """The settings with the named calibration's cut-offs (and its threshold unless one was
    given); unchanged without a calibration or once read. A name not stored, or fitted for
    other rules or another score, is refused (exit 2): nothing is scored."""
    judge = settings.judge
    if judge.calibration is None or judge.cutoffs is not None:
        return settings
    name = judge.calibration
    row = load_calibration(con, name)
    if row is None:
        stored = ", ".join(calibration_names(con)) or "none"
        raise ConfigError(
            f"--calibration {name!r}: no such calibration in {settings.db} (stored: {stored}); "
            "`faith calibrate LABELS --db DB --name NAME` stores one"
        )
    fitted_for, asked = row["judge_model"], judge.model or GroundedJudge.rules_version
    # A calibration of an older rules version scores that version's series (its cut-offs
    # are meaningless on another support); naming another version is refused.
    if fitted_for not in CALIBRATED_RULES and asked == fitted_for:  # grounded-v1's, asked for
        raise ConfigError(
            f"--calibration {name!r} was fitted for {fitted_for}, whose cut-offs this "
            f"faithpipe does not apply (those of {CALIBRATED_RULES[-1]} to "
            f"{CALIBRATED_RULES[0]} only): run `faith calibrate` again"
        )
    if fitted_for not in CALIBRATED_RULES or (judge.model is not None and asked != fitted_for):
        raise ConfigError(
            f"--calibration {name!r} was fitted for {fitted_for}, this judge is "
            f"{asked}: run `faith calibrate` again"
        )
    if row["penalize_ambiguous_claims"] != settings.penalize_ambiguous_claims:
        given = "with" if row["penalize_ambiguous_claims"] else "without"
        raise ConfigError(
            f"--calibration {name!r} was fitted {given} --penalize-ambiguous-claims: score "
            f"{given} it too, or calibrate again"
        )
    cutoffs = CutoffSettings(
        supported=row["supported"],
        silent=row["silent"],
        threshold=row["threshold"],
        weights=None if row.get("weights") is None else json.loads(row["weights"]),
    )
    threshold = row["threshold"] if settings.threshold is None else settings.threshold
    update: dict[str, object] = {"cutoffs": cutoffs}
    if fitted_for != GroundedJudge.rules_version:
        update["model"] = fitted_for
    return settings.model_copy(
        update={"judge": judge.model_copy(update=update), "threshold": threshold}
    )


def check_name(name: str) -> None:
    """Refuse a calibration name that `--calibration NAME` could not give back as typed (exit
    2): empty, padded with spaces, or holding a control character such as a newline."""
    if not name.strip():
        raise ConfigError("--name must not be empty")
    if name != name.strip() or any(not ch.isprintable() for ch in name):
        raise ConfigError(
            f"--name {name!r}: a calibration name must not start or end with a space or hold "
            "a control character"
        )
