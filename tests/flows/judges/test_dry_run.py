"""`--dry-run` and the cost of a run (issue 15): the estimate against what a real run then
spends at a counting server on 127.0.0.1 (its own tokenizer, in its own process); nothing
judged or written but a `runs` row marked dry_run."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest

from flows.cli import main
from flows.judges.prices import judge_prices, table_price
from flows.judges.settings import JudgeSettings
from flows.run.cost_summary import dry_run_line
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.counting_server import RemoteServer, serving_elsewhere, totals
from tests.support.openai_stub import serving

SAMPLE = Path(__file__).resolve().parents[3] / "data" / "sample" / "cases.parquet"


@pytest.fixture(scope="module")
def counting() -> Iterator[RemoteServer]:
    with serving_elsewhere() as server:
        yield server


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "cases.parquet"
    pl.read_parquet(SAMPLE).head(120).write_parquet(path)
    return path


def settings(server: RemoteServer, source: Path, db: Path, *, dry_run: bool) -> ScoreSettings:
    judge = JudgeSettings(kind="openai", model="gpt-4o-mini", base_url=server.base_url)
    return ScoreSettings(source=str(source), db=str(db), judge=judge, dry_run=dry_run)


def table_counts(db: Path) -> dict[str, int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {
            table: con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]
            for table in ("case_scores", "claim_verdicts", "truths", "judge_cache", "quarantine")
        }
    finally:
        con.close()


def test_a_dry_run_asks_nothing_writes_only_its_row_and_prices_the_real_run(
    counting: RemoteServer, source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local")
    db = tmp_path / "f.duckdb"
    # Half the source scored first: the dry run must see what is stored and cached.
    half = tmp_path / "half.parquet"
    pl.read_parquet(source).head(60).write_parquet(half)
    run_score(settings(counting, half, db, dry_run=False))
    before, stored = len(counting.log()), table_counts(db)

    dry = run_score(settings(counting, source, db, dry_run=True))
    assert len(counting.log()) == before  # not one request
    assert table_counts(db) == stored  # nothing but the run row
    assert dry["dry_run"] is True
    assert dry["rows_already_scored"] == 60

    real = run_score(settings(counting, source, db, dry_run=False))
    calls, prompt, completion = totals(counting.log()[before:])
    assert real["judge_calls"] == calls
    # Same items after dedup and the cache, in the same packs: the same number of calls.
    assert dry["judge_calls"] == real["judge_calls"] > 0
    assert dry["judge_cached"] == real["judge_cached"]
    assert dry["prompt_tokens"] == pytest.approx(prompt, rel=0.15)
    # Within a quarter: packed verdicts name their claims (issue 27), JSON punctuation the
    # counting server counts a token a mark and the estimate at 4 characters a token.
    assert dry["cost_usd"] == pytest.approx(real["cost_usd"], rel=0.25)
    assert real["cost_usd"] == pytest.approx((prompt * 0.15 + completion * 0.60) / 1e6)

    again = run_score(settings(counting, source, db, dry_run=True))
    assert again["judge_calls"] == 0
    assert again["cost_usd"] == 0


def test_a_dry_run_of_many_batches_counts_an_item_once_as_the_run_asks_it_once(
    counting: RemoteServer, source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The same passages and answers in every batch: a run asks them in batch 1 and finds
    # them in judge_cache after. The dry run counted them again in each batch (3x the calls).
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local")
    db = tmp_path / "f.duckdb"
    small = settings(counting, source, db, dry_run=True).model_copy(update={"batch_size": 40})
    dry = run_score(small)
    before = len(counting.log())
    real = run_score(small.model_copy(update={"dry_run": False}))
    calls, _, _ = totals(counting.log()[before:])
    assert dry["judge_calls"] == real["judge_calls"] == calls > 0
    assert dry["judge_cached"] == real["judge_cached"] > 0


@pytest.mark.parametrize("mode", ["packed", "per-item"])
def test_a_dry_run_under_max_output_tokens_counts_the_replies_the_limit_cuts(
    source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    # The dry run counted every stand-in reply whole and never failed one: under a
    # --max-output-tokens too small for the replies it priced tokens no call can spend and
    # said nothing of the cases the real run then lost as ReplyCut (and of its exit 8).
    # The stub cuts a reply past 4 characters a token, as the estimate counts them.
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local")
    small = tmp_path / "small.parquet"
    pl.read_parquet(source).head(24).write_parquet(small)
    with serving() as stub:
        judge = JudgeSettings(
            kind="openai",
            model="gpt-4o-mini",
            base_url=stub.base_url,
            mode=mode,
            max_output_tokens=24,
        )
        db = tmp_path / "f.duckdb"
        run = ScoreSettings(source=str(small), db=str(db), judge=judge, max_invalid_share=1.0)
        dry = run_score(run.model_copy(update={"dry_run": True}))
        real = run_score(run)
    assert dry["completion_tokens"] <= 24 * dry["judge_calls"]
    assert 0 < real["rows_invalid"] < 24
    # The same calls; a stand-in verdict carries an empty reason the stub leaves out, so a
    # reply at the limit's edge may be cut in the dry run alone.
    assert dry["judge_calls"] == real["judge_calls"]
    assert real["rows_invalid"] <= dry["rows_invalid"] <= real["rows_invalid"] + 2
    assert real["judge_failed"] <= dry["judge_failed"] <= real["judge_failed"] + 2
    assert f"; {dry['rows_invalid']:,} cases would end invalid" in dry_run_line(dry)


def test_the_cli_dry_run_needs_no_key_and_creates_no_database(
    source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    db = tmp_path / "none.duckdb"
    argv = ["score", str(source), "--db", str(db), "--judge", "openai", "--model", "m"]
    prices = ["--price-input", "1", "--price-output", "2"]
    code = main([*argv, "--dry-run", "--prefect", "no", *prices])
    out, err = capsys.readouterr()
    assert code == 0
    assert not db.exists()
    assert "dry run" in out
    assert "120 cases to judge" in out
    # its progress lines said "scored 120", a dry run scoring nothing
    assert "batch 1: 120/120 rows" in err
    assert "to judge 120, quarantined 0" in err
    assert "scored" not in err
    assert "at $1/$2 per 1M tokens" in out
    # the nightly run too: the estimate, and no judge check (it would call the judge)
    code = main(["nightly", *argv[1:], "--dry-run", "--prefect", "no", *prices])
    out = capsys.readouterr().out
    assert code == 0
    assert not db.exists()
    assert "dry run" in out
    assert "judge check" not in out


def test_a_dry_run_whose_limit_cuts_most_replies_prints_its_estimate_then_exits_8(
    source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """The real run would end with exit 8 (most cases invalid): the dry run says so after its
    estimate, and why, though it stores no case_scores.error to read."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    db = tmp_path / "none.duckdb"
    argv = ["score", str(source), "--db", str(db), "--judge", "openai", "--model", "m"]
    code = main([*argv, "--max-output-tokens", "16", "--dry-run", "--prefect", "no"])
    out, err = capsys.readouterr()
    assert code == 8
    assert "cases would end invalid (replies cut at --max-output-tokens)" in out
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1
    assert errors[0].endswith(
        "more than --max-invalid-share 0.1: their replies cut at --max-output-tokens (a dry "
        "run keeps no rows)"
    )
    assert not db.exists()


