"""A small model's verdict words as it writes them: "No.", "**Yes**", "'idk'" are its verdicts.

Reading "1" dropped a word inside punctuation, so a model that wrote "No." had its `no`
uncounted and its case's score raised. A real server on 127.0.0.1 answers by the lexical rules
with every verdict decorated so; the LLM judge must give the lexical judge's scores.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

from faith_udfs import MetricConfig
from faith_udfs.prompt_judge import PromptJudge
from faith_udfs.verdicts import VERDICT_READING
from flows.judges.live.questions import asking_identity, openai_identity
from flows.judges.settings import JudgeSettings
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import COMPARED
from tests.support.openai_stub import StubServer

SAMPLE = Path(__file__).resolve().parents[3] / "data" / "sample" / "cases.parquet"
AS_WRITTEN = {"yes": "**Yes**", "no": "No.", "idk": "'idk'"}


class DecoratingServer(StubServer):
    """Answers as the pretend judge does, each verdict word as a chatty small model writes it."""

    def rewrite(
        self, request: dict[str, Any], prompt: str, reply: dict[str, Any]
    ) -> tuple[str, str] | None:
        for entry in [reply, *reply.get("items", [])]:
            for verdict in entry.get("verdicts") or []:
                verdict["verdict"] = AS_WRITTEN[verdict["verdict"]]
        return json.dumps(reply), "stop"


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[DecoratingServer]:
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    with DecoratingServer(api_key="local") as stub:
        yield stub


def test_decorated_verdict_words_score_as_the_words(
    server: DecoratingServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, db = tmp_path / "cases.parquet", tmp_path / "f.duckdb"
    pl.read_parquet(SAMPLE).head(40).write_parquet(source)
    lexical = run_score(
        ScoreSettings(source=str(source), db=str(db), judge=JudgeSettings(kind="lexical"))
    )
    judge = JudgeSettings(kind="openai", model="small-1.5b", base_url=server.base_url)
    llm = run_score(ScoreSettings(source=str(source), db=str(db), judge=judge))
    assert (llm["rows_scored"], llm["rows_invalid"]) == (40, 0)
    con = duckdb.connect(str(db), read_only=True)
    try:
        query = f"SELECT {', '.join(COMPARED)} FROM case_scores WHERE config_id = $c ORDER BY 1"
        on = {
            side["config_id"]: con.sql(query, params={"c": side["config_id"]}).pl()
            for side in (lexical, llm)
        }
        words = con.sql(
            "SELECT DISTINCT verdict FROM claim_verdicts WHERE config_id = $c ORDER BY 1",
            params={"c": llm["config_id"]},
        ).fetchall()
        dropped = con.sql(
            "SELECT sum(n_dropped) FROM case_scores WHERE config_id = $c",
            params={"c": llm["config_id"]},
        ).fetchall()
    finally:
        con.close()
    assert on[llm["config_id"]].equals(on[lexical["config_id"]])
    assert {"no", "yes"} <= {word for (word,) in words} <= {"idk", "no", "yes"}
    assert dropped == [(0,)]

    # A later reading is a new series, scored again from the replies already paid for.
    requests = server.requests
    monkeypatch.setattr("flows.judges.live.questions.VERDICT_READING", "next")
    again = run_score(ScoreSettings(source=str(source), db=str(db), judge=judge))
    assert again["config_id"] != llm["config_id"]
    assert (again["rows_newly_scored"], again["judge_calls"]) == (40, 0)
    assert server.requests == requests


def test_the_reading_is_a_series_of_its_own_and_batches_stay_collectable() -> None:
    """The reading enters the config id (scores of two readings never share a series); the
    batch owner is what the requests depend on, as before it, so batches asked before a new
    reading are still collected."""
    live = openai_identity("small-1.5b", "packed")
    assert ("verdict_reading", VERDICT_READING) in live.options
    assert PromptJudge(lambda prompt, schema: {}).identity.as_dict()["options"] == {
        "verdict_reading": VERDICT_READING
    }
    asked = asking_identity("small-1.5b", "packed").as_dict()
    assert asked == {**live.as_dict(), "options": {"mode": "packed"}}
    config = MetricConfig()
    assert config.config_id(live) != config.config_id(asking_identity("small-1.5b", "packed"))
