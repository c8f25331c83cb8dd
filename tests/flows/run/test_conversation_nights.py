"""Conversations over two nights (issue 23): a conversation that grew scores only its new
turns; an edited earlier turn re-scores that turn and the turns whose window holds it, and
no other. `conversation_scores` agrees with the figures recomputed from claim_verdicts."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from flows.errors import QuarantineShareExceeded
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.flows.read.test_turns import TURNS_SCHEMA
from tests.support.db_reading import query

AT = dt.datetime(2026, 11, 1, 9, 0)
PASSAGE = "Order A17 shipped on 3 March. Refunds are paid within 5 working days."
SCHEMA = {name: kind for name, kind in TURNS_SCHEMA.items() if name != "channel"}
ANSWERS = [
    "Order A17 shipped on 3 March.",
    "Refunds are paid within 9 days.",  # contradicted: a failing turn
    "Refunds are paid within 5 working days.",
    "You asked about order A17.",  # supported by the conversation only
]


def conversation(cid: str, turns: int, edited: dict[int, str] | None = None) -> list[dict]:
    """`turns` turns alternating user, assistant; `edited` replaces some turns' content."""
    rows = []
    for turn in range(1, turns + 1):
        user = turn % 2 == 1
        content = f"Question {turn} about order A17?" if user else ANSWERS[(turn // 2) % 4]
        rows.append(
            {
                "conversation_id": cid,
                "turn": turn,
                "role": "user" if user else "assistant",
                "content": (edited or {}).get(turn, content),
                "retrieval_context": None if user else [PASSAGE],
                "logged_at": AT + dt.timedelta(days=int(cid[1:]), minutes=turn),
            }
        )
    return rows


def night(path: Path, *conversations: list[dict]) -> Path:
    pl.DataFrame([row for rows in conversations for row in rows], schema=SCHEMA).write_parquet(path)
    return path


def _run(source: Path, db: Path) -> dict:
    run = run_score(ScoreSettings(source=str(source), db=str(db), flow="nightly"))
    assert run["rows_in"] == (
        run["rows_scored"] + run["rows_invalid"] + run["rows_pending"] + run["rows_quarantined"]
    )
    return run


def test_a_grown_conversation_scores_only_its_new_turns_and_an_edit_its_window(
    tmp_path: Path,
) -> None:
    db = tmp_path / "nights.duckdb"
    first = night(
        tmp_path / "night1.parquet",
        conversation("c1", 4),
        conversation("c2", 6),
        conversation("c3", 8),
    )
    one = _run(first, db)
    assert (one["rows_in"], one["rows_newly_scored"]) == (9, 9)
    before = dict(query(db, "SELECT case_id, run_id FROM case_scores"))

    # Night 2: c1 grew by two turns; c3's turn 2 (an answer) was edited; c2 is as it was.
    second = night(
        tmp_path / "night2.parquet",
        conversation("c1", 6),
        conversation("c2", 6),
        conversation("c3", 8, edited={2: "Order A17 shipped on 4 March."}),
    )
    two = _run(second, db)
    assert two["rows_in"] == 3 + 3 + 4
    rescored = sorted(
        case_id
        for case_id, run_id in query(db, "SELECT case_id, run_id FROM case_scores")
        if run_id != before.get(case_id)
    )
    # c1:6 is new; c3:2 was edited, c3:4 and c3:6 hold turn 2 in their window of 4 turns
    # (turns 1-3, 2-5); c3:8's window (turns 4-7) does not hold it.
    assert rescored == ["c1:6", "c3:2", "c3:4", "c3:6"]
    assert (two["rows_newly_scored"], two["rows_already_scored"]) == (4, 6)
    assert two["rows_replaced"] == 3


def test_conversation_scores_agree_with_the_claim_verdicts(tmp_path: Path) -> None:
    db = tmp_path / "scores.duckdb"
    _run(
        night(tmp_path / "logs.parquet", *(conversation(f"c{i}", 2 + 2 * i) for i in range(5))), db
    )
    claims = pl.DataFrame(
        query(db, "SELECT case_id, verdict FROM claim_verdicts"),
        schema={"case_id": pl.String, "verdict": pl.String},
        orient="row",
    )
    turns = pl.DataFrame(
        query(db, "SELECT case_id, status FROM case_scores"),
        schema={"case_id": pl.String, "status": pl.String},
        orient="row",
    )
    # DeepEval's rule by hand: the share of claims not contradicted, 1.0 without claims.
    per_turn = (
        turns.filter(pl.col("status") == "scored")
        .join(claims, on="case_id", how="left")
        .group_by("case_id")
        .agg(
            n=pl.col("verdict").is_not_null().sum(),
            no=(pl.col("verdict") == "no").sum(),
        )
        .with_columns(
            score=pl.when(pl.col("n") > 0).then(1 - pl.col("no") / pl.col("n")).otherwise(1.0),
            conversation_id=pl.col("case_id").str.split(":").list.first(),
            turn=pl.col("case_id").str.split(":").list.last().cast(pl.Int64),
        )
        .with_columns(success=pl.col("score") >= 0.5)
    )
    expected = (
        per_turn.group_by("conversation_id")
        .agg(
            turns_scored=pl.len().cast(pl.Int64),
            mean_score=pl.col("score").mean(),
            min_score=pl.col("score").min(),
            share_passing=pl.col("success").cast(pl.Float64).mean(),
            all_pass=pl.col("success").all(),
            first_failing_turn=pl.col("turn").filter(~pl.col("success")).min(),
        )
        .sort("conversation_id")
    )
    stored = pl.DataFrame(
        query(
            db,
            "SELECT conversation_id, turns_scored, mean_score, min_score, share_passing, "
            "all_pass, first_failing_turn FROM conversation_scores ORDER BY conversation_id",
        ),
        schema=expected.schema,
        orient="row",
    )
    assert stored.height == 5
    assert expected["first_failing_turn"].drop_nulls().len() > 0  # some conversation fails
    assert not expected["all_pass"].all()
    assert_frame_equal(stored, expected, check_exact=False)


def test_a_broken_turn_is_quarantined_once_when_a_second_nights_file_joins_it(
    tmp_path: Path,
) -> None:
    """A quarantined turn's key is its own file and its text: a folder of one night's file,
    then of two, holds the same broken turns, never stored again as the second night's (which
    made a false exit 11: `1 of 9 new rows` quarantined, the old turn counted anew)."""
    logs = tmp_path / "logs"
    logs.mkdir()
    broken = conversation("c1", 4)
    broken[2] = {**broken[2], "role": "narrator"}  # role_not_in_vocabulary
    broken[3] = {**broken[3], "content": "   "}  # a blank answer: actual_output_not_blank
    first = night(logs / "2026-11-01.parquet", broken)
    db = tmp_path / "nights.duckdb"
    run = run_score(ScoreSettings(source=str(logs), db=str(db), max_quarantine_share=None))
    assert run["rows_quarantined"] == 2
    night(logs / "2026-11-02.parquet", *(conversation(f"c{n}", 4) for n in range(2, 7)))
    run = _run(logs, db)  # the default --max-quarantine-share: no alarm
    assert (run["rows_in"], run["rows_quarantined"]) == (13, 2)
    stored = 'SELECT "check", case_id, source_file FROM quarantine ORDER BY 1'
    assert query(db, stored) == [
        ("actual_output_not_blank", "c1:4", str(first)),
        ("role_not_in_vocabulary", "c1:3", str(first)),
    ]


def test_a_broken_turn_is_quarantined_once_when_the_next_nights_export_gains_a_column(
    tmp_path: Path,
) -> None:
    """The second night's export has a segment the first lacks (`channel`): read beside it,
    the first night's turns held it as null, so each broken turn's and blank answer's key
    changed, stored again and counted as the second night's (a false exit 11: `2 of 12 new
    rows`); and the first night's cases gained a null `channel` segment they do not have."""
    logs = tmp_path / "logs"
    logs.mkdir()
    broken = conversation("c1", 4)
    broken[2] = {**broken[2], "role": "narrator"}  # role_not_in_vocabulary
    broken[3] = {**broken[3], "content": "   "}  # a blank answer: actual_output_not_blank
    first = night(logs / "2026-11-01.parquet", broken + conversation("c2", 2))
    db = tmp_path / "nights.duckdb"
    run = run_score(ScoreSettings(source=str(logs), db=str(db), max_quarantine_share=None))
    assert run["rows_quarantined"] == 2
    later = [dict(row, channel="app") for n in range(3, 8) for row in conversation(f"c{n}", 4)]
    pl.DataFrame(later).write_parquet(logs / "2026-11-02.parquet")
    run = _run(logs, db)  # the default --max-quarantine-share: no alarm
    assert (run["rows_in"], run["rows_newly_scored"], run["rows_quarantined"]) == (14, 10, 2)
    stored = 'SELECT "check", case_id, source_file FROM quarantine ORDER BY 1'
    assert query(db, stored) == [
        ("actual_output_not_blank", "c1:4", str(first)),
        ("role_not_in_vocabulary", "c1:3", str(first)),
    ]
    segments = "SELECT case_id, json_keys(segments) FROM case_scores WHERE case_id LIKE 'c2:%'"
    assert query(db, segments) == [("c2:2", ["context_origins", "conversation_id", "turn"])]
    assert query(db, "SELECT count(*) FROM case_scores WHERE segments ->> 'channel' = 'app'") == [
        (10,)
    ]


def test_a_nights_export_of_whole_conversations_beside_the_last_is_no_drift(
    tmp_path: Path,
) -> None:
    """Each night exports its conversations whole, so a conversation that went on past
    midnight is in two nights' files: its old turns, read again exactly, were `turn_repeated`
    and counted as the night's quarantined rows (exit 11, `8 of 12 new rows`). They are
    `turn_repeated_exact_copy`, left out of the share; a turn logged again with other words
    is still `turn_repeated`, and counts."""
    logs = tmp_path / "logs"
    logs.mkdir()
    night(logs / "2026-11-01.parquet", *(conversation(f"c{n}", 4) for n in range(1, 5)))
    db = tmp_path / "nights.duckdb"
    assert _run(logs, db)["rows_newly_scored"] == 8
    grown = [conversation(f"c{n}", 6) for n in range(1, 5)]  # turns 1-4 again, and 5-6
    night(logs / "2026-11-02.parquet", *grown)
    run = _run(logs, db)  # the default --max-quarantine-share
    assert (run["rows_newly_scored"], run["rows_quarantined"], run["warning"]) == (4, 16, None)
    checks = 'SELECT "check", count(*) FROM quarantine GROUP BY 1'
    assert query(db, checks) == [("turn_repeated_exact_copy", 16)]
    edited = conversation("c1", 8, edited={2: "Order A17 shipped on 4 March."})
    night(logs / "2026-11-03.parquet", edited)
    with pytest.raises(QuarantineShareExceeded) as raised:  # turn 8 and the edited turn 2
        run_score(ScoreSettings(source=str(logs), db=str(db)))
    assert "1 of 2 new rows (50.0%)" in str(raised.value)
    assert "top checks: turn_repeated 1 (see" in str(raised.value)
    assert query(db, checks + " ORDER BY 1") == [
        ("turn_repeated", 1),
        ("turn_repeated_exact_copy", 21),
    ]


def test_a_chat_log_whose_time_is_the_conversations_last_update_is_no_drift(
    tmp_path: Path,
) -> None:
    """A chat log exported each night with each conversation whole and its `logged_at` the
    conversation's last update: yesterday's messages come again under a later time. They say
    what they said, so they are exact copies (a copy's time, like a case's, is not what it
    says), not `turn_repeated` (exit 11 every night); the turns keep the time first read."""
    logs = tmp_path / "logs"
    logs.mkdir()
    said = [("user", "Where is order A17?"), ("assistant", ANSWERS[0]),
            ("user", "And refunds?"), ("assistant", ANSWERS[2])]  # fmt: skip

    def chat_night(name: str, messages: int, updated: str) -> None:
        turns = [{"role": role, "content": text} for role, text in said[:messages]]
        for turn in turns[1::2]:
            turn["retrieval_context"] = [PASSAGE]
        line = {"conversation_id": "c1", "messages": turns, "logged_at": updated}
        (logs / name).write_text(json.dumps(line) + "\n")

    chat_night("2026-11-01.jsonl", 2, "2026-11-01T09:00:00")
    db = tmp_path / "nights.duckdb"
    assert _run(logs, db)["rows_newly_scored"] == 1
    chat_night("2026-11-02.jsonl", 4, "2026-11-02T09:00:00")
    run = _run(logs, db)  # the default --max-quarantine-share
    assert (run["rows_newly_scored"], run["rows_quarantined"], run["warning"]) == (1, 2, None)
    checks = 'SELECT "check", case_id FROM quarantine ORDER BY case_id'
    assert query(db, checks) == [
        ("turn_repeated_exact_copy", "c1:1"),
        ("turn_repeated_exact_copy", "c1:2"),
    ]
    times = "SELECT case_id, logged_at FROM case_scores ORDER BY case_id"
    assert query(db, times) == [
        ("c1:2", dt.datetime(2026, 11, 1, 9, 0)),
        ("c1:4", dt.datetime(2026, 11, 2, 9, 0)),
    ]


def test_whole_number_ids_stored_as_floats_are_the_same_conversations(tmp_path: Path) -> None:
    """pandas writes an integer id column holding a missing value as floats (7.0): such a
    night beside one of integer ids keeps the ids 7 and 8, so the first night's cases are
    not judged again under new ids (`7.0:2`) and conversation 7 goes on where it was."""
    logs = tmp_path / "logs"
    logs.mkdir()
    first = [
        dict(row, conversation_id=int(row["conversation_id"][1:])) for row in conversation("c7", 2)
    ]
    first += [dict(row, conversation_id=8) for row in conversation("c8", 2)]
    pl.DataFrame(first).write_parquet(logs / "2026-11-01.parquet")
    db = tmp_path / "ids.duckdb"
    _run(logs, db)
    second = [dict(row, conversation_id=7.0) for row in conversation("c7", 4)[2:]]
    second += [dict(row, conversation_id=None) for row in conversation("c9", 2)]
    frame = pl.DataFrame(second, schema_overrides={"conversation_id": pl.Float64})
    frame.write_parquet(logs / "2026-11-02.parquet")
    run = run_score(ScoreSettings(source=str(logs), db=str(db), max_quarantine_share=None))
    assert (run["rows_scored"], run["rows_newly_scored"], run["rows_quarantined"]) == (3, 1, 2)
    found = query(db, "SELECT case_id, segments ->> 'conversation_id' FROM case_scores ORDER BY 1")
    assert found == [("7:2", "7"), ("7:4", "7"), ("8:2", "8")]
    windows = query(
        db, "SELECT segments ->> 'context_origins' FROM case_scores WHERE case_id = '7:4'"
    )
    assert windows == [('["passage","turn:1:user","turn:2:assistant","turn:3:user"]',)]


def test_a_column_two_nights_spell_in_other_cases_is_neither_nights_lack(tmp_path: Path) -> None:
    """DuckDB reads `Channel` and `channel` of two nights as one column: the night that spelt
    it otherwise kept its values, not dropped as a column its file lacks."""
    logs = tmp_path / "logs"
    logs.mkdir()
    first = [dict(row, Channel="web") for row in conversation("c1", 2)]
    pl.DataFrame(first).write_parquet(logs / "2026-11-01.parquet")
    later = [dict(row, channel="app") for row in conversation("c2", 2)]
    pl.DataFrame(later).write_parquet(logs / "2026-11-02.parquet")
    _run(logs, tmp_path / "nights.duckdb")
    spelt = (
        "SELECT case_id, coalesce(segments ->> 'Channel', segments ->> 'channel') "
        "FROM case_scores ORDER BY 1"
    )
    assert query(tmp_path / "nights.duckdb", spelt) == [("c1:2", "web"), ("c2:2", "app")]