@pytest.mark.parametrize("command", ["score", "nightly"])
def test_a_dry_run_of_a_drifted_source_prints_its_estimate_then_exits_11_naming_the_check(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture, command: str
) -> None:
    """The real run would end with exit 11: the dry run says so, after its estimate, and
    names the failing check though it keeps no quarantine row."""
    drifted = tmp_path / "drifted.parquet"
    blank = pl.int_range(pl.len()) < 40
    answers = pl.when(blank).then(pl.lit(" ")).otherwise(pl.col("actual_output"))
    pl.read_parquet(source).with_columns(actual_output=answers).write_parquet(drifted)
    db = tmp_path / "none.duckdb"
    code = main([command, str(drifted), "--db", str(db), "--dry-run", "--prefect", "no"])
    out, err = capsys.readouterr()
    assert code == 11
    assert "80 cases to judge (0 already scored, 40 quarantined)" in out
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1
    assert "40 of 120 rows (33.3%) were quarantined" in errors[0]
    assert "top checks: actual_output_not_blank 40 (a dry run keeps no rows)" in errors[0]
    assert not db.exists()


def test_prices_come_from_the_options_else_the_table() -> None:
    assert table_price("gpt-4o-mini-2024-07-18") == (0.15, 0.60)
    assert table_price("openai/gpt-4o") == (2.50, 10.00)
    assert table_price("llama3.1") is None
    # gpt-3.5-turbo's older snapshots are billed above its -0125 price, which the base has
    assert table_price("gpt-3.5-turbo-0125") == (0.50, 1.50)
    assert table_price("gpt-3.5-turbo-1106") == (1.00, 2.00)
    assert table_price("gpt-3.5-turbo-0613") == (1.50, 2.00)
    assert judge_prices("openai", "gpt-4o-mini", None, 0.5) == (0.15, 0.5)
    assert judge_prices("openai", "llama3.1", None, None) == (None, None)
    assert judge_prices("grounded", None, None, None) == (0.0, 0.0)
    # The Batch API bills half the listed price; a price given on the command line is the price.
    assert judge_prices("openai", "gpt-4o-mini", None, None, "batch") == (0.075, 0.30)
    assert judge_prices("openai", "gpt-4o-mini", 0.15, None, "batch") == (0.15, 0.30)


