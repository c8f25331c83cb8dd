"""`faith compare` on a planted database: its p-values and intervals recomputed here from the
counts (math.comb, the Wilson formula), the bootstrap reproduced by its seed, the SQL macros."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from datetime import date
from pathlib import Path

import duckdb
import pytest

from faith_udfs.compare_stats import format_p, verdict_line
from flows.cli import main
from flows.report.compare import Sides, compare
from flows.store.db import connect, open_store
from tests.flows.store.test_analysis_sql import add_case, add_verdicts

# Paired 2x2 of configs old (A) and new (B) over the same 300 cases.
BOTH, A_ONLY, B_ONLY, NEITHER = 250, 20, 6, 24
Z = 1.959963984540054
Compare = Callable[..., dict]  # the faith_compare fixture


def planted(path: Path) -> Path:
    con = open_store(path)
    cells = [(True, True)] * BOTH + [(True, False)] * A_ONLY
    cells += [(False, True)] * B_ONLY + [(False, False)] * NEITHER
    for i, (old, new) in enumerate(cells):
        version = {"app_version": "2.4.0" if i % 2 == 0 else "2.4.1"}
        day = date(2026, 10, 1 + i % 4)
        add_case(
            con, f"c{i}", config="old", yes=int(old), no=int(not old), segments=version, day=day
        )
        add_case(
            con, f"c{i}", config="new", yes=int(new), no=int(not new), segments=version, day=day
        )
        if old and not new:  # the claim the new judge turned against
            add_verdicts(con, f"c{i}", [("Refunds take 5 days.", "yes")], config="old")
            add_verdicts(con, f"c{i}", [("Refunds take 5 days.", "no")], config="new")
    con.close()
    return path


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return planted(tmp_path_factory.mktemp("compare") / "faith.duckdb")


@pytest.fixture
def faith_compare(capsys, monkeypatch) -> Compare:
    """`faith compare --db DB --json ARGS` in this process (the subject is its numbers, not
    the process): its JSON, once it exits 0."""
    monkeypatch.setenv("COLUMNS", "80")

    def run(db: Path, *args: str) -> dict:
        code = main(["compare", "--db", str(db), "--json", *args])
        out, err = capsys.readouterr()
        assert code == 0, err
        return json.loads(out)

    return run


def exact_mcnemar(b: int, c: int) -> float:
    m = b + c
    tail = sum(math.comb(m, k) for k in range(min(b, c) + 1)) / 2**m
    return min(1.0, 2 * tail)


def wilson(passed: int, n: int) -> tuple[float, float]:
    p = passed / n
    centre = p + Z * Z / (2 * n)
    spread = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return (centre - spread) / (1 + Z * Z / n), (centre + spread) / (1 + Z * Z / n)


def test_two_configs_are_paired_with_an_exact_mcnemar_test(
    db: Path, faith_compare: Compare
) -> None:
    result = faith_compare(db, "--a-config", "old", "--b-config", "new", "--reps", "300")
    rates = result["pass_rates"]
    assert result["paired"] is True
    assert (rates["both_pass"], rates["a_only"], rates["b_only"], rates["neither"]) == (
        BOTH,
        A_ONLY,
        B_ONLY,
        NEITHER,
    )
    assert rates["pairs"] == BOTH + A_ONLY + B_ONLY + NEITHER == 300
    assert rates["p_value"] == pytest.approx(exact_mcnemar(A_ONLY, B_ONLY), rel=1e-9)
    # 2 * P(X <= 6) for X ~ Binomial(26, 1/2)
    assert rates["p_value"] == pytest.approx(0.009355, abs=1e-6)
    # Agresti-Min: Wald on the 2x2 table with 1/2 added to each cell
    n = 300 + 2
    d = (B_ONLY - A_ONLY) / n
    se = math.sqrt((A_ONLY + B_ONLY + 1) - (B_ONLY - A_ONLY) ** 2 / n) / n
    assert rates["diff"] == pytest.approx((B_ONLY - A_ONLY) / 300)
    assert (rates["ci_low"], rates["ci_high"]) == pytest.approx((d - Z * se, d + Z * se))
    assert result["verdict"].startswith("new passes 4.7 points less, 95% CI [−8.0, −1.3]")
    assert result["verdict"].endswith("p = 0.009, 300 paired cases")
    assert result["claims"][0]["claim"] == "Refunds take 5 days."
    assert result["claims"][0]["change"] == pytest.approx(A_ONLY * 100 / 300)


def test_the_bootstrap_reproduces_with_its_seed(db: Path) -> None:
    sides = Sides(a_config="old", b_config="new")
    con = connect(db, read_only=True)
    try:
        first, again = compare(con, sides, reps=300), compare(con, sides, reps=300)
        other = compare(con, sides, reps=300, seed=7)
    finally:
        con.close()
    scores = first["scores"]
    assert scores["bootstrap_low"] == again["scores"]["bootstrap_low"]
    assert scores["bootstrap_high"] == again["scores"]["bootstrap_high"]
    # another seed: another resampling, near the same interval
    assert other["scores"]["bootstrap_seed"] == 7
    assert other["scores"]["bootstrap_low"] == pytest.approx(scores["bootstrap_low"], abs=0.01)
    assert scores["diff"] == pytest.approx((B_ONLY - A_ONLY) / 300)
    assert scores["bootstrap_low"] < scores["diff"] < scores["bootstrap_high"] < 0


def test_two_app_versions_are_unpaired_and_say_so(db: Path, faith_compare: Compare) -> None:
    result = faith_compare(
        db, "--a-config", "new", "--segment", "app_version", "--a", "2.4.0", "--b", "2.4.1"
    )
    rates = result["pass_rates"]
    assert result["paired"] is False
    assert rates["pairs"] == 0
    assert rates["n_a"] + rates["n_b"] == 300  # every scored case of config new, once
    pa, pb = rates["passed_a"] / rates["n_a"], rates["passed_b"] / rates["n_b"]
    la, ua = wilson(rates["passed_a"], rates["n_a"])
    lb, ub = wilson(rates["passed_b"], rates["n_b"])
    assert rates["ci_low"] == pytest.approx(pb - pa - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2))
    assert rates["ci_high"] == pytest.approx(pb - pa + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2))
    pooled = (rates["passed_a"] + rates["passed_b"]) / 300
    z = (pb - pa) / math.sqrt(pooled * (1 - pooled) * (1 / rates["n_a"] + 1 / rates["n_b"]))
    assert rates["p_value"] == pytest.approx(math.erfc(abs(z) / math.sqrt(2)), abs=1e-6)
    assert "unpaired cases" in result["verdict"]
    assert result["b"]["label"] == "2.4.1"


def test_two_windows_of_one_config_hold_their_own_days(db: Path, faith_compare: Compare) -> None:
    result = faith_compare(
        db,
        "--a-config",
        "old",
        "--a-since",
        "2026-10-01",
        "--a-until",
        "2026-10-02",
        "--b-since",
        "2026-10-03",
        "--b-until",
        "2026-10-04",
    )
    assert result["paired"] is False
    assert result["pass_rates"]["n_a"] == result["pass_rates"]["n_b"] == 150


def passes(config: str, i: int) -> bool:
    """Whether planted case c{i} passes under config old or new (the 2x2 cells in order)."""
    if config == "old":
        return i < BOTH + A_ONLY
    return i < BOTH or BOTH + A_ONLY <= i < BOTH + A_ONLY + B_ONLY


def test_two_configs_of_two_app_versions_are_unpaired(db: Path, faith_compare: Compare) -> None:
    # The sides hold different cases (one version each): they were joined on case_id, 0 of 0.
    args = ["--a-config", "old", "--b-config", "new", "--segment", "app_version"]
    result = faith_compare(db, *args, "--a", "2.4.0", "--b", "2.4.1", "--reps", "100")
    rates = result["pass_rates"]
    assert result["paired"] is False
    assert (rates["n_a"], rates["n_b"], rates["pairs"]) == (150, 150, 0)
    assert rates["passed_a"] == sum(passes("old", i) for i in range(0, 300, 2))
    assert rates["passed_b"] == sum(passes("new", i) for i in range(1, 300, 2))
    assert (result["a"]["config_id"], result["b"]["config_id"]) == ("old", "new")
    assert result["verdict"].endswith("300 unpaired cases (different cases on each side)")
    con = connect(db, read_only=True)
    try:
        in_sql = con.sql(
            "SELECT paired, n_a, passed_a, n_b, passed_b FROM compare_pass_rates(a_config := "
            "'old', b_config := 'new', segment := 'app_version', a := '2.4.0', b := '2.4.1')"
        ).fetchall()
    finally:
        con.close()
    assert in_sql == [(False, 150, rates["passed_a"], 150, rates["passed_b"])]


def test_two_configs_of_two_windows_are_unpaired(db: Path, faith_compare: Compare) -> None:
    windows = ["--a-since", "2026-10-01", "--a-until", "2026-10-02"]
    windows += ["--b-since", "2026-10-03", "--b-until", "2026-10-04"]
    result = faith_compare(db, "--a-config", "old", "--b-config", "new", *windows, "--reps", "100")
    rates = result["pass_rates"]
    assert result["paired"] is False
    assert (rates["n_a"], rates["n_b"]) == (150, 150)
    assert rates["passed_a"] == sum(passes("old", i) for i in range(300) if i % 4 < 2)
    assert rates["passed_b"] == sum(passes("new", i) for i in range(300) if i % 4 >= 2)
    assert result["a"]["label"] == "2026-10-01..2026-10-02"


def test_a_side_without_a_window_of_its_own_is_named_in_words() -> None:
    """A window given to side A alone labelled side B '…..…' in the verdict."""
    sides = Sides(a_config="old", b_config="new", a_since=date(2026, 10, 1))
    assert sides.labels("old", "new") == ("from 2026-10-01", "all days")
    halves = Sides(a_until=date(2026, 10, 2), b_since=date(2026, 10, 1), b_until=date(2026, 10, 4))
    assert halves.labels("x", "x") == ("until 2026-10-02", "2026-10-01..2026-10-04")


def test_two_configs_of_one_app_version_stay_paired(db: Path, faith_compare: Compare) -> None:
    args = ["--a-config", "old", "--b-config", "new", "--segment", "app_version"]
    result = faith_compare(db, *args, "--a", "2.4.0", "--b", "2.4.0", "--reps", "100")
    rates = result["pass_rates"]
    assert result["paired"] is True
    assert rates["pairs"] == 150
    # the sides are told apart by their configs ('A A (2.4.0) (config old)' before)
    assert (result["a"]["label"], result["b"]["label"]) == ("old", "new")
    assert result["verdict"].startswith("new passes ")
    assert rates["a_only"] == sum(
        passes("old", i) and not passes("new", i) for i in range(0, 300, 2)
    )


def test_the_macros_answer_in_sql_and_the_result_is_kept(db: Path, capsys) -> None:
    # this test's own comparison kept: it must not lean on another test having stored one
    assert main(["compare", "--db", str(db), "--a-config", "old", "--b-config", "new"]) == 0
    capsys.readouterr()
    con = connect(db, read_only=True)
    try:
        row = con.sql(
            "SELECT paired, a_only, b_only, p_value FROM compare_pass_rates("
            "a_config := 'old', b_config := 'new')"
        ).fetchall()[0]
        scores = con.sql(
            "SELECT pairs, diff, ci_low < diff AND diff < ci_high FROM compare_scores("
            "a_config := 'old', b_config := 'new')"
        ).fetchall()[0]
        kept = con.sql("SELECT count(*), bool_and(paired) FROM comparisons WHERE paired").fetchall()
    finally:
        con.close()
    assert row[:3] == (True, A_ONLY, B_ONLY)
    assert row[3] == pytest.approx(exact_mcnemar(A_ONLY, B_ONLY))
    assert scores[0] == 300
    assert scores[1] == pytest.approx(-14 / 300)
    assert scores[2]
    assert kept[0][0] >= 1


def test_a_value_without_its_segment_is_a_usage_error(db: Path, capsys) -> None:
    code = main(["compare", "--db", str(db), "--a", "2.4.0", "--b", "2.4.1", "--no-store"])
    err = capsys.readouterr().err
    assert code == 2
    assert "--segment" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        ("a := '2.4.0', b := '2.4.1'", "give segment too"),
        ("segment := 'app_version'", "give a and b"),
        ("segment := 'app_version', a := '2.4.0'", "give a and b"),
    ],
)
def test_the_macros_refuse_what_faith_compare_refuses(db: Path, arguments: str, said: str) -> None:
    """A segment without its two values was ignored (every case compared, paired), and two
    values without their segment selected no case on either side: the macros' own check
    never ran. Each macro now says so, as `faith compare` does with exit 2."""
    con = connect(db, read_only=True)
    try:
        for macro in ("compare_cases", "compare_pass_rates", "compare_scores"):
            with pytest.raises(duckdb.InvalidInputException, match=said):
                con.sql(f"SELECT count(*) FROM {macro}({arguments})").fetchall()
        both = "segment := 'app_version', a := '2.4.0', b := '2.4.1'"
        row = con.sql(f"SELECT paired, n_a, n_b FROM compare_pass_rates({both})").fetchall()
    finally:
        con.close()
    assert row == [(False, 150, 150)]


def test_the_verdict_line_reads_as_a_sentence() -> None:
    line = verdict_line(
        "2.4.1", -0.018, interval=(-0.029, -0.007), p_value=0.001, cases=12412, paired=True
    )
    assert line == (
        "2.4.1 passes 1.8 points less, 95% CI [−2.9, −0.7], p = 0.001, 12,412 paired cases"
    )


def test_the_sql_examples_of_the_docs_run(db: Path) -> None:
    page = (Path(__file__).resolve().parents[3] / "docs" / "compare.md").read_text()
    blocks = re.findall(r"```sql\n(.*?)```", page, re.S)
    assert len(blocks) == 2
    con = connect(db, read_only=True)
    try:
        paired = con.sql(blocks[0]).fetchall()
        unpaired = con.sql(blocks[1]).fetchall()
    finally:
        con.close()
    assert paired == [(True, A_ONLY, B_ONLY, -4.7, round(exact_mcnemar(A_ONLY, B_ONLY), 4))]
    assert unpaired[0][:2] == (150, 150)
    assert unpaired[0][3] is True


@pytest.mark.parametrize(
    ("p", "shown"),
    [
        (0.0004, "< 0.001"),
        (0.009, "= 0.009"),
        (0.0456, "= 0.046"),
        (0.051, "= 0.051"),
        (0.43, "= 0.43"),
    ],
)
def test_a_p_value_near_005_is_shown_to_three_decimals(p: float, shown: str) -> None:
    """0.0455 was shown '= 0.05': borderline beside an interval that excludes 0 (QA)."""
    assert format_p(p) == shown


def test_a_nan_score_on_one_side_leaves_its_pair_out(
    tmp_path: Path, faith_compare: Compare
) -> None:
    """A NaN score (a custom judge's, an outside insert's) is no score: its pair is left out
    of the paired mean difference and its bootstrap. Each side's nulls were dropped on their
    own, so the pairs were misaligned and `faith compare` ended on a polars error (exit 1)."""
    path = tmp_path / "faith.duckdb"
    con = open_store(path)
    for i in range(6):
        add_case(con, f"c{i}", config="old", yes=1)
        add_case(con, f"c{i}", config="new", yes=int(i > 1), no=int(i <= 1))
    con.execute("UPDATE case_scores SET score = 'NaN' WHERE config_id = 'old' AND case_id = 'c0'")
    con.close()
    result = faith_compare(path, "--a-config", "old", "--b-config", "new", "--reps", "200")
    scores = result["scores"]
    # the five pairs with both scores: c1 went from 1 to 0, c2..c5 stayed at 1
    assert scores["diff"] == pytest.approx(-1 / 5)
    assert -1.0 <= scores["bootstrap_low"] <= -1 / 5 <= scores["bootstrap_high"] <= 0.0
    assert (scores["n_a"], scores["n_b"]) == (5, 6)


@pytest.mark.parametrize(("a_only", "b_only"), [(1, 0), (5, 0), (0, 3)])
def test_a_paired_interval_on_few_pairs_stays_within_100_points(
    tmp_path: Path, faith_compare: Compare, a_only: int, b_only: int
) -> None:
    """On a few discordant pairs the Agresti-Min formula overshoots: one pair that B fails
    printed '95% CI [−117.7, 51.0]', a drop no pass rate can make. Clipped to [−1, 1]; the
    side that stays inside is the formula's."""
    path = tmp_path / "faith.duckdb"
    con = open_store(path)
    for i in range(a_only + b_only):
        a_passes = i < a_only
        add_case(con, f"c{i}", config="old", yes=int(a_passes), no=int(not a_passes))
        add_case(con, f"c{i}", config="new", yes=int(not a_passes), no=int(a_passes))
    con.close()
    rates = faith_compare(path, "--a-config", "old", "--b-config", "new", "--reps", "50")[
        "pass_rates"
    ]
    n = a_only + b_only + 2
    d = (b_only - a_only) / n
    se = math.sqrt((a_only + b_only + 1) - (b_only - a_only) ** 2 / n) / n
    assert (rates["ci_low"], rates["ci_high"]) == pytest.approx(
        (max(-1.0, d - Z * se), min(1.0, d + Z * se))
    )
    assert -1.0 <= rates["ci_low"] <= rates["diff"] <= rates["ci_high"] <= 1.0


