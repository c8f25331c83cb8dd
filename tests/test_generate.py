"""The log generator: deterministic, on contract, realistic enough to drive demos and benchmarks."""

from __future__ import annotations

import datetime as dt
import re

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from data import generate
from data.generator import cases as cases_module
from faith_udfs.words import STOP_WORDS

START = dt.date(2026, 10, 1)


@pytest.fixture(scope="module")
def labelled() -> pl.DataFrame:
    return generate.generate_cases(4000, seed=7, with_labels=True)


def seed_rule_verdicts(answer: str, passages: list[str]) -> list[str]:
    """The seed's pretend judge, one case at a time: yes / no / idk for each claim."""

    def sentences(text: str) -> list[str]:
        return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]

    def words(text: str) -> set[str]:
        return {w for w in re.findall(r"[^\W_]+", text.lower()) if w not in STOP_WORDS}

    truth_words = set().union(*(words(t) for p in passages for t in sentences(p)))
    verdicts = []
    for claim in sentences(answer):
        claim_words = words(claim)
        found = len(claim_words & truth_words) / len(claim_words) if claim_words else 0.0
        verdicts.append("yes" if found == 1 else "no" if found > 0 else "idk")
    return verdicts


def test_the_same_seed_gives_the_same_cases_and_another_seed_others():
    first = generate.generate_cases(1500, seed=3)
    assert_frame_equal(first, generate.generate_cases(1500, seed=3))
    other = generate.generate_cases(1500, seed=4)
    assert (first["actual_output"] != other["actual_output"]).mean() > 0.5


def test_cases_follow_the_contract_exactly(labelled):
    cases = generate.generate_cases(50, seed=1)
    assert cases.schema == pl.Schema(generate.SCHEMA)
    assert list(cases.columns) == [
        "case_id", "input", "actual_output", "retrieval_context", "logged_at",
        "app_version", "model", "channel",
    ]  # fmt: skip
    assert labelled.columns == [*generate.SCHEMA, "answer_kind"]
    assert labelled.null_count().sum_horizontal().item() == 0
    assert labelled["case_id"].is_unique().all()
    assert labelled["case_id"].str.contains(r"^c\d{9}$").all()
    assert labelled["input"].str.strip_chars().str.len_chars().min() > 0
    assert labelled["actual_output"].str.strip_chars().str.len_chars().min() > 0
    lengths = labelled["retrieval_context"].list.len()
    assert lengths.min() == 1
    assert lengths.max() == 4
    passages = labelled["retrieval_context"].explode()
    assert passages.str.strip_chars().str.len_chars().min() > 0
    assert set(labelled["app_version"]) == {"2.3.0", "2.4.0", "2.4.1"}
    assert set(labelled["model"]) == {"gpt-4o-mini", "llama-3.1-8b"}
    assert set(labelled["channel"]) == {"web", "app", "email"}


@pytest.mark.parametrize("n", [0, 1, 7, 2500])
def test_row_counts_and_ids(n):
    cases = generate.generate_cases(n, seed=2, id_offset=1000)
    assert cases.height == n
    assert cases.schema == pl.Schema(generate.SCHEMA)
    assert cases["case_id"].to_list() == [f"c{1000 + i:09d}" for i in range(n)]


def test_chunks_join_seamlessly(monkeypatch):
    monkeypatch.setattr(cases_module, "_CHUNK_ROWS", 300)
    chunks = list(generate.iter_cases(1000, seed=5))
    assert [c.height for c in chunks] == [300, 300, 300, 100]
    cases = pl.concat(chunks)
    assert cases["case_id"].to_list() == [f"c{i:09d}" for i in range(1000)]
    assert cases["logged_at"].is_sorted()
    assert cases["actual_output"].n_unique() > 500


def test_sentences_end_where_the_metric_splits_them(labelled):
    texts = [
        *labelled["actual_output"].to_list(),
        *labelled["retrieval_context"].explode().unique().to_list(),
    ]
    for text in texts:
        parts = re.split(r"(?<=[.!?])\s+", text)
        assert all(re.search(r"[.!?]$", p) for p in parts), text
        assert 1 <= len(parts) <= 4, text


