"""bench/pipeline.py and bench/run_profile.py on a team's own logs (`--source`): the ratio to
DuckDB's copy and the per-step profile of any Parquet, as the generated shapes get them (issue
26: "on any shape of log"), and bench/tables_check.py, which shows a speed change keeps every
table. Small files, so only that they run and report, never a speed."""

from __future__ import annotations

import itertools
import re
import runpy
import subprocess
import sys
from pathlib import Path

import duckdb
import polars as pl
import pytest

from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.bench_scripts import bench_here
from tests.support.builders import many_cases

ROOT = Path(__file__).resolve().parents[3]


def bench(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`python bench/SCRIPT ARGS` in a child: the exit codes and stderr lines the tests on
    refusals and table checks are about (the reports run in process: `bench_here`)."""
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=240,
        cwd=ROOT,
    )


def test_the_pipeline_bench_measures_a_parquet_of_ones_own(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    many_cases(30).write_parquet(logs / "a.parquet")
    many_cases(20).with_columns(pl.col("case_id") + "-b").write_parquet(logs / "b.parquet")
    done = bench_here(
        "pipeline.py", "--source", str(logs), "--rounds", "1", "--work", str(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    summary = re.search(
        r"source: faith score --prefect no / floor at 50 rows: median (\d+\.\d\d)x", done.stdout
    )
    assert summary, done.stdout
    assert float(summary.group(1)) > 0
    assert (tmp_path / "pipeline-db" / "faith-no.duckdb").exists()
    assert (logs / "a.parquet").exists()  # the logs are only read


def test_the_pipeline_bench_refuses_a_source_that_is_not_parquet(tmp_path: Path) -> None:
    logs = tmp_path / "cases.csv"
    many_cases(5).drop("retrieval_context").write_csv(logs)
    done = bench("pipeline.py", "--source", str(logs), "--rounds", "1", "--work", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.startswith(f"--source {logs}: not Parquet DuckDB can copy (")
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_profile_bench_profiles_a_source_of_ones_own(tmp_path: Path) -> None:
    source = tmp_path / "cases.parquet"
    many_cases(40).write_parquet(source)
    done = bench_here("run_profile.py", "--source", str(source))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{source}, each step's CPU seconds")
    steps = {line.split()[0] for line in done.stdout.splitlines()[3:] if line.strip()}
    assert {"read", "validate", "classify", "judge"} <= steps
    assert re.search(r"^source, a real run: [\d.]+ s wall", done.stdout, re.MULTILINE)


def test_the_judge_ab_bench_compares_a_commits_judge_in_one_process(tmp_path: Path) -> None:
    """bench/judge_ab.py against HEAD (a clean checkout: the same code) finds every frame
    identical and prints both sides' CPU and the ratio. A child process: the base's package is
    imported under its own name, which must not stay in the tests' modules."""
    source = tmp_path / "cases.parquet"
    many_cases(12).write_parquet(source)
    done = bench("judge_ab.py", "HEAD", "--source", str(source), "--rounds", "2", "--inner", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^base: median [\d.]+, min [\d.]+ CPU-s a call$", done.stdout, re.M)
    summary = re.search(
        r"^source 12 rows, 2 rounds x 1: this / base (\d+\.\d+) \(medians\)", done.stdout, re.M
    )
    assert summary, done.stdout
    assert float(summary.group(1)) > 0
    assert "frames case_scores, claim_verdicts, truths, item_keys identical" in done.stdout


def test_the_tables_check_finds_two_runs_identical_and_one_changed_value(tmp_path: Path) -> None:
    source = tmp_path / "cases.parquet"
    many_cases(40).write_parquet(source)
    first, second = tmp_path / "first.duckdb", tmp_path / "second.duckdb"
    for db in (first, second):  # other run ids and times, the same results
        run_score(ScoreSettings(source=str(source), db=str(db), batch_size=15))
    dump = tmp_path / "dump"
    assert bench("tables_check.py", str(first), "--save", str(dump)).returncode == 0
    assert {path.name for path in dump.iterdir()} >= {"case_scores.parquet", "truths.parquet"}
    same = bench("tables_check.py", str(second), "--against", str(dump))
    assert (same.returncode, same.stdout.strip()) == (0, f"every table identical to {dump}")

    with duckdb.connect(str(second)) as con:
        con.execute("UPDATE case_scores SET score = 0.25 WHERE case_id = 'c00007'")
        # DuckDB hashes NULL and [] alike: the check must not
        con.execute(
            "UPDATE claim_verdicts SET context_lacks = CASE WHEN context_lacks IS NULL "
            "THEN []::VARCHAR[] ELSE NULL END WHERE case_id = 'c00001'"
        )
        con.execute("DELETE FROM truths WHERE passage_id = (SELECT min(passage_id) FROM truths)")
    changed = bench("tables_check.py", str(second), "--against", str(dump))
    assert changed.returncode == 1
    lines = changed.stdout.splitlines()
    assert lines[0] == "case_scores: same 40 rows count, different values"
    assert lines[1].startswith("claim_verdicts: same ")
    assert re.fullmatch(r"truths: \d+ rows, saved \d+", lines[2])
    assert len(lines) == 3


def test_the_tables_check_tells_a_null_list_from_an_empty_one(tmp_path: Path) -> None:
    db = tmp_path / "lists.duckdb"
    with duckdb.connect(str(db)) as con:  # DuckDB hashes NULL and [] alike
        con.execute("CREATE TABLE t AS SELECT NULL::VARCHAR[] AS lacks")
    assert bench("tables_check.py", str(db), "--save", str(tmp_path / "dump")).returncode == 0
    with duckdb.connect(str(db)) as con:
        con.execute("UPDATE t SET lacks = []")
    changed = bench("tables_check.py", str(db), "--against", str(tmp_path / "dump"))
    assert (changed.returncode, changed.stdout.strip()) == (
        1,
        "t: same 1 rows count, different values",
    )


def test_the_compression_bench_prices_each_string_column_under_each_compression(
    tmp_path: Path,
) -> None:
    db = tmp_path / "run.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute(
            "CREATE TABLE case_scores AS SELECT 'c' || i AS case_id, i AS n FROM range(500) r(i)"
        )
    done = bench_here("column_compression.py", str(db), "--tables", "case_scores", "--rounds", "1")
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()[1:]]
    # the one string column (not `n`), DuckDB's choice first, each mode priced against it
    assert [(row[0], row[1]) for row in rows] == [
        ("case_scores.case_id", "default"),
        ("case_scores.case_id", "uncompressed"),
        ("case_scores.case_id", "zstd"),
    ]
    assert rows[0][3] == "1.00x"
    assert [row[-1] for row in rows[1:]] == ["Uncompressed", "ZSTD"]