def test_the_normal_interval_of_mean_scores_stays_within_100_points(
    tmp_path: Path, faith_compare: Compare
) -> None:
    """compare_scores' normal interval of two pairs whose scores moved by -1 and 0 was
    [-1.48, 0.48] (in `faith compare --json` too): past what a difference of scores in [0, 1]
    can be. Clipped to [-1, 1]."""
    path = tmp_path / "faith.duckdb"
    con = open_store(path)
    for i in range(2):
        add_case(con, f"c{i}", config="old", yes=1)
        add_case(con, f"c{i}", config="new", yes=i, no=1 - i)
    con.close()
    scores = faith_compare(path, "--a-config", "old", "--b-config", "new", "--reps", "50")["scores"]
    se = math.sqrt(0.5 / 2)  # the sample variance of (-1, 0) is 1/2
    assert scores["diff"] == pytest.approx(-0.5)
    assert (scores["ci_low"], scores["ci_high"]) == pytest.approx((-1.0, -0.5 + Z * se))


def test_one_pair_has_no_normal_interval_of_mean_scores(
    tmp_path: Path, faith_compare: Compare
) -> None:
    """One pair has no variance, so no normal interval: compare_scores' bounds are NULL (null
    in `faith compare --json`), as before they were clipped. DuckDB's greatest and least skip
    a NULL, so the clipped bounds read [-1, 1], an interval no data gave."""
    path = tmp_path / "faith.duckdb"
    con = open_store(path)
    add_case(con, "c0", config="old", yes=1)
    add_case(con, "c0", config="new", no=1)
    con.close()
    scores = faith_compare(path, "--a-config", "old", "--b-config", "new", "--reps", "50")["scores"]
    assert scores["diff"] == pytest.approx(-1.0)
    assert (scores["ci_low"], scores["ci_high"]) == (None, None)