def test_answer_kinds_come_in_the_intended_mix(labelled):
    share = dict(labelled["answer_kind"].value_counts(normalize=True).iter_rows())
    assert set(share) == set(generate.ANSWER_KINDS)
    assert 0.58 < share["grounded"] < 0.72
    assert 0.15 < share["unsupported"] < 0.26
    assert 0.08 < share["contradicting"] < 0.16
    assert 0.015 < share["chitchat"] < 0.05


def test_each_kind_gets_the_verdicts_its_name_promises(labelled):
    for kind, answer, context in labelled.select(
        "answer_kind", "actual_output", "retrieval_context"
    ).iter_rows():
        verdicts = seed_rule_verdicts(answer, context)
        if kind == "grounded":
            assert set(verdicts) == {"yes"}, (answer, context)
        elif kind == "unsupported":
            assert "idk" in verdicts, (answer, context)
            assert "no" not in verdicts, (answer, context)
        elif kind == "contradicting":
            assert "no" in verdicts, (answer, context)
        else:
            assert set(verdicts) == {"idk"}, answer


def test_quality_drifts_by_app_version_and_model(labelled):
    grounded = (
        labelled.group_by("app_version")
        .agg((pl.col("answer_kind") == "grounded").mean())
        .sort("app_version")["answer_kind"]
        .to_list()
    )
    assert grounded[2] < grounded[1] - 0.04  # 2.4.1 regresses against 2.4.0
    by_model = dict(
        labelled.group_by("model").agg((pl.col("answer_kind") == "grounded").mean()).iter_rows()
    )
    assert by_model["llama-3.1-8b"] < by_model["gpt-4o-mini"] - 0.05


def test_new_version_rolls_out_during_the_month(labelled):
    day = (pl.col("logged_at").dt.date() - START).dt.total_days()
    first = labelled.filter(day < 10)["app_version"].value_counts(normalize=True)
    last = labelled.filter(day >= 25)["app_version"].value_counts(normalize=True)
    assert "2.4.1" not in set(first["app_version"])
    assert dict(last.iter_rows())["2.4.1"] > 0.5
    assert "2.3.0" not in set(last["app_version"])


def test_passages_repeat_with_a_skewed_popularity(labelled):
    citations = labelled["retrieval_context"].explode().value_counts(sort=True)["count"]
    assert citations[0] > 0.05 * labelled.height  # the most read passage is read very often
    assert citations[9] < citations[0] / 3  # ... far more than the tenth
    assert (citations == 1).sum() > 1000  # and order records are read once
    assert len(generate.knowledge_base()) in range(300, 601)


def test_some_answers_are_canned_repeats_most_are_not(labelled):
    repeated = labelled["actual_output"].is_duplicated().mean()
    assert 0.15 < repeated < 0.33
    grounded = labelled.filter(pl.col("answer_kind") == "grounded")["actual_output"]
    sentences = grounded.str.count_matches(r"[.!?](\s|$)").value_counts(normalize=True)
    assert dict(sentences.iter_rows()).keys() == {1, 2, 3}
    assert sentences["proportion"].min() > 0.1


def test_logged_at_spreads_over_the_days_with_a_daily_rhythm():
    cases = generate.generate_cases(3000, seed=9, start=dt.date(2026, 11, 2), days=14)
    days = cases["logged_at"].dt.date()
    assert days.min() == dt.date(2026, 11, 2)
    assert days.max() == dt.date(2026, 11, 15)
    assert days.n_unique() == 14
    hours = cases["logged_at"].dt.hour()
    assert ((hours >= 1) & (hours < 6)).mean() < 0.06
    assert ((hours >= 9) & (hours < 21)).mean() > 0.7
    weekend = cases["logged_at"].dt.weekday() >= 6
    assert weekend.sum() / 4 < (~weekend).sum() / 10  # a weekend day is quieter than a weekday


def test_seed_cases_are_the_tutorials_three_answers():
    seeds = generate.seed_cases()
    assert seeds.schema == pl.Schema(generate.SCHEMA)
    assert seeds["case_id"].to_list() == ["seed-grounded", "seed-invented", "seed-contradicting"]
    assert set(seeds["input"]) == {"Where is order A17?"}
    assert (
        seeds["retrieval_context"].to_list() == [["Order A17 shipped on 3 March by courier."]] * 3
    )
    assert set(seeds["logged_at"].dt.date()) == {dt.date(2026, 3, 3)}
    assert set(seeds["app_version"]) == {"seed"}
    verdicts = [seed_rule_verdicts(a, c) for a, c in seeds.select(
        "actual_output", "retrieval_context").iter_rows()]  # fmt: skip
    assert verdicts == [["yes"], ["yes", "idk"], ["no", "idk"]]


