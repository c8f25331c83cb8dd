"""A sloppy small model can never put its answer under the wrong case (issue 27).

A real server on 127.0.0.1 (tests/support/sloppy_stub.py) shifts answers between the items of
a pack, merges them into item 1, writes "items" twice with the wrong list last, drops or
doubles entries, repeats its previous reply on re-asks and answers one-item prompts with the
previous prompt's answer. Whatever it does: no stored or cached claim or truth comes from
another case, every case is accounted for, and a later run against an honest server scores
the rest. The stored statements are held to a rule of the test's own: the honest pretend
judge answers with the sentences of each text, so every stored claim must be a sentence of
its own case's answer, and every truth a sentence of one of its case's passages.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest

from faith_udfs import LexicalJudge, MetricConfig, score_cases
from faith_udfs.prompts import CLAIMS
from flows.cli import main
from flows.judges.endpoint.request_details import endpoint_key
from flows.judges.modes import with_remembered_mode
from flows.judges.settings import JudgeSettings
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from flows.store.db import open_store
from flows.store.judge_memory import JudgeMemory, JudgeMode
from tests.support.builders import COMPARED, case_row, cases, write
from tests.support.db_reading import query
from tests.support.llm_judge import shorten_backoff
from tests.support.misfiled import N_CASES, assert_nothing_misfiled, case_rows
from tests.support.sloppy_stub import SloppyServer


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[SloppyServer]:
    """The sloppy server, a key, and test-sized waits between a judge's attempts (its
    unusable replies are asked again: attempts are the subject, not the waits)."""
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    shorten_backoff(monkeypatch)
    with SloppyServer() as stub:
        yield stub
    assert stub.errors == []


def run(server: SloppyServer, source: Path, db: Path, mode: str = "packed") -> dict:
    judge = JudgeSettings(
        kind="openai", model="small-1.5b", base_url=server.base_url, timeout=10.0, mode=mode
    )
    settings = ScoreSettings(source=str(source), db=str(db), judge=judge, max_invalid_share=1.0)
    return run_score(settings)


def accounted(db: Path) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute(
            "SELECT rows_in, rows_scored, rows_invalid, rows_pending, rows_quarantined FROM runs "
            "ORDER BY started_at"
        ).fetchall()
    finally:
        con.close()
    for rows_in, *parts in rows:
        assert rows_in == sum(parts)
    return rows


def lexical(frame: pl.DataFrame) -> pl.DataFrame:
    scored = score_cases(frame, LexicalJudge(), MetricConfig()).case_scores
    return scored.select(COMPARED).sort("case_id")


def stored_scores(db: Path) -> pl.DataFrame:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.sql("SELECT * FROM case_scores").pl().select(COMPARED).sort("case_id")
    finally:
        con.close()


@pytest.mark.parametrize(
    "sloppy",
    [
        {"shift"},
        {"merge"},
        {"twice"},
        {"drop", "double"},
        # The hidden server of the issue: shifted, "items" twice, re-asks repeated.
        {"shift", "twice", "repeat", "stale"},
    ],
    ids=lambda kinds: "+".join(sorted(kinds)),
)
def test_no_answer_is_stored_under_another_case(
    server: SloppyServer, tmp_path: Path, sloppy: set[str]
) -> None:
    frame = case_rows()
    source = write(frame, tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    server.switch(*sloppy)
    first = run(server, source, db)
    assert first["rows_in"] == N_CASES
    assert_nothing_misfiled(db, frame)
    # An honest server later: the cases left invalid are scored, the scored ones kept.
    server.switch()
    second = run(server, source, db)
    assert second["rows_newly_scored"] == first["rows_invalid"]
    assert second["rows_already_scored"] == first["rows_newly_scored"]
    assert len(accounted(db)) == 2
    assert_nothing_misfiled(db, frame)
    assert stored_scores(db).equals(lexical(frame))


@pytest.mark.parametrize(
    "sloppy", [{"bare"}, {"bare", "reverse"}], ids=lambda kinds: "+".join(sorted(kinds))
)
def test_entries_without_item_numbers_are_used_only_while_their_order_holds(
    server: SloppyServer, tmp_path: Path, sloppy: set[str]
) -> None:
    # One claim each: a supported one (verdict yes, no reason) and a contradicted one (no, with
    # a reason). Reversed, the "no" reads as the other item's, so the bare "yes" beside it,
    # whose order alone says whose it is, is no answer either: both are asked again alone.
    frame = cases(
        [
            case_row("a", "Order A17 shipped on 3 March."),
            case_row("b", "Refunds are paid within 9 days."),
        ]
    )
    source = write(frame, tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    server.switch(*sloppy)
    first = run(server, source, db)
    assert (first["rows_scored"], first["rows_invalid"]) == (2, 0)
    assert stored_scores(db).equals(lexical(frame))
    verdicts = query(db, "SELECT case_id, verdict FROM claim_verdicts ORDER BY case_id")
    assert verdicts == [("a", "yes"), ("b", "no")]
    # In order, the bare entries are the items' own: one packed call a stage (truths of the
    # two passages, claims and verdicts of the two answers). Reversed, every stage's two items
    # are asked again alone.
    asked_alone = 3 * 2 if "reverse" in sloppy else 0
    assert server.requests == 3 + asked_alone


def test_a_re_ask_answered_with_the_previous_reply_is_no_answer(
    server: SloppyServer, tmp_path: Path
) -> None:
    frame = case_rows()
    source = write(frame, tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    server.switch("stale", "repeat")  # each answer is the previous item's; re-asks repeated
    first = run(server, source, db, mode="per-item")
    assert first["rows_invalid"] > 0
    assert server.repeated > 0
    con = duckdb.connect(str(db), read_only=True)
    try:
        errors = [row[0] for row in con.execute("SELECT error FROM case_scores").fetchall()]
    finally:
        con.close()
    assert any("the same reply word for word" in (error or "") for error in errors)
    # Asked again with the refused reply as the assistant's turn: at most two calls an item.
    assert server.by_schema[CLAIMS] <= 2 * N_CASES
    assert_nothing_misfiled(db, frame)
    accounted(db)


def test_a_padded_reply_is_not_asked_again_with_more_room(
    server: SloppyServer, tmp_path: Path
) -> None:
    frame = case_rows()
    source = write(frame, tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    server.switch("pad")  # claims replies: an unescaped quote, then spaces up to max_tokens
    first = run(server, source, db, mode="per-item")
    assert first["rows_invalid"] == N_CASES
    claims_calls = [b for b in server.bodies if CLAIMS in b["messages"][0]["content"][:40]]
    assert len(claims_calls) == N_CASES  # once each: never again with twice the room
    con = duckdb.connect(str(db), read_only=True)
    try:
        (error,) = con.execute("SELECT DISTINCT error FROM case_scores").fetchone()
    finally:
        con.close()
    assert "padded" in error
    assert "unescaped quote" in error
    assert "will not help" in error
    assert "--judge-mode per-item" not in error  # the mode it ran in: no advice
    accounted(db)


# --- the mode that works, found and remembered ---------------------------------------------


def test_judge_check_finds_per_item_where_packed_fails_and_score_uses_it(
    server: SloppyServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server.switch("shift", "merge")  # packed prompts answered sloppily, one-item ones right
    db = tmp_path / "f.duckdb"
    endpoint = ["--model", "small-1.5b", "--base-url", server.base_url]
    assert main(["judge-check", *endpoint, "--db", str(db), "--concurrency", "2"]) == 0
    out = capsys.readouterr().out
    assert "usable: NO: " in out
    assert "packed answers were unusable or another item's" in out
    assert "judge small-1.5b (per-item)" in out
    assert "judge mode: per-item (packed cannot be used)" in out
    assert "latency at --concurrency 2: median " in out
    modes = query(db, "SELECT judge_mode, concurrency FROM judge_modes")
    assert modes == [("per-item", 2)]
    checks = query(db, "SELECT judge, usable FROM judge_preflights ORDER BY checked_at")
    assert [(json.loads(judge)["mode"], usable) for judge, usable in checks] == [
        ("packed", False),
        ("per-item", True),
    ]
    # The docs' query (docs/small-models.md) reads what the check remembered.
    assert query(db, docs_sql()) == [("small-1.5b", "per-item", *query(db, LATENCY)[0], 2, 0)]
    # `faith score` without --judge-mode asks per item, as remembered; nothing packed.
    server.reset_counts()
    frame = case_rows()
    source = write(frame, tmp_path / "cases.parquet")
    assert main(["score", str(source), "--db", str(db), "--judge", "openai", *endpoint]) == 0
    assert server.by_schema[CLAIMS] == N_CASES
    assert not [schema for schema in server.by_schema if "Packed" in schema]
    assert_nothing_misfiled(db, frame)
    assert stored_scores(db).equals(lexical(frame))
    # Told otherwise, it asks packed (and the sloppy packs are asked again one by one).
    server.reset_counts()
    args = ["score", str(source), "--db", str(db), "--judge", "openai", *endpoint]
    assert main([*args, "--judge-mode", "packed"]) == 0
    assert server.by_schema["faithfulness.PackedClaims"] > 0
    assert_nothing_misfiled(db, frame)


DOCS = Path(__file__).resolve().parents[3] / "docs" / "small-models.md"
LATENCY = "SELECT round(seconds_per_call, 1), round(slowest_call, 1) FROM judge_modes"


def docs_sql() -> str:
    """The page's one ```sql block."""
    (block,) = re.findall(r"```sql\n(.*?)```", DOCS.read_text(), re.DOTALL)
    return block