def test_two_configs_without_a_case_in_common_are_paired_sides_with_no_pair(
    tmp_path: Path,
) -> None:
    """Sides that differ by config only are paired, whether or not they share a case: two
    configs scored on disjoint cases (a sample re-scored under a new threshold) read as an
    "unpaired: Newcombe" comparison of 0 against 0. Now: paired, 0 pairs, and no interval or
    p-value (the Agresti-Min step alone gave [-0.98, 0.98] and p = 1 of no data)."""
    path = tmp_path / "faith.duckdb"
    con = open_store(path)
    add_case(con, "a0", config="old", yes=1)
    add_case(con, "b0", config="new", no=1)
    rates = con.sql(
        "SELECT paired, method, n_a, n_b, pairs, diff, ci_low, ci_high, p_value "
        "FROM compare_pass_rates(a_config := 'old', b_config := 'new')"
    ).fetchall()
    scores = con.sql(
        "SELECT paired, n_a, n_b, pairs, diff, ci_low, ci_high "
        "FROM compare_scores(a_config := 'old', b_config := 'new')"
    ).fetchall()
    windows = con.sql(
        "SELECT paired, n_a, n_b FROM compare_pass_rates(a_config := 'old', "
        "a_since := DATE '2030-01-01', b_since := DATE '2030-02-01')"
    ).fetchall()
    con.close()
    method = "paired: exact McNemar, Agresti-Min interval"
    assert rates == [(True, method, 0, 0, 0, None, None, None, None)]
    assert scores == [(True, 0, 0, 0, None, None, None)]
    assert windows == [(False, 0, 0)]  # two windows are unpaired sides, empty or not
