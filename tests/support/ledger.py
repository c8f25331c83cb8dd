"""A run in a test with its ledger checked: rows in = scored + invalid + pending + quarantined,
on every run (the project's promise that no row is lost silently)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings


def balanced_run(source: Path, db: Path, **settings: Any) -> dict[str, Any]:
    """`run_score` of `source` into `db` with these settings; its ledger asserted to add up."""
    run = run_score(ScoreSettings(source=str(source), db=str(db), **settings))
    assert run["rows_in"] == (
        run["rows_scored"] + run["rows_invalid"] + run["rows_pending"] + run["rows_quarantined"]
    )
    return run