def test_the_rules_cost_bench_prices_each_grounded_version_against_the_one_before() -> None:
    done = bench_here("rules_cost.py", "--rows", "2000", "--rounds", "1", "--shape", "chat,support")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    header = lines.index(next(line for line in lines if line.startswith("shape ")))
    names = lines[header].split()
    rows = [dict(zip(names, line.split(), strict=True)) for line in lines[header + 2 :]]
    assert [row["shape"] for row in rows] == ["chat", "support"]
    # every chat answer opens with "Yes, " (bench/shapes.py); no support answer does
    assert [row["opening"] for row in rows] == [rows[0]["answers"], "0"]
    # v6 reads what cutting "Yes, " leaves of chat's copied first sentence as a copy; v5 did not
    assert float(rows[0]["copied_v5"]) == 0.0
    assert float(rows[0]["copied_v6"]) > 0.0
    assert rows[1]["copied_v5"] == rows[1]["copied_v6"]  # support's copies are copies as written
    for row in rows:
        versions = [f"v{n}" for n in range(3, 14)]
        cpu = {v: float(row[f"{v}_cpu_s"]) for v in versions}
        assert min(cpu.values()) > 0
        # the ratios are of the unrounded CPU-seconds the table shows to 3 places
        for old, new in itertools.pairwise(versions):
            ratio = float(row[f"{new}_over_{old}"])
            assert ratio == pytest.approx(cpu[new] / cpu[old], abs=0.002 / cpu[old] + 0.001)
        # claim_features alone under v6's to v10's word rules (v11 to v13 read words as v10)
        worded = versions[3:8]
        features = {v: float(row[f"features_{v}_cpu_s"]) for v in worded}
        assert min(features.values()) > 0
        for old, new in itertools.pairwise(worded):
            ratio = float(row[f"features_{new}_over_{old}"])
            assert ratio == pytest.approx(
                features[new] / features[old], abs=0.002 / features[old] + 0.001
            )


