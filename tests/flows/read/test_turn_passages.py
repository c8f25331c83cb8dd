"""A turn's passages as a table of turns logs them, in every format. Every run here asserts
rows in = scored + invalid + pending + quarantined."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.db_reading import query

AT = "2026-11-01T09:00:00Z"
SHIPPED = "Order A17 shipped on 3 March by courier."
CASES = (
    "SELECT c.case_id, c.score, list(p.passage ORDER BY u.i) "
    "FROM case_scores AS c, unnest(c.passage_ids) WITH ORDINALITY AS u(id, i) "
    "JOIN passages AS p ON p.passage_id = u.id GROUP BY ALL ORDER BY 1"
)


def _turn(turn: int, role: str, content: str | None, passages: object = None) -> dict:
    return {"conversation_id": "c1", "turn": turn, "role": role, "content": content,
            "logged_at": AT, "retrieval_context": passages}  # fmt: skip


def _score(source: Path, db: Path) -> dict:
    settings = ScoreSettings(
        source=str(source), db=str(db), max_quarantine_share=None, max_invalid_share=1
    )
    run = run_score(settings)
    assert run["rows_in"] == (
        run["rows_scored"] + run["rows_invalid"] + run["rows_pending"] + run["rows_quarantined"]
    )
    return run


def _write(rows: list[dict], path: Path) -> Path:
    """JSON Lines or Parquet as they are; CSV with each passages list as its JSON text, an
    empty cell for none."""
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    elif path.suffix == ".parquet":
        pl.DataFrame(rows).write_parquet(path)
    else:
        cell = [row["retrieval_context"] and json.dumps(row["retrieval_context"]) for row in rows]
        pl.DataFrame(rows).with_columns(retrieval_context=pl.Series(cell)).write_csv(path)
    return path


@pytest.mark.parametrize("name", ["turns.jsonl", "turns.csv"])
def test_json_null_passages_are_none_as_in_json_lines(tmp_path: Path, name: str) -> None:
    """A CSV cell `null` (json.dumps(None), a JSON export's cells written as their JSON) was
    quarantined as retrieval_context_not_a_list_of_strings; JSON Lines' null is no passages."""
    rows = [_turn(1, "user", "Where is order A17?"), _turn(2, "assistant", SHIPPED)]
    source = _write(rows, tmp_path / name)
    if name.endswith(".csv"):  # every cell as JSON would write it: null
        source.write_text(source.read_text().replace("Z,\n", "Z,null\n"))
        assert source.read_text().count(",null\n") == 2
    run = _score(source, tmp_path / "faith.duckdb")
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (1, 1, 0)
    assert query(tmp_path / "faith.duckdb", CASES) == [("c1:2", 0.0, ["Where is order A17?"])]