def join_three(
    questions: pl.DataFrame, contexts: pl.DataFrame, outputs: pl.DataFrame
) -> pl.DataFrame:
    lists = (
        contexts.sort("case_id", "position")
        .group_by("case_id", maintain_order=True)
        .agg(retrieval_context=pl.col("text"))
    )
    return (
        questions.join(outputs, on="case_id", how="left")
        .join(lists, on="case_id", how="left")
        .select(list(generate.SCHEMA))
    )


def test_three_tables_join_back_to_the_wide_form_exactly(tmp_path):
    cases = pl.concat([generate.seed_cases(), generate.generate_cases(1200, seed=4)])
    questions, contexts, outputs = generate.to_three_tables(cases)
    assert questions.columns == ["case_id", "input", "logged_at", "app_version", "channel"]
    assert contexts.schema == pl.Schema(
        {"case_id": pl.String(), "position": pl.Int32(), "text": pl.String()}
    )
    assert outputs.columns == ["case_id", "actual_output", "model"]
    assert contexts.height == cases["retrieval_context"].list.len().sum()

    files = generate.write_cases(cases, tmp_path / "three", form="three")
    assert sorted(f.name for f in files) == [
        "contexts.parquet",
        "outputs.parquet",
        "questions.parquet",
    ]
    back = join_three(*(pl.read_parquet(tmp_path / "three" / f"{t}.parquet")
                        for t in ("questions", "contexts", "outputs")))  # fmt: skip
    assert_frame_equal(back.sort("case_id"), cases.sort("case_id"))


def test_part_files_hold_the_same_cases(tmp_path):
    cases = generate.generate_cases(1000, seed=6)
    wide = generate.write_cases(cases, tmp_path / "wide", rows_per_file=300)
    assert [f.name for f in wide] == [f"part-{i:05d}.parquet" for i in range(4)]
    assert_frame_equal(pl.read_parquet(tmp_path / "wide" / "*.parquet"), cases)

    generate.write_cases(cases.head(10), tmp_path / "three", form="three", rows_per_file=3)
    generate.write_cases(cases, tmp_path / "three", form="three", rows_per_file=300)
    tables = [pl.read_parquet(tmp_path / "three" / t / "*.parquet")
              for t in ("questions", "contexts", "outputs")]  # fmt: skip
    assert sorted(p.name for p in (tmp_path / "three" / "contexts").iterdir()) == [
        f"part-{i:05d}.parquet" for i in range(4)
    ]  # the earlier, smaller write left no stale parts behind
    assert_frame_equal(join_three(*tables), cases)


def test_a_wide_file_round_trips_exactly(tmp_path):
    cases = pl.concat([generate.seed_cases(), generate.generate_cases(800, seed=8)])
    [file] = generate.write_cases(cases, tmp_path / "cases.parquet")
    assert_frame_equal(pl.read_parquet(file), cases)
    [empty] = generate.write_cases(cases.clear(), tmp_path / "empty.parquet")
    assert pl.read_parquet(empty).schema == pl.Schema(generate.SCHEMA)


def test_cli_writes_the_seed_cases_and_a_generated_month(tmp_path, capsys):
    out = tmp_path / "sample" / "cases.parquet"
    argv = ["--rows", "500", "--seed", "7", "--days", "30", "--start", "2026-10-01",
            "--out", str(out), "--with-seed-cases"]  # fmt: skip
    assert generate.main(argv) == 0
    assert "503 rows" in capsys.readouterr().out
    cases = pl.read_parquet(out)
    assert cases["case_id"].head(3).to_list() == generate.seed_cases()["case_id"].to_list()
    assert_frame_equal(cases.slice(3), generate.generate_cases(500, seed=7))
    assert not list(out.parent.glob(".*partial"))


def test_bad_arguments_are_refused(tmp_path):
    with pytest.raises(ValueError, match="days"):
        generate.generate_cases(10, days=0)
    with pytest.raises(ValueError, match="form"):
        generate.write_cases(generate.seed_cases(), tmp_path / "x", form="long")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rows_per_file"):
        generate.write_cases(generate.seed_cases(), tmp_path / "x", rows_per_file=0)