def test_the_rekey_bench_times_each_size_and_refuses_a_word_as_argparse_does() -> None:
    """`python bench/rekey.py --help` (or a mistyped size) was a ValueError traceback."""
    done = bench_here("rekey.py", "500", "1000")
    assert done.returncode == 0, done.stderr
    assert [
        re.fullmatch(r" +([\d,]+) legacy ids x \1 cases: \d+\.\d\d s", line) is not None
        for line in done.stdout.splitlines()
    ] == [True, True]
    assert bench_here("rekey.py", "--help").returncode == 0
    refused = bench("rekey.py", "40k")
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines()[-1].endswith("invalid int value: '40k'")


def test_the_llm_calls_bench_refuses_no_more_calls_than_it_warms_up_with() -> None:
    """`--calls 50` (a small run) measured 0 calls after the 50 warm-up ones and ended in a
    ZeroDivisionError traceback, after the whole per-mode table."""
    done = bench_here("llm_calls.py", "--cases", "5", "--calls", "50")
    assert done.returncode == 2
    assert done.stdout == ""
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .endswith("--calls 50: must be more than the 50 warm-up calls")
    )


def test_the_small_files_bench_refuses_a_format_it_does_not_write() -> None:
    """`--formats csv.gzip` (for csv.gz) was a KeyError traceback."""
    done = bench_here("small_files.py", "--files", "2", "--formats", "parquet,csv.gzip")
    assert done.returncode == 2
    assert done.stdout == ""
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .endswith(
            "--formats: no csv.gzip (parquet, csv, csv.gz, jsonl, jsonl.gz, json, mixed sizes)"
        )
    )


@pytest.mark.parametrize("script", ["pipeline.py", "run_profile.py", "rules_cost.py", "memory.py"])
def test_a_bench_refuses_a_shape_it_has_not_in_one_line(script: str) -> None:
    """`--shape suport` ended in bench/shapes.py's ValueError traceback (pipeline.py's after
    its other shapes' rounds)."""
    done = bench_here(script, "--shape", "chat,suport", "--rows", "100")
    assert done.returncode == 2
    assert done.stdout == ""
    last = done.stderr.strip().splitlines()[-1]
    assert "argument --shape" in last
    assert "suport" in last


