"""The analysis macros of flows/store/sql/002_analysis.sql on a real DuckDB file of hand-made rows.

Expected numbers are worked out by hand (or by the textbook formula) in each test.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

from faith_udfs import score_expr
from flows.store.db import open_store
from flows.store.sql_functions import register_metric_functions

# The pages whose ```sql examples run here, against the tables built below.
ROOT = Path(__file__).resolve().parents[3]
PAGES = ("output-tables.md", "sql.md", "nightly.md", "judge-quality.md")
DOCS = [ROOT / "README.md", *(ROOT / "docs" / page for page in PAGES)]

Z = 1.959963984540054  # the 97.5th percentile of the standard normal: a 95 % interval
DAY1 = date(2026, 3, 2)  # a Monday: weeks start here

_INSERT_CASE = """
INSERT INTO case_scores (
    config_id, case_id, run_id, content_hash, logged_at, input, actual_output, n_truths,
    n_claims, n_yes, n_no, n_idk, n_dropped, score, threshold, penalize_ambiguous_claims,
    strict_mode, success, no_claims, status, error, reason, passage_ids, segments, scored_at
) VALUES (
    $config_id, $case_id, 'run-1', $content_hash, $logged_at, 'Where is order A17?', $answer, 1,
    $n_claims, $n_yes, $n_no, $n_idk, $n_dropped, $score, $threshold, $penalize, $strict,
    $success, $no_claims, $status, $error, NULL, $passage_ids,
    to_json(MAP($keys::VARCHAR[], $values::VARCHAR[])), now()
)
"""
_INSERT_VERDICT = (
    "INSERT INTO claim_verdicts (config_id, case_id, claim_index, claim, verdict, reason) "
    "VALUES ($config_id, $case_id, $i, $claim, $verdict, NULL)"
)
_INSERT_TRUTH = "INSERT INTO truths VALUES ($config_id, $passage_id, $i, $truth)"


def add_case(
    con: duckdb.DuckDBPyConnection,
    case_id: str,
    *,
    config: str = "lex",
    day: date = DAY1,
    yes: int = 0,
    no: int = 0,
    idk: int = 0,
    status: str = "scored",
    threshold: float = 0.5,
    penalize: bool = False,
    strict: bool = False,
    segments: dict[str, str] | None = None,
    passage_ids: Sequence[int] = (),
    answer: str = "Order A17 shipped.",
    content_hash: str | None = None,
) -> None:
    """One case_scores row as the pipeline writes it: score and success from the counts."""
    scored = status == "scored"
    judged = yes + no + idk
    score = success = None
    if scored:
        score = 1.0 if judged == 0 else (yes + (0 if penalize else idk)) / judged
        if strict and score < 1:
            score = 0.0
        success = score >= (1.0 if strict else threshold)
    segments = segments or {}
    con.execute(
        _INSERT_CASE,
        {
            "config_id": config,
            "case_id": case_id,
            "content_hash": content_hash or f"hash-{case_id}",
            "logged_at": f"{day} 12:00:00",
            "answer": answer,
            "n_claims": judged if scored else None,
            "n_yes": yes if scored else None,
            "n_no": no if scored else None,
            "n_idk": idk if scored else None,
            "n_dropped": 0 if scored else None,
            "score": score,
            "threshold": 1.0 if strict else threshold,
            "penalize": penalize,
            "strict": strict,
            "success": success,
            "no_claims": scored and judged == 0,
            "status": status,
            "error": None if scored else "JudgeReplyError: unusable reply",
            "passage_ids": list(passage_ids),
            "keys": list(segments),
            "values": list(segments.values()),
        },
    )


def add_verdicts(
    con: duckdb.DuckDBPyConnection,
    case_id: str,
    verdicts: Sequence[tuple[str, str]],
    config: str = "lex",
) -> None:
    for i, (claim, verdict) in enumerate(verdicts):
        con.execute(
            _INSERT_VERDICT,
            {"config_id": config, "case_id": case_id, "i": i, "claim": claim, "verdict": verdict},
        )


def add_truths(
    con: duckdb.DuckDBPyConnection, passage_id: int, truths: Sequence[str], config: str = "lex"
) -> None:
    for i, truth in enumerate(truths):
        con.execute(
            _INSERT_TRUTH, {"config_id": config, "passage_id": passage_id, "i": i, "truth": truth}
        )


def populate(con: duckdb.DuckDBPyConnection) -> None:
    """The sample every test reads (see the module's tests for the hand-worked numbers).

    lex, 2 March: c1 1.0 pass, c2 0.5 pass, c3 1/3 fail (contradicted), c4 1 yes + 1 idk,
    c5 no claims, c6 invalid, c7 pending. Weeks: +20 passes on 3 March, 4 of 20 on 10 March,
    5 of 20 on 17 March. strict: s1, s2. llm: c1-c5 again (c5 with changed content), c8.
    """
    v10, v11 = {"app_version": "1.0"}, {"app_version": "1.1"}
    add_case(con, "c1", yes=2, segments=v10, passage_ids=[1])
    add_case(con, "c2", yes=1, no=1, segments=v10, passage_ids=[1])
    add_case(con, "c3", no=2, idk=1, segments=v11, passage_ids=[1, 2])
    add_case(con, "c4", yes=1, idk=1, segments=v11, passage_ids=[2])
    add_case(con, "c5", segments=v11, answer="")
    add_case(con, "c6", status="invalid", segments=v11)
    add_case(con, "c7", status="pending", segments=v10)
    add_verdicts(con, "c1", [("Order A17 shipped.", "yes"), ("It shipped on 3 March.", "yes")])
    add_verdicts(con, "c2", [("Order A17 shipped.", "yes"), ("Order A17 was cancelled.", "no")])
    add_verdicts(
        con,
        "c3",
        [
            ("Order A17 was cancelled.", "no"),
            ("Refunds take a year.", "no"),
            ("We are sorry.", "idk"),
        ],
    )
    add_verdicts(con, "c4", [("Refunds are paid.", "yes"), ("It arrives tomorrow.", "idk")])
    add_truths(con, 1, ["Order A17 shipped on 3 March by courier."])
    add_truths(con, 2, ["Refunds are paid within 5 working days.", "Returns are free."])
    model = {"model": "m1"}
    for i in range(20):
        add_case(con, f"w1-{i:02}", day=date(2026, 3, 3), yes=1, segments=model)
        add_case(
            con, f"w2-{i:02}", day=date(2026, 3, 10), yes=int(i < 4), no=int(i >= 4), segments=model
        )
        add_case(
            con, f"w3-{i:02}", day=date(2026, 3, 17), yes=int(i < 5), no=int(i >= 5), segments=model
        )
    add_case(con, "s1", config="strict", strict=True, yes=3, idk=1)
    add_case(con, "s2", config="strict", strict=True, yes=1, no=1)
    add_case(con, "c1", config="llm", yes=1, no=1)
    add_case(con, "c2", config="llm", no=1)
    add_case(con, "c3", config="llm", no=1)
    add_case(con, "c4", config="llm", yes=2)
    add_case(con, "c5", config="llm", no=1, content_hash="hash-c5-changed")
    add_case(con, "c8", config="llm", yes=1)


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    connection = open_store(tmp_path_factory.mktemp("analysis") / "faith.duckdb")
    populate(connection)
    yield connection
    connection.close()


def rows(
    con: duckdb.DuckDBPyConnection, query: str, params: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    result = con.execute(query, params or {})
    names = [column[0] for column in result.description]
    return [dict(zip(names, row, strict=True)) for row in result.fetchall()]


def wilson(passed: int, n: int) -> tuple[float, float]:
    """The Wilson score interval, written out as in the textbook."""
    p = passed / n
    denominator = 1 + Z**2 / n
    centre = (p + Z**2 / (2 * n)) / denominator
    half = Z * math.sqrt(p * (1 - p) / n + Z**2 / (4 * n**2)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def day_row(
    con: duckdb.DuckDBPyConnection, config: str, query: str, **params: Any
) -> dict[str, Any]:
    found = [
        r for r in rows(con, query, params) if r["config_id"] == config and r["period"] == DAY1
    ]
    assert len(found) == 1
    return found[0]


def test_wilson_formula_matches_textbook_values() -> None:
    low, high = wilson(4, 5)
    assert (round(low, 4), round(high, 4)) == (0.3755, 0.9638)
    assert wilson(0, 10)[0] == 0.0
    assert round(wilson(0, 10)[1], 4) == 0.2775


def test_pass_rates_per_day_as_configured(con: duckdb.DuckDBPyConnection) -> None:
    row = day_row(con, "lex", "FROM pass_rates()")
    low, high = wilson(4, 5)
    assert row == {
        "period": DAY1,
        "config_id": "lex",
        "cases": 7,
        "scored": 5,  # invalid and pending are counted, never in the denominator
        "invalid": 1,
        "pending": 1,
        "no_claims": 1,
        "passed": 4,
        "failed": 1,
        "contradicted": 1,
        "unsupported": 0,
        "pass_rate": 0.8,
        "pass_rate_low": pytest.approx(low, rel=1e-12),
        "pass_rate_high": pytest.approx(high, rel=1e-12),
        "mean_score": pytest.approx((1 + 0.5 + 1 / 3 + 1 + 1) / 5, rel=1e-12),
        # issue 15: never hidden next to the pass rate; invalid of judged, pending of all
        "invalid_share": pytest.approx(1 / 6, rel=1e-12),
        "pending_share": pytest.approx(1 / 7, rel=1e-12),
    }


def test_days_without_scored_cases_have_no_rate(con: duckdb.DuckDBPyConnection) -> None:
    add_case(con, "lonely", config="lonely", status="invalid")
    try:
        [row] = rows(con, "FROM pass_rates() WHERE config_id = 'lonely'")
    finally:
        con.execute("DELETE FROM case_scores WHERE config_id = 'lonely'")
    assert (row["cases"], row["scored"], row["invalid"]) == (1, 0, 1)
    assert (row["pass_rate"], row["pass_rate_low"], row["pass_rate_high"]) == (None, None, None)


def test_threshold_recomputes_success_from_counts(con: duckdb.DuckDBPyConnection) -> None:
    row = day_row(con, "lex", "FROM pass_rates(threshold := $t)", t=0.6)
    # c2 (0.5) now fails; c4 (1.0 without penalty) and c5 (no claims) still pass.
    assert (row["passed"], row["failed"], row["contradicted"], row["pass_rate"]) == (3, 2, 2, 0.6)
    assert row["mean_score"] == pytest.approx((1 + 0.5 + 1 / 3 + 1 + 1) / 5, rel=1e-12)
    low, high = wilson(3, 5)
    assert (row["pass_rate_low"], row["pass_rate_high"]) == (
        pytest.approx(low, rel=1e-12),
        pytest.approx(high, rel=1e-12),
    )


def test_penalty_recomputes_scores_from_counts(con: duckdb.DuckDBPyConnection) -> None:
    row = day_row(con, "lex", "FROM pass_rates(penalize_ambiguous := true)")
    # scores 1, 0.5, 0, 0.5, 1 at the stored threshold 0.5
    assert (row["passed"], row["failed"]) == (4, 1)
    assert row["mean_score"] == pytest.approx(0.6, rel=1e-12)
    row = day_row(con, "lex", "FROM pass_rates(threshold := 0.6, penalize_ambiguous := true)")
    assert (row["passed"], row["contradicted"], row["unsupported"], row["pass_rate"]) == (
        2,
        2,
        1,
        0.4,
    )
    row = day_row(con, "lex", "FROM pass_rates(penalize_ambiguous := false)")
    assert (row["passed"], row["mean_score"]) == (4, pytest.approx((1 + 0.5 + 1 / 3 + 1 + 1) / 5))


def test_strict_mode_rows_keep_their_rules(con: duckdb.DuckDBPyConnection) -> None:
    assert day_row(con, "strict", "FROM pass_rates()")["passed"] == 1
    # threshold := 0.3 does not loosen strict mode: s2 (0 after strict) still fails
    assert day_row(con, "strict", "FROM pass_rates(threshold := 0.3)")["passed"] == 1
    # with the penalty s1 scores 0.75, below 1, so strict mode makes it 0
    row = day_row(con, "strict", "FROM pass_rates(penalize_ambiguous := true)")
    assert (row["passed"], row["mean_score"], row["unsupported"], row["contradicted"]) == (
        0,
        0.0,
        1,
        1,
    )


def test_faith_score_macro_is_the_python_score(con: duckdb.DuckDBPyConnection) -> None:
    grid = pl.DataFrame(
        [(y, n, i, p) for y in range(3) for n in range(3) for i in range(3) for p in (False, True)],
        schema=["n_yes", "n_no", "n_idk", "penalize"],
        orient="row",
    )
    con.register("grid", grid)
    got = [
        r[0]
        for r in con.execute(
            "SELECT faith_score(n_yes, n_no, n_idk, penalize) FROM grid"
        ).fetchall()
    ]
    con.unregister("grid")
    counts = (pl.col("n_yes"), pl.col("n_no"), pl.col("n_idk"))
    expected = grid.select(
        pl.when(pl.col("penalize"))
        .then(score_expr(*counts, penalize_ambiguous_claims=True))
        .otherwise(score_expr(*counts, penalize_ambiguous_claims=False))
    )[:, 0].to_list()
    assert got == expected


def test_out_of_range_threshold_is_refused(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(duckdb.InvalidInputException, match="threshold must be between 0 and 1"):
        con.execute("FROM pass_rates(threshold := 1.5)").fetchall()


@pytest.mark.parametrize(
    "query",
    [
        "FROM pass_rates(threshold := 70, since := DATE '2030-01-01')",
        "FROM worst_cases(threshold := -1, until := DATE '2000-01-01')",
    ],
)
def test_out_of_range_threshold_is_refused_over_an_empty_window(
    con: duckdb.DuckDBPyConnection, query: str
) -> None:
    """A pass mark out of [0, 1] (70 for 70 %) was refused only when a case was in the window:
    over none, it answered with no rows, as a valid question would."""
    with pytest.raises(duckdb.InvalidInputException, match="threshold must be between 0 and 1"):
        con.execute(query).fetchall()


def test_segment_slicing(con: duckdb.DuckDBPyConnection) -> None:
    found = rows(
        con,
        "FROM pass_rates_by_segment($segment, until := $until) WHERE config_id = 'lex'",
        {"segment": "app_version", "until": DAY1},
    )
    picked = [
        {
            k: r[k]
            for k in (
                "segment_value",
                "cases",
                "scored",
                "invalid",
                "pending",
                "no_claims",
                "passed",
            )
        }
        for r in found
    ]
    assert picked == [
        {
            "segment_value": "1.0",
            "cases": 3,
            "scored": 2,
            "invalid": 0,
            "pending": 1,
            "no_claims": 0,
            "passed": 2,
        },
        {
            "segment_value": "1.1",
            "cases": 4,
            "scored": 3,
            "invalid": 1,
            "pending": 0,
            "no_claims": 1,
            "passed": 2,
        },
    ]
    assert found[1]["pass_rate"] == 2 / 3
    assert found[1]["pass_rate_low"] == pytest.approx(wilson(2, 3)[0], rel=1e-12)


def test_segment_over_the_whole_window_and_missing_values(con: duckdb.DuckDBPyConnection) -> None:
    found = rows(con, "FROM pass_rates_by_segment('model', grain := NULL) WHERE config_id = 'lex'")
    assert [(r["period"], r["segment_value"], r["cases"], r["passed"]) for r in found] == [
        (None, None, 7, 4),  # the 2 March cases carry no model
        (None, "m1", 60, 29),
    ]


def test_since_and_until_are_inclusive_days(con: duckdb.DuckDBPyConnection) -> None:
    found = rows(
        con,
        "SELECT period, cases FROM pass_rates(since := $since, until := $until) "
        "WHERE config_id = 'lex'",
        {"since": date(2026, 3, 3), "until": "2026-03-10"},
    )
    assert found == [
        {"period": date(2026, 3, 3), "cases": 20},
        {"period": date(2026, 3, 10), "cases": 20},
    ]


def test_month_grain(con: duckdb.DuckDBPyConnection) -> None:
    [row] = rows(con, "FROM pass_rates(grain := 'month') WHERE config_id = 'lex'")
    assert (row["period"], row["cases"], row["scored"], row["passed"]) == (
        date(2026, 3, 1),
        67,
        65,
        33,
    )


def test_week_over_week_change_flags_disjoint_intervals(con: duckdb.DuckDBPyConnection) -> None:
    found = rows(con, "FROM pass_rate_changes(grain := 'week') WHERE config_id = 'lex'")
    weeks = [date(2026, 3, 2), date(2026, 3, 9), date(2026, 3, 16)]
    assert [r["period"] for r in found] == weeks
    assert [r["previous_period"] for r in found] == [None, *weeks[:2]]
    assert [(r["scored"], r["pass_rate"]) for r in found] == [(25, 0.96), (20, 0.2), (20, 0.25)]
    # 24/25 = [0.805, 0.989] vs 4/20 = [0.081, 0.416]: disjoint; 4/20 vs 5/20 overlap
    assert wilson(24, 25)[0] > wilson(4, 20)[1]
    assert [r["intervals_disjoint"] for r in found] == [None, True, False]
    assert found[1]["change"] == pytest.approx(0.2 - 0.96, rel=1e-12)
    assert found[1]["previous_pass_rate_low"] == pytest.approx(wilson(24, 25)[0], rel=1e-12)


def test_changes_by_segment(con: duckdb.DuckDBPyConnection) -> None:
    found = rows(
        con, "FROM pass_rate_changes(grain := 'week', segment := 'model') WHERE config_id = 'lex'"
    )
    assert [(r["segment_value"], r["scored"], r["intervals_disjoint"]) for r in found] == [
        (None, 5, None),
        ("m1", 20, None),
        ("m1", 20, True),
        ("m1", 20, False),
    ]


def test_failure_attribution_as_configured(con: duckdb.DuckDBPyConnection) -> None:
    found = rows(
        con,
        "SELECT case_id, cause, success FROM failure_attribution(until := '2026-03-02') "
        "WHERE config_id = 'lex'",
    )
    # c7 is pending: the next run scores it, so it is no failure yet
    assert found == [
        {"case_id": "c3", "cause": "contradicted", "success": False},
        {"case_id": "c5", "cause": "no_claims", "success": True},
        {"case_id": "c6", "cause": "invalid", "success": None},
    ]


def test_failure_attribution_under_penalty(con: duckdb.DuckDBPyConnection) -> None:
    found = rows(
        con,
        "SELECT case_id, cause, score FROM failure_attribution("
        "threshold := 0.6, penalize_ambiguous := true, until := '2026-03-02') "
        "WHERE config_id = 'lex'",
    )
    assert found == [
        {"case_id": "c2", "cause": "contradicted", "score": 0.5},
        {"case_id": "c3", "cause": "contradicted", "score": 0.0},
        {"case_id": "c4", "cause": "unsupported", "score": 0.5},
        {"case_id": "c5", "cause": "no_claims", "score": 1.0},
        {"case_id": "c6", "cause": "invalid", "score": None},
    ]


def test_worst_cases(con: duckdb.DuckDBPyConnection) -> None:
    found = rows(
        con,
        "SELECT rank, case_id, score FROM worst_cases(n := 2, until := '2026-03-02') "
        "WHERE config_id = 'lex'",
    )
    assert found == [
        {"rank": 1, "case_id": "c3", "score": 1 / 3},
        {"rank": 2, "case_id": "c2", "score": 0.5},
    ]
    # ties on score 0: more `no` verdicts first, then the newest
    [first] = rows(con, "SELECT case_id FROM worst_cases(n := 1) WHERE config_id = 'lex'")
    assert first["case_id"] == "w3-05"


def test_worst_cases_rank_a_score_by_its_weakest_claim(tmp_path: Path) -> None:
    """One-claim answers score 0 or 1: within a score, the answer whose weakest claim judged
    yes or no the context supports least comes first; a judge without supports (NULL) after."""
    con = open_store(tmp_path / "f.duckdb")
    claims = {  # case: (day, the supports of its yes / no / idk claims)
        "near-miss": (DAY1, [("no", 0.52)]),
        "invented": (DAY1 - timedelta(days=1), [("no", 0.08)]),
        "llm": (DAY1, [("no", None)]),
        "half": (DAY1, [("yes", 0.9), ("no", 0.2)]),
        "aside": (DAY1, [("yes", 0.95), ("idk", 0.0)]),
        "copied": (DAY1, [("yes", 0.7)]),
    }
    for case_id, (day, verdicts) in claims.items():
        counts = {v: sum(1 for k, _ in verdicts if k == v) for v in ("yes", "no", "idk")}
        add_case(con, case_id, day=day, **counts)
        for i, (verdict, support) in enumerate(verdicts):
            con.execute(
                "INSERT INTO claim_verdicts (config_id, case_id, claim_index, claim, verdict, "
                "support) VALUES ('lex', $c, $i, 'a claim', $v, $s)",
                {"c": case_id, "i": i, "v": verdict, "s": support},
            )
    found = rows(con, "SELECT case_id, score, weakest_support FROM worst_cases() ORDER BY rank")
    assert found == [
        {"case_id": "invented", "score": 0.0, "weakest_support": 0.08},  # older, yet first
        {"case_id": "near-miss", "score": 0.0, "weakest_support": 0.52},
        {"case_id": "llm", "score": 0.0, "weakest_support": None},
        {"case_id": "half", "score": 0.5, "weakest_support": 0.2},
        {"case_id": "copied", "score": 1.0, "weakest_support": 0.7},
        {"case_id": "aside", "score": 1.0, "weakest_support": 0.95},  # its idk claim not counted
    ]
    con.close()


def test_contradicted_claims_with_their_passages(con: duckdb.DuckDBPyConnection) -> None:
    found = rows(
        con, "SELECT * EXCLUDE (last_logged_at) FROM contradicted_claims() WHERE config_id = 'lex'"
    )
    passage_1 = "Order A17 shipped on 3 March by courier."
    passage_2 = "Refunds are paid within 5 working days. Returns are free."
    assert found == [
        {
            "rank": 1,
            "config_id": "lex",
            "claim": "Order A17 was cancelled.",
            "times": 2,
            "cases": 2,
            "example_case_id": "c2",
            "passages": [passage_1, passage_2],
        },
        {
            "rank": 2,
            "config_id": "lex",
            "claim": "Refunds take a year.",
            "times": 1,
            "cases": 1,
            "example_case_id": "c3",
            "passages": [passage_1, passage_2],
        },
    ]


def test_contradicted_claims_keep_the_most_read_passages(con: duckdb.DuckDBPyConnection) -> None:
    found = rows(
        con,
        "SELECT claim, passages FROM contradicted_claims(n := 1, passages := 1) "
        "WHERE config_id = 'lex'",
    )
    # c2 and c3 both read passage 1; only c3 read passage 2
    assert found == [
        {
            "claim": "Order A17 was cancelled.",
            "passages": ["Order A17 shipped on 3 March by courier."],
        }
    ]


def test_contradicted_passages(con: duckdb.DuckDBPyConnection) -> None:
    found = rows(
        con,
        "SELECT rank, passage_id, cases, contradicted_cases, contradiction_rate, "
        "contradicted_claims FROM contradicted_passages() WHERE config_id = 'lex'",
    )
    assert found == [
        {
            "rank": 1,
            "passage_id": 1,
            "cases": 3,
            "contradicted_cases": 2,
            "contradiction_rate": 2 / 3,
            "contradicted_claims": 3,
        },
        {
            "rank": 2,
            "passage_id": 2,
            "cases": 2,
            "contradicted_cases": 1,
            "contradiction_rate": 0.5,
            "contradicted_claims": 2,
        },
    ]


def test_config_agreement(con: duckdb.DuckDBPyConnection) -> None:
    [row] = rows(con, "FROM config_agreement($a, $b)", {"a": "lex", "b": "llm"})
    # c1-c4 in both (c5's content changed, c8 is llm only); c2 is the one disagreement.
    # p_a = 3/4, p_b = 2/4: expected agreement 3/4*2/4 + 1/4*2/4 = 1/2, kappa (3/4-1/2)/(1/2)
    assert row == {
        "config_a": "lex",
        "config_b": "llm",
        "cases": 4,
        "agreed": 3,
        "agreement_rate": 0.75,
        "both_passed": 2,
        "both_failed": 1,
        "only_a_passed": 1,
        "only_b_passed": 0,
        "kappa": 0.5,
        "mean_abs_score_diff": pytest.approx((0.5 + 0.5 + 1 / 3 + 0) / 4, rel=1e-12),
    }
    pairs = rows(con, "SELECT case_id, score_a, score_b FROM config_pairs('lex', 'llm')")
    assert [p["case_id"] for p in pairs] == ["c1", "c2", "c3", "c4"]


def test_score_histogram(con: duckdb.DuckDBPyConnection) -> None:
    found = rows(
        con,
        "SELECT bin, bin_low, cases FROM score_histogram(bins := 10, until := '2026-03-02') "
        "WHERE config_id = 'lex'",
    )
    assert [r["cases"] for r in found] == [0, 0, 0, 1, 0, 1, 0, 0, 0, 3]  # 1/3, 0.5, three 1.0
    assert [r["bin_low"] for r in found][:3] == [0.0, 0.1, 0.2]


def test_catalog_views(con: duckdb.DuckDBPyConnection) -> None:
    configs = con.execute(
        "SELECT config_id, threshold, strict_mode, cases, scored, invalid, pending, runs, judge "
        "FROM metric_configs"
    ).fetchall()
    assert configs == [
        ("lex", 0.5, False, 67, 65, 1, 1, 0, None),
        ("llm", 0.5, False, 6, 6, 0, 0, 0, None),
        ("strict", 1.0, True, 2, 2, 0, 0, 0, None),
    ]
    segments = rows(con, "FROM segment_columns")
    assert segments == [
        {"config_id": "lex", "segment": "app_version", "cases": 7},
        {"config_id": "lex", "segment": "model", "cases": 60},
    ]


def sql_blocks(markdown: str) -> list[str]:
    """The body of every ```sql fence, in order."""
    return [block.strip() for block in re.findall(r"^```sql\n(.*?)^```", markdown, re.M | re.S)]


def test_docs_examples_run(
    con: duckdb.DuckDBPyConnection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = [block for page in DOCS for block in sql_blocks(page.read_text())]
    assert len(blocks) >= 16  # README 1, output-tables.md 3, sql.md 11, nightly.md 1
    # the raw-log examples read logs/*.parquet relative to the working directory
    (tmp_path / "logs").mkdir()
    pl.DataFrame(
        {
            "case_id": ["a", "b"],
            "actual_output": ["Order A17 shipped on 3 March.", "Order A17 was cancelled."],
            "retrieval_context": [["Order A17 shipped on 3 March by courier."]] * 2,
            "app_version": ["1.0", "1.1"],
        }
    ).write_parquet(tmp_path / "logs" / "cases.parquet")
    monkeypatch.chdir(tmp_path)
    # The nightly examples read a judge check: one below-perfect check of config "lex".
    con.execute(
        "INSERT INTO judge_checks VALUES ('r-check', 'lex', 'data/golden.parquet', 'h', "
        "TIMESTAMP '2026-10-02 02:00', 27, 0, 0, 35, 34, 34 / 35, 0.9, true, 0.4, 0, 0, 0)"
    )
    con.execute(
        "INSERT INTO judge_check_verdicts VALUES ('r-check', 'golden-date', 0, "
        "'Order B42 arrived on 12 April.', 'yes', 'no', false)"
    )
    register_metric_functions(con)
    for block in blocks:
        try:
            result = con.execute(block).fetchall()
        except duckdb.Error as exc:
            pytest.fail(f"docs example failed: {exc}\n{block}")
        assert result, f"docs example returned no rows:\n{block}"


def test_the_docs_reasons_example_tells_pending_from_invalid(
    con: duckdb.DuckDBPyConnection,
) -> None:
    """output-tables.md's 'why cases could not be judged or were set aside' example once
    labelled every case not scored `invalid`: a pending case (a judge cap, tried again next
    run) was counted as one that could not be judged."""
    page = (ROOT / "docs" / "output-tables.md").read_text()
    (block,) = [b for b in sql_blocks(page) if "could not be judged" in b]
    kinds: dict[str, int] = {}
    for row in rows(con, block):  # one row a kind and reason
        kinds[row["kind"]] = kinds.get(row["kind"], 0) + row["cases"]
    assert kinds.get("invalid") == 1  # c6
    assert kinds.get("pending") == 1  # c7


def test_a_dry_run_adds_no_metric_config_and_a_config_without_cases_keeps_its_threshold(
    tmp_path: Path,
) -> None:
    """A config only dry-run scored nothing (the report listed it with no threshold, 'None');
    one whose run quarantined every row still says its settings."""
    from flows.run.pipeline import run_score
    from flows.run.settings import ScoreSettings
    from tests.support.builders import many_cases, write

    good = write(many_cases(3), tmp_path / "good.parquet")
    blank = write(many_cases(3).with_columns(actual_output=pl.lit(" ")), tmp_path / "bad.parquet")
    db = str(tmp_path / "f.duckdb")
    run_score(ScoreSettings(source=str(good), db=db))
    run_score(ScoreSettings(source=str(good), db=db, threshold=0.9, dry_run=True))
    run_score(ScoreSettings(source=str(blank), db=db, threshold=0.7, max_quarantine_share=None))
    con = duckdb.connect(db, read_only=True)
    try:
        found = con.execute(
            "SELECT threshold, strict_mode, cases, runs FROM metric_configs ORDER BY threshold"
        ).fetchall()
    finally:
        con.close()
    assert found == [(0.5, False, 3, 1), (0.7, False, 0, 1)]


# Arguments a macro cannot go without, to DESCRIBE it.
_REQUIRED_ARGUMENTS = {
    "pass_rates_by_segment": "segment := 'model'",
    "config_agreement": "config_a := 'lex', config_b := 'llm'",
    "config_pairs": "config_a := 'lex', config_b := 'llm'",
}


def documented_column_types() -> dict[str, dict[str, str]]:
    """Each table macro of docs/sql.md's reference: its documented column -> type."""
    text = (ROOT / "docs" / "sql.md").read_text()
    found: dict[str, dict[str, str]] = {}
    for name, body in re.findall(r"^### `(\w+)\(.*?`\n(.*?)(?=^##)", text, re.M | re.S):
        columns = found.setdefault(name, {})
        for cell, kind in re.findall(
            r"^\| ((?:`\w+`(?:, )?)+) \| ([A-Z][A-Z\[\]]*) \|", body, re.M
        ):
            for column in re.findall(r"`(\w+)`", cell):
                columns[column] = kind
    return {name: columns for name, columns in found.items() if columns}


def test_the_documented_column_types_are_the_macros(con: duckdb.DuckDBPyConnection) -> None:
    """docs/sql.md calls its names and types a public interface: contradicted_passages'
    contradicted_claims was documented BIGINT and came out HUGEINT (a sum)."""
    documented = documented_column_types()
    assert len(documented) >= 6
    for name, columns in documented.items():
        arguments = _REQUIRED_ARGUMENTS.get(name, "")
        described = con.execute(f"DESCRIBE SELECT * FROM {name}({arguments})").fetchall()
        actual = {row[0]: row[1] for row in described}
        wrong = {c: (kind, actual.get(c)) for c, kind in columns.items() if actual.get(c) != kind}
        assert not wrong, f"{name}: documented type, actual type: {wrong}"


def test_a_nan_score_is_no_score_in_means_histograms_and_ranks(tmp_path: Path) -> None:
    """The pipeline never stores NaN, but a custom judge (the library API) or an outside INSERT
    can: one NaN made the day's mean_score, a conversation's mean and minimum, and compare's
    mean NaN. The views read it as NULL (no score), so the means are those of the other cases."""
    con = open_store(tmp_path / "f.duckdb")
    for i, yes in enumerate((1, 1, 0)):
        add_case(con, f"c{i}", yes=yes, no=1 - yes, segments={"conversation_id": "v1"})
    con.execute("UPDATE case_scores SET score = 'nan'::DOUBLE WHERE case_id = 'c0'")
    mean = con.execute("SELECT mean_score FROM pass_rates() WHERE period = $d", {"d": DAY1})
    assert mean.fetchall() == [(0.5,)]  # c1's 1.0 and c2's 0.0; c0 has none
    conversation = "SELECT mean_score, min_score, turns_scored FROM conversation_scores"
    assert con.execute(conversation).fetchall() == [(0.5, 0.0, 3)]
    assert con.execute("SELECT sum(cases) FROM score_histogram()").fetchall() == [(2,)]
    worst = "SELECT case_id, score FROM worst_cases() ORDER BY rank"
    assert con.execute(worst).fetchall() == [("c2", 0.0), ("c1", 1.0), ("c0", None)]
    compared = "SELECT n_a, mean_a FROM compare_scores(a_config := 'lex', b_config := 'lex')"
    assert con.execute(compared).fetchall() == [(2, 0.5)]
    con.close()


def test_agreement_changes_from_the_last_check_whose_agreement_is_known(
    con: duckdb.DuckDBPyConnection,
) -> None:
    """A night whose judge check was incomplete (agreement NULL: its endpoint stopped
    answering) left the next night's `change` NULL too; it is the change since the last known
    agreement, so a drift the night after an outage still shows."""
    for run_id, day, pending, agreement in (
        ("n1", 1, 0, "0.9"),
        ("n2", 2, 29, "NULL"),
        ("n3", 3, 0, "0.8"),
    ):
        con.execute(
            f"INSERT INTO judge_checks VALUES ('{run_id}', 'drift', 'g.parquet', 'h-drift', "
            f"TIMESTAMP '2026-10-0{day} 02:00', 29, 0, {pending}, 36, 30, {agreement}, 0.9, "
            "NULL, 0.4, 0, 0, 0)"
        )
    found = rows(
        con,
        "SELECT run_id, round(change, 3) AS change FROM judge_agreement "
        "WHERE config_id = 'drift'",  # the module's database holds other checks
    )
    assert [(row["run_id"], row["change"]) for row in found] == [
        ("n1", None),
        ("n2", None),
        ("n3", -0.1),
    ]


def test_a_blank_conversation_id_segment_names_no_conversation(tmp_path: Path) -> None:
    """A cases table's `conversation_id` left blank on its one-off questions (a JSON export's
    ""): every such case was one conversation named "", unrelated answers ranked together as
    the worst conversation of `faith report`. Blank is no conversation, as null is."""
    con = open_store(tmp_path / "f.duckdb")
    for case_id, conversation in (("c0", ""), ("c1", " "), ("c2", "v1"), ("c3", "v1")):
        add_case(con, case_id, yes=1, no=1, segments={"conversation_id": conversation})
    conversations = "SELECT conversation_id, turns FROM conversation_scores"
    assert con.execute(conversations).fetchall() == [("v1", 2)]
    assert con.execute("SELECT count(*) FROM conversation_results()").fetchall() == [(1,)]
