"""Cases whose answers and passages share few words, and the test's own rule that no stored
or cached statement comes from another case (issue 27): the honest pretend judge answers with
the sentences of each text, so every stored claim is a sentence of its own case's answer and
every truth a sentence of one of its case's passages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import polars as pl

from tests.support.builders import case_row, cases

CITIES = ["Leeds", "York", "Bath", "Derby", "Ely", "Hull", "Kent", "Wells"]
MONTHS = ["January", "February", "March", "April", "June", "July", "August", "October"]
N_CASES = 16


def case_rows() -> pl.DataFrame:
    """N_CASES cases, each with its own passage and answer (one altered, one invented part)."""
    rows = []
    for i in range(N_CASES):
        order, city, month = f"Z{100 + i}", CITIES[i % 8], MONTHS[(i * 3) % 8]
        passage = f"Order {order} left {city} on {i + 1} {month}. Parcel {order} weighs {i + 2} kg."
        answer = f"Order {order} left {city} on {i + 1} {month}."
        if i % 3 == 1:
            answer += f" Parcel {order} weighs {i + 7} kg."
        if i % 3 == 2:
            answer += f" Courier {order} rings {CITIES[(i + 4) % 8]} twice."
        rows.append(case_row(f"s{i:02d}", answer, retrieval_context=[passage]))
    return cases(rows)


def sentences(text: str) -> set[str]:
    return {s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()}


def assert_nothing_misfiled(db: Path, frame: pl.DataFrame) -> None:
    """Every stored claim and truth, and every cached claims answer, is its own item's."""
    answers = dict(zip(frame["case_id"], frame["actual_output"], strict=True))
    passages = {
        row["case_id"]: set().union(*(sentences(p) for p in row["retrieval_context"]))
        for row in frame.iter_rows(named=True)
    }
    con = duckdb.connect(str(db), read_only=True)
    try:
        stored = con.execute("SELECT case_id, claim FROM claim_verdicts").fetchall()
        truths = con.execute(
            "SELECT s.case_id, t.truth FROM case_scores s, unnest(s.passage_ids) AS p(id) "
            "JOIN truths t ON t.passage_id = p.id AND t.config_id = s.config_id"
        ).fetchall()
        cached = con.execute(
            "SELECT schema_name, reply, item FROM judge_cache WHERE item IS NOT NULL"
        ).fetchall()
        legacy = con.execute("SELECT count(*) FROM judge_cache WHERE item IS NULL").fetchone()
    finally:
        con.close()
    assert [(c, claim) for c, claim in stored if claim not in sentences(answers[c])] == []
    assert [(c, truth) for c, truth in truths if truth not in passages[c]] == []
    assert legacy == (0,)  # every answer cached since migration 018 names its item
    for schema, reply, item in cached:
        field = "claims" if "Claims" in schema else "truths" if "Truths" in schema else None
        if field is not None:
            text = json.loads(item)["text"]
            assert set(json.loads(reply)[field]) <= sentences(text), (schema, reply, item)