def test_the_udfs_bench_runs_from_another_folder(tmp_path: Path) -> None:
    """Its children wrote and it read the compared heads at `bench/out/...` of the caller's
    folder: started anywhere but the checkout's root it ended in a FileNotFoundError."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "udfs.py"), "--rows", "200", "--rounds", "1"],
        check=False,
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "same scores, reasons and claim verdicts on the first 200 cases: True" in done.stdout
    assert not (tmp_path / "bench").exists()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("commits_ab.py", "no-such-commit", "--rows", "100"), "no-such-commit: not a commit"),
        (("judge_ab.py", "no-such-commit", "--rows", "5"), "no-such-commit: not a commit"),
        (("tables_check.py", "{tmp}/none.duckdb", "--save", "{tmp}/d"), "none.duckdb: no such"),
        (("column_compression.py", "{tmp}/none.duckdb"), "none.duckdb: no such database file"),
        (("tables_check.py", "{db}", "--against", "{tmp}/none"), "--against {tmp}/none: no such"),
        (("pipeline.py", "--rows", "100", "--check-against", "{tmp}/none"), "{tmp}/none: no such"),
    ],
)
def test_a_bench_refuses_an_input_that_is_not_there_in_one_line(
    tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    """A mistyped commit, database or dump folder was a traceback (git's CalledProcessError,
    DuckDB's IOException), or for pipeline.py's dump every table "not in the saved dump"
    after the runs, as a difference would be."""
    db = tmp_path / "run.duckdb"
    duckdb.connect(str(db)).close()
    fill = {"tmp": str(tmp_path), "db": str(db)}
    done = bench(*(arg.format(**fill) for arg in args))
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert said.format(**fill) in done.stderr.strip().splitlines()[-1]


def test_the_profile_bench_refuses_a_source_that_is_not_there_in_one_line(tmp_path: Path) -> None:
    """Its child's InputUnreadable traceback, under "bench child failed", before."""
    done = bench_here("run_profile.py", "--source", str(tmp_path / "none.parquet"))
    assert done.returncode == 2
    assert done.stdout == ""
    last = done.stderr.strip().splitlines()[-1]
    assert last.endswith(f"--source: {tmp_path / 'none.parquet'}: no such file, folder or glob")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ("interjections.py", "--rows", "0"),
            "argument --rows: must be a whole number from 1 to 1,000,000,000,000, got 0",
        ),
        (
            ("engines.py", "--rows", "10", "--workers", "0", "--llm-cases", "0"),
            "argument --workers: must be a whole number from 1 to 1,000,000,000,000, got 0",
        ),
        (
            ("engines.py", "--rows", "10", "--llm-cases", "3"),
            "argument --llm-cases: 0 to skip the LLM part, or at least 4 cases (4 partitions), "
            "got 3",
        ),
        (
            ("memory.py", "--rows", "1000,abc"),
            "argument --rows: must be a whole number from 1 to 1,000,000,000,000, got abc",
        ),
        (("llama_check.py", "--llama-venv", "{tmp}/no"), "--llama-venv {tmp}/no: no bin/python"),
    ],
    ids=["interjections-rows", "engines-workers", "engines-llm-cases", "memory-rows", "llama-venv"],
)
def test_a_bench_refuses_a_count_or_venv_it_cannot_use_in_one_line(
    tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    """`--rows 0` was polars' "cannot concat empty list", `--workers 0` pydantic's error,
    `--rows abc` int()'s, a mistyped --llama-venv subprocess's FileNotFoundError, `--llm-cases
    3` pydantic's (a batch size of 0): each a traceback (engines.py's after generating its
    input; --llm-cases's after the whole comparison of the engines)."""
    done = bench_here(*(arg.format(tmp=tmp_path) for arg in args))
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert said.format(tmp=tmp_path) in done.stderr.strip().splitlines()[-1]


def test_the_memory_bench_counts_the_cpu_seconds_of_the_run_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its CPU-seconds were the child's whole life, its start and imports (~1-2 CPU-s) too,
    where its seconds were the run's: a fixed cost counted as the rows', so the CPU per row of
    the smallest size (the ratios' base) came out dearer than the others'. A child that burns
    3 CPU-s before the run starts must report only what the run took."""
    source = tmp_path / "cases.parquet"
    many_cases(5).write_parquet(source)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the script puts bench/ on it
    memory = runpy.run_path(str(ROOT / "bench" / "memory.py"))
    burn = "import time\nwhile time.process_time() < 3:\n    pass\n"
    db = tmp_path / "faith.duckdb"
    result = memory["run_child"](burn + memory["TIMED"], str(source), str(db), "default")
    assert result["cases"] == 5
    assert 0 < result["cpu_seconds"] < 3


COUNTS = [  # (script, option, a value it cannot use), one of each bench the docs name a figure of
    ("udfs.py", "--rows", "0"),  # polars' "cannot concat empty list", after the batch rounds
    ("udfs.py", "--batch-size", "0"),  # range()'s error in each child, after generating 1M rows
    ("pipeline.py", "--rounds", "0"),  # table()'s TypeError on no runs
    ("run_profile.py", "--rows", "-3"),  # the generator's ValueError, a cache folder left
    ("duplicates.py", "--rows", "0"),
    ("imports.py", "--rounds", "0"),  # statistics.StatisticsError
    ("run_overhead.py", "--repeat", "0"),  # IndexError on no times
    ("truths_insert.py", "--batches", "0"),
    ("small_files.py", "--files", "0"),
    ("wide_logs.py", "--columns", "500,abc"),  # int()'s ValueError
    ("llm_calls.py", "--cases", "0"),
    ("rules_cost.py", "--rounds", "0"),
    ("deepeval_ratio.py", "--sample", "0"),
    ("commits_ab.py", "--rows", "0"),
    ("judge_ab.py", "--rounds", "0"),
]


@pytest.mark.parametrize(
    ("script", "option", "value"), COUNTS, ids=[f"{s[:-3]}{o}={v}" for s, o, v in COUNTS]
)
def test_a_speed_bench_refuses_a_count_below_one_in_one_line(
    script: str, option: str, value: str
) -> None:
    """Each was a traceback (or, for --rows -3, an empty cache folder under bench/out)."""
    base = ["HEAD"] if script in ("commits_ab.py", "judge_ab.py") else []
    done = bench_here(script, *base, option, value)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""
    wrong = value.rsplit(",", maxsplit=1)[-1]
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .endswith(
            f"argument {option}: must be a whole number from 1 to 1,000,000,000,000, got {wrong}"
        )
    )


def test_the_duplicates_bench_leaves_no_database_behind() -> None:
    """It removed its doubled export and left the scored database under bench/out, ~1 kB a
    row (300,000 rows by default), there until the next run."""
    out = ROOT / "bench" / "out"
    done = bench_here("duplicates.py", "--rows", "40", "--batch-size", "10")
    assert done.returncode == 0, done.stderr
    assert re.search(r"^50% repeated +40 +20 +20 ", done.stdout, re.MULTILINE), done.stdout
    assert re.search(r"^peak RSS, 50% repeated / distinct: \d+\.\d\dx", done.stdout, re.M)
    assert sorted(out.glob("duplicates*")) == []


def test_the_pipeline_bench_refuses_a_folder_whose_logs_are_not_all_parquet(
    tmp_path: Path,
) -> None:
    """faith scores every log file of a folder, the floor copied its `**/*.parquet` alone: a
    folder of 30 Parquet rows and 20 JSON Lines ones printed faith's 50 rows against a copy of
    30, "at 30 rows", a ratio of unequal work."""
    logs = tmp_path / "logs"
    logs.mkdir()
    many_cases(30).write_parquet(logs / "a.parquet")
    many_cases(20).with_columns(pl.col("case_id") + "-b").write_ndjson(logs / "b.jsonl")
    done = bench("pipeline.py", "--source", str(logs), "--rounds", "1", "--work", str(tmp_path))
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""
    assert done.stderr.strip() == (
        f"--source {logs}: faith reads {logs / 'b.jsonl'}, which the floor (DuckDB copying the"
        " folder's Parquet) does not: point --source at Parquet alone"
    )


def test_the_tables_check_finds_a_moved_log_time(tmp_path: Path) -> None:
    """It left out every column ending in `_at` as the run's own (scored_at, started_at), so
    `logged_at`, the time each log says it was written, was never compared: a speed change in
    reading that shifted every timestamp by an hour passed as "every table identical"."""
    source = tmp_path / "cases.parquet"
    many_cases(10).write_parquet(source)
    db = tmp_path / "run.duckdb"
    run_score(ScoreSettings(source=str(source), db=str(db)))
    dump = tmp_path / "dump"
    assert bench("tables_check.py", str(db), "--save", str(dump)).returncode == 0
    with duckdb.connect(str(db)) as con:
        con.execute("UPDATE case_scores SET logged_at = logged_at + INTERVAL 1 HOUR")
    changed = bench("tables_check.py", str(db), "--against", str(dump))
    assert (changed.returncode, changed.stdout.strip()) == (
        1,
        "case_scores: same 10 rows count, different values",
    )