def test_a_timeout_not_given_fits_the_latency_judge_check_measured(tmp_path: Path) -> None:
    con = open_store(tmp_path / "f.duckdb")
    memory = JudgeMemory(con)
    try:
        key = endpoint_key("http://cpu-box:8080/v1")
        memory.remember_mode(key, "small-1.5b", JudgeMode("per-item", 120.0, 660.0, 1))
        unset = JudgeSettings(kind="openai", model="small-1.5b", base_url="http://cpu-box:8080/v1")
        found = with_remembered_mode(unset, memory)
        assert (found.mode, found.timeout) == ("per-item", 1980.0)  # 3 x 660 s
        given = JudgeSettings(
            kind="openai",
            model="small-1.5b",
            base_url="http://cpu-box:8080/v1",
            mode="packed",
            timeout=30.0,
        )
        kept = with_remembered_mode(given, memory)  # --judge-mode and --timeout given: kept
        assert (kept.mode, kept.timeout) == ("packed", 30.0)
        # a call of 11 hours: 3x would be past what --timeout takes; the day it takes at most
        memory.remember_mode(key, "huge-405b", JudgeMode("per-item", 120.0, 40_000.0, 1))
        slow = with_remembered_mode(unset.model_copy(update={"model": "huge-405b"}), memory)
        assert slow.timeout == 86_400.0
        other = unset.model_copy(update={"model": "gpt-4o-mini"})
        assert with_remembered_mode(other, memory) is other  # nothing remembered for it
    finally:
        memory.close()
        con.close()
