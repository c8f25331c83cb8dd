# ruff: noqa: F811 - `con` is test_report.py's fixture, reading this module's `db`
"""Issue 15 in the report: invalid and pending share next to the pass rate, periods above the
run's --max-invalid-share flagged, and each run's judge cost, per run and per 1,000 cases."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from flows.report import ReportOptions, render_html
from flows.store.db import open_store, sql
from tests.flows.report.test_report import con, terminal  # noqa: F401
from tests.flows.store.test_analysis_sql import add_case, populate

RUN = (
    "INSERT INTO runs (run_id, flow, config_id, config, source, status, started_at, "
    "rows_newly_scored, rows_invalid, prompt_tokens, completion_tokens, judge_calls, "
    "price_input_usd, price_output_usd, cost_usd, dry_run, max_invalid_share) VALUES "
    "($run_id, 'score', $config_id, $config, 'logs', 'completed', $at, 1990, 10, 2000000, "
    "500000, 600, $price_in, $price_out, $cost, $dry, $limit)"
)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("costs") / "faith.duckdb"
    con = open_store(path)
    populate(con)  # lex on 2 March: 5 scored, 1 invalid, 1 pending
    judge = json.dumps({"judge": {"kind": "openai", "model": "gpt-4o-mini"}})
    for run_id, at, price_in, price_out, cost, dry, limit in (
        ("r-priced", "2026-03-20 02:00", 0.15, 0.60, 0.6, False, 0.1),
        ("r-dry", "2026-03-21 02:00", 0.15, 0.60, 0.6, True, None),
        ("r-unpriced", "2026-03-22 02:00", None, None, None, False, 0.1),
    ):
        con.execute(
            RUN,
            {
                "run_id": run_id,
                "config_id": "lex",
                "config": judge,
                "at": at,
                "price_in": price_in,
                "price_out": price_out,
                "cost": cost,
                "dry": dry,
                "limit": limit,
            },
        )
    con.close()
    return path


def test_shares_sit_next_to_the_pass_rate_and_a_period_above_the_limit_is_flagged(
    con: duckdb.DuckDBPyConnection,
) -> None:
    text = terminal(con, ReportOptions(since=None))
    # 2 March: 1 invalid of 6 judged (16.7%), 1 pending of 7 cases (14.3%); limit 0.1
    assert "80.0% [37.6%–96.4%] 0.767 1 0 1 1 16.7% ! 14.3%" in text
    assert "! 1 period(s) with an invalid share above --max-invalid-share 0.1 (2026-03-02)" in text
    relaxed = terminal(con, ReportOptions(max_invalid_share=0.2))
    assert "16.7% 14.3%" in relaxed
    assert "above --max-invalid-share" not in relaxed


def test_each_runs_cost_shows_per_run_and_per_1000_cases(
    con: duckdb.DuckDBPyConnection,
) -> None:
    text = terminal(con, ReportOptions())
    assert "Judge cost of the latest 3 run(s)" in text
    # 0.6 USD for 2,000 cases judged: 0.3 USD per 1,000
    assert "r-priced score completed 2,000 600 2,000,000 500,000 0.6000 0.3000" in text
    assert "r-dry (dry run)" in text
    assert "r-unpriced score completed 2,000 600 2,000,000 500,000 unknown –" in text
    page = render_html(con, ReportOptions())
    assert "Judge cost of the latest runs" in page
    assert "<td>0.3000</td>" in page
    assert "invalid share above --max-invalid-share 0.1" in page


def test_pass_rates_keeps_its_columns_and_adds_the_shares(
    con: duckdb.DuckDBPyConnection,
) -> None:
    columns = [c[0] for c in con.execute("DESCRIBE FROM pass_rates()").fetchall()]
    assert columns[-3:] == ["mean_score", "invalid_share", "pending_share"]
    assert con.execute(sql("report_has_costs")).fetchall()[0][0]


def test_the_flag_note_names_the_first_periods_and_counts_the_rest() -> None:
    from datetime import date

    import polars as pl

    from flows.report.terminal import invalid_note

    flagged = pl.DataFrame(
        {"period": [date(2026, 3, day) for day in range(1, 8)], "max_invalid_share": [0.1] * 7}
    )
    assert invalid_note(flagged).startswith(
        "! 7 period(s) with an invalid share above --max-invalid-share 0.1 (2026-03-01, "
        "2026-03-02, 2026-03-03, 2026-03-04, 2026-03-05 and 2 more): "
    )


def test_the_page_flags_each_configs_periods_against_its_own_limit(tmp_path: Path) -> None:
    """Two configs, each with 2 of 3 cases of 2 March invalid, their runs checked at
    --max-invalid-share 0.5 and 0.1: the page's one note said '2 period(s) with an invalid
    share above --max-invalid-share 0.5 (2026-03-02, 2026-03-02)', one config's limit for
    both and the same day twice. Each config's flagged periods are named under its label."""
    con = open_store(tmp_path / "f.duckdb")
    judge = json.dumps({"judge": {"kind": "openai", "model": "gpt-4o-mini"}})
    for config, limit in (("cfg-a", 0.5), ("cfg-b", 0.1)):
        add_case(con, f"{config}-ok", config=config, yes=1)
        for i in range(2):
            add_case(con, f"{config}-bad-{i}", config=config, status="invalid")
        run = {"run_id": f"r-{config}", "config_id": config, "config": judge, "limit": limit}
        prices = {"price_in": 0, "price_out": 0, "cost": 0.0, "dry": False}
        con.execute(RUN, {**run, **prices, "at": "2026-03-03 02:00"})
    page = render_html(con, ReportOptions())
    con.close()
    assert "2 period(s)" not in page
    for config, limit in (("cfg-a", 0.5), ("cfg-b", 0.1)):
        assert (
            f"! openai:gpt-4o-mini, threshold 0.5 [{config}]: 1 period(s) with an invalid share "
            f"above --max-invalid-share {limit} (2026-03-02)"
        ) in page