@pytest.mark.parametrize(
    ("model", "prices"),
    [
        ("gpt-4o-2024-08-06", (2.50, 10.00)),  # a dated name: its base name's price
        ("gpt-4o-2024-05-13", (5.00, 15.00)),  # a snapshot listed at its own (higher) price
        ("gpt-4o-realtime-preview", (None, None)),  # another model, not a date: unknown
    ],
)
def test_a_run_is_priced_by_its_model_snapshot_or_left_unknown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, model: str, prices: tuple
) -> None:
    # Any name starting "gpt-4o-" took gpt-4o's price: gpt-4o-2024-05-13, billed $5/$15,
    # showed half its cost, and gpt-4o-realtime-preview ($5/$20) less than that.
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local")
    source = tmp_path / "cases.parquet"
    pl.read_parquet(SAMPLE).head(12).write_parquet(source)
    db = tmp_path / "f.duckdb"
    with serving() as stub:
        judge = JudgeSettings(kind="openai", model=model, base_url=stub.base_url)
        run = run_score(ScoreSettings(source=str(source), db=str(db), judge=judge))
    ((prompt, completion, price_in, price_out, cost),) = (
        duckdb.connect(str(db), read_only=True)
        .execute(
            "SELECT prompt_tokens, completion_tokens, price_input_usd, price_output_usd, "
            "cost_usd FROM runs"
        )
        .fetchall()
    )
    assert run["judge_calls"] == stub.requests > 0
    assert (price_in, price_out) == prices
    if prices[0] is None:
        assert cost is None
    else:
        assert cost == pytest.approx((prompt * prices[0] + completion * prices[1]) / 1e6)


@pytest.mark.usefixtures("prefect_harness")
def test_the_prefect_flow_takes_dry_run_as_its_parameter(
    source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows.orchestration.score_flow import score_flow

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    db = tmp_path / "none.duckdb"
    judge = JudgeSettings(kind="openai", model="gpt-4o-mini")
    run = score_flow(ScoreSettings(source=str(source), db=str(db), judge=judge, dry_run=True))
    assert run["dry_run"] is True
    assert run["judge_calls"] > 0
    assert run["cost_usd"] > 0
    assert not db.exists()
