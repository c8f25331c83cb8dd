"""The grounded judge v2 (issue 20): one support per claim, verdicts from cut-offs on it,
what the context lacks stored for each `no` and `idk`, and v1 kept as its own series."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest

from faith_udfs import (
    ConfigError,
    FaithfulnessMetric,
    GroundedJudge,
    LLMTestCase,
    MetricConfig,
    score_cases,
)
from faith_udfs.grounded import DEFAULT_CUTOFFS, GROUNDED_RULES_VERSION, Cutoffs, grounded_judge
from faith_udfs.grounded_v1 import GROUNDED_RULES_VERSION as V1
from faith_udfs.grounded_v1 import GroundedV1Judge
from flows.run.pipeline import run_score
from flows.run.settings import JudgeSettings, ScoreSettings
from tests.support.builders import case_row, cases, write

A17 = ["Order A17 shipped on 3 March by courier.", "Refunds are paid within 5 working days."]
ANSWERS = [
    "Order A17 shipped on 3 March.",
    "Order A17 shipped on 4 March.",
    "Order A17 was cancelled. We are sorry.",
    "Refunds are not paid within 5 working days.",
    "Order A17 shipped on 3 March. Batteries are covered.",
    "Refunds are paid within 5 working days, by courier, in Berlin.",
]


def measured(answer: str, judge: GroundedJudge | None = None) -> FaithfulnessMetric:
    metric = FaithfulnessMetric(model=judge or GroundedJudge())
    metric.measure(LLMTestCase(input="Where is A17?", actual_output=answer, retrieval_context=A17))
    return metric


def test_v2_is_the_default_and_v1_stays_its_own_series() -> None:
    assert GROUNDED_RULES_VERSION == "grounded-v2"
    assert V1 == "grounded-v1"
    v2, v1 = GroundedJudge().identity, GroundedV1Judge().identity
    assert (v2.kind, v2.model, v1.kind, v1.model) == ("grounded", "grounded-v2", "grounded", V1)
    assert MetricConfig().config_id(v2) != MetricConfig().config_id(v1)
    # the id v1's series was stored under before v2 existed
    assert MetricConfig().config_id(v1) == "faith-ec398a547331a401"


@pytest.mark.parametrize("answer", ANSWERS)
def test_the_verdict_is_the_support_against_the_cutoffs(answer: str) -> None:
    for v in measured(answer).verdicts:
        assert v.support is not None
        assert 0.0 <= v.support <= 1.0
        expected = (
            "yes"
            if v.support >= DEFAULT_CUTOFFS.supported
            else "idk"
            if v.support < DEFAULT_CUTOFFS.silent
            else "no"
        )
        assert v.verdict == expected


def test_cutoffs_move_the_verdicts_and_only_them() -> None:
    answer = "Order A17 shipped on 3 March. Refunds are paid within 9 working days."
    default = measured(answer)
    assert [v.verdict for v in default.verdicts] == ["yes", "no"]
    strict = measured(answer, GroundedJudge(cutoffs=Cutoffs(supported=0.999, silent=0.001)))
    lenient = measured(answer, GroundedJudge(cutoffs=Cutoffs(supported=0.0, silent=0.0)))
    silent = measured(answer, GroundedJudge(cutoffs=Cutoffs(supported=0.999, silent=0.999)))
    assert [v.verdict for v in strict.verdicts] == ["no", "no"]
    assert [v.verdict for v in lenient.verdicts] == ["yes", "yes"]
    assert [v.verdict for v in silent.verdicts] == ["idk", "idk"]
    for other in (strict, lenient, silent):
        assert [v.support for v in other.verdicts] == [v.support for v in default.verdicts]


@pytest.mark.parametrize(
    ("answer", "lacks"),
    [
        ("Order A17 shipped on 4 March.", ["4"]),
        ("Refunds are not paid within 5 working days.", ["not"]),
        ("Order A17 shipped on 3 March by courier in Berlin.", ["Berlin"]),
        ("Order A17 was cancelled.", ["cancelled"]),
    ],
)
def test_a_no_claim_names_what_the_context_lacks(answer: str, lacks: list[str]) -> None:
    (verdict,) = measured(answer).verdicts
    assert (verdict.verdict, verdict.context_lacks) == ("no", lacks)
    assert verdict.evidence in A17


def test_a_yes_claim_lacks_nothing_stored() -> None:
    (verdict,) = measured("Order A17 shipped on 3 March.").verdicts
    assert (verdict.verdict, verdict.context_lacks) == ("yes", None)


def test_a_batch_and_each_case_alone_agree() -> None:
    cases = pl.DataFrame(
        {
            "case_id": [str(i) for i in range(len(ANSWERS))],
            "actual_output": ANSWERS,
            "retrieval_context": [A17[::-1] if i % 2 else A17 for i in range(len(ANSWERS))],
        }
    )
    batch = score_cases(cases, GroundedJudge(), MetricConfig())
    alone = pl.concat(
        score_cases(cases.slice(i, 1), GroundedJudge(), MetricConfig()).claim_verdicts
        for i in range(cases.height)
    )
    order = ["case_id", "claim_index"]
    assert batch.claim_verdicts.sort(order).equals(alone.sort(order))
    rows = cases.height
    scored = batch.case_scores["status"].eq("scored").sum()
    assert scored == rows  # rows in = scored (no invalid, pending or quarantined here)


def test_a_run_names_the_rules_and_keeps_each_series(tmp_path: Path) -> None:
    rows = [case_row("grounded"), case_row("off", "Batteries are covered.")]
    source, db = write(cases(rows), tmp_path / "cases.parquet"), tmp_path / "f.duckdb"
    for rules in (None, "grounded-v1"):
        judge = JudgeSettings(kind="grounded", model=rules)
        assert run_score(ScoreSettings(source=str(source), db=str(db), judge=judge))["status"] == (
            "completed"
        )
    con = duckdb.connect(str(db), read_only=True)
    try:
        stored = con.sql(
            "SELECT r.config ->> '$.judge.model' AS rules, v.case_id, v.verdict, v.context_lacks "
            "FROM claim_verdicts v JOIN (SELECT DISTINCT config_id, config FROM runs) r "
            "USING (config_id) ORDER BY rules, v.case_id"
        ).fetchall()
    finally:
        con.close()
    assert stored == [
        ("grounded-v1", "grounded", "yes", None),
        ("grounded-v1", "off", "idk", None),  # v1 gives no context_lacks
        ("grounded-v2", "grounded", "yes", None),
        ("grounded-v2", "off", "no", ["batteries", "covered"]),
    ]


def test_unknown_rules_are_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown grounded rules 'grounded-v9'"):
        grounded_judge("grounded-v9")


def test_the_docs_query_of_context_lacks_runs(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "judge-quality.md").read_text()
    query = text.split("```sql\n", 1)[1].split("```", 1)[0]
    rows = [case_row("refund", "Refunds are paid within 9 working days.")]
    source, db = write(cases(rows), tmp_path / "cases.parquet"), tmp_path / "f.duckdb"
    assert run_score(ScoreSettings(source=str(source), db=str(db)))["status"] == "completed"
    con = duckdb.connect(str(db), read_only=True)
    try:
        got = con.sql(query).fetchall()
    finally:
        con.close()
    claim = "Refunds are paid within 9 working days."
    assert got == [("refund", claim, "no", ["9"], "Refunds are paid within 5 working days.")]
