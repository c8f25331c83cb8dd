"""A chat log's passages: a message's own `retrieval_context`, else the log's
`retrieval_context` column (the conversation's, for each assistant message that has none).
A log with that column, in any line, had every message's own passages read as a segment
`retrieval_context_1` and each turn judged without them (a false failure). Every run here
asserts rows in = scored + invalid + pending + quarantined."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.db_reading import query
from tests.support.ledger import balanced_run

AT = "2026-11-01T12:00:00Z"
QUESTION = "Where is order A17?"
SHIPPED = "Order A17 shipped on 3 March."
OWN = "Order A17 shipped on 3 March by courier."
REFUNDS = "Refunds take 5 days."


def _chat(cid: str, passages: list[str] | None, own: list[str] | None) -> dict:
    answer: dict = {"role": "assistant", "content": SHIPPED}
    if own is not None:
        answer["retrieval_context"] = own
    messages = [{"role": "user", "content": QUESTION}, answer]
    return {"id": cid, "logged_at": AT, "retrieval_context": passages, "messages": messages}


LOGS = [
    _chat("both", [REFUNDS], [OWN]),  # the message's own passages win
    _chat("own", None, [OWN]),  # no conversation passages on this line
    _chat("conversation", [OWN], None),  # the conversation's, for a message with none
]


def _write(path: Path) -> Path:
    """The log in the format its name says; CSV holds lists as JSON text."""
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(line) + "\n" for line in LOGS))
    elif path.suffix == ".csv":
        texts = [{k: json.dumps(v) if k != "id" and v is not None else v for k, v in line.items()}
                 for line in LOGS]  # fmt: skip
        pl.DataFrame(texts).with_columns(logged_at=pl.lit(AT)).write_csv(path)
    else:
        frame = pl.DataFrame(
            [{**line, "messages": json.dumps(line["messages"])} for line in LOGS],
            schema={"id": pl.String, "logged_at": pl.String,
                    "retrieval_context": pl.List(pl.String), "messages": pl.String},
        )  # fmt: skip
        frame.write_parquet(path)
    return path


@pytest.mark.parametrize("name", ["chat.jsonl", "chat.csv", "chat.parquet"])
def test_a_message_keeps_its_own_passages_beside_the_conversations(
    tmp_path: Path, name: str
) -> None:
    db = tmp_path / "chat.duckdb"
    run = balanced_run(_write(tmp_path / name), db, max_invalid_share=1)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (3, 3, 0)
    found = query(
        db,
        "SELECT c.case_id, c.score, list(p.passage ORDER BY u.i), c.segments "
        "FROM case_scores AS c, unnest(c.passage_ids) WITH ORDINALITY AS u(id, i) "
        "JOIN passages AS p ON p.passage_id = u.id GROUP BY ALL ORDER BY 1",
    )
    assert [row[:3] for row in found] == [
        ("both:2", 1.0, [OWN, QUESTION]),
        ("conversation:2", 1.0, [OWN, QUESTION]),
        ("own:2", 1.0, [OWN, QUESTION]),
    ]
    assert all("retrieval_context" not in json.loads(row[3]) for row in found)


def test_a_quarantined_message_keeps_its_passages_as_logged_in_its_row(tmp_path: Path) -> None:
    """A quarantined turn is keyed by its row as read (`row_json`): its passages stay the list
    they were, so the quarantine rows of nights before keep their keys (a key that changed
    would store each one again, counted as new)."""
    line = {
        "id": "q",
        "logged_at": AT,
        "messages": [{"role": "narrator", "content": "Once.", "retrieval_context": [OWN]}],
    }
    source = tmp_path / "chat.jsonl"
    source.write_text(json.dumps(line) + "\n")
    db = tmp_path / "chat.duckdb"
    settings = ScoreSettings(
        source=str(source), db=str(db), max_invalid_share=1, max_quarantine_share=None
    )
    run_score(settings)
    ((check, row),) = query(db, 'SELECT "check", row_json FROM quarantine')
    assert check == "role_not_in_vocabulary"
    assert json.loads(row)["retrieval_context"] == [OWN]
