"""A row too large to score is quarantined with its own check before anything hashes or
judges it, and DuckDB's memory for hashing stays bounded whatever a batch holds (issue 22,
item 2): a 50 MB answer ended `faith score` with exit 1 and an out-of-memory every night."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import duckdb
import polars as pl
import pytest

from flows.cli import main
from flows.cli.commands import failure
from flows.errors import InputUnreadable
from flows.run import pipeline
from flows.run.batches import classify
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from flows.store import db as store_db
from flows.store.content_hash import _HASH_SLICE_BYTES, content_hashes, hashable_slices
from schemas import SizeLimits, validate_cases
from tests.support.builders import case_row, cases, write
from tests.support.db_reading import query

MB = 1_000_000


def big_answer(size: int) -> str:
    sentence = "Order A17 shipped on 3 March. "
    return sentence * (size // len(sentence) + 1)


def counted(run: dict) -> int:
    return run["rows_scored"] + run["rows_invalid"] + run["rows_pending"] + run["rows_quarantined"]


def test_a_50_mb_answer_is_quarantined_as_too_large_and_the_night_completes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [case_row("huge", big_answer(50 * MB))] + [case_row(f"c{i}") for i in range(3)]
    source = write(cases(rows), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    code = main(
        [
            "score",
            str(source),
            "--db",
            str(db),
            "--prefect",
            "no",
            "--judge",
            "lexical",
            "--max-quarantine-share",
            "1",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err  # was 1: OutOfMemoryException ... 512.0 MiB
    assert "4 rows in = 3 scored (3 new) + 0 invalid + 0 pending + 1 quarantined" in out
    ((check, value, kept),) = query(db, 'SELECT "check", value, length(row_json) FROM quarantine')
    assert check == "actual_output_too_large"
    size = len(big_answer(50 * MB))
    assert value == f"{size} bytes, more than --max-answer-bytes {SizeLimits().answer_bytes}"
    assert kept < 4_000  # its start and its size, not 50 MB
    assert query(db, "SELECT count(*) FROM case_scores") == [(3,)]


def test_a_csv_line_past_duckdbs_2_mb_default_is_quarantined_not_the_file(tmp_path: Path) -> None:
    """DuckDB refuses a CSV whose line passes its max_line_size (2 MB unless told): the whole
    file was exit 3, where a JSON or Parquet row as large is quarantined alone."""
    rows = [case_row("long", big_answer(3 * MB))] + [case_row(f"c{i}") for i in range(3)]
    as_json = pl.col("retrieval_context").map_elements(
        lambda passages: json.dumps(list(passages)), return_dtype=pl.String
    )
    frame = cases(rows).with_columns(as_json)
    frame.write_csv(tmp_path / "cases.csv")
    settings = ScoreSettings(
        source=str(tmp_path / "cases.csv"),
        db=str(tmp_path / "f.duckdb"),
        max_quarantine_share=None,
    )
    run = run_score(settings)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (4, 3, 1)
    assert query(tmp_path / "f.duckdb", 'SELECT "check" FROM quarantine') == [
        ("actual_output_too_large",)
    ]


@pytest.mark.parametrize("name", ["cases.jsonl", "cases.json"])
def test_a_json_record_past_duckdbs_default_is_quarantined_not_the_file(
    tmp_path: Path, name: str
) -> None:
    """DuckDB's JSON readers refuse a file holding a record past their maximum_object_size
    (16 MiB unless told; a record up to twice that was read): a JSON log with one 40 MB answer
    was exit 3, where the same row from Parquet is quarantined alone (docs/hardening.md)."""
    # last: a huge first record is read by DuckDB ~10x slower (~20 s a pass here)
    rows = [case_row(f"c{i}") for i in range(3)] + [case_row("long", big_answer(40 * MB))]
    for row in rows:
        row["logged_at"] = "2026-11-01"
    source = tmp_path / name
    if name == "cases.json":  # an array
        source.write_text(json.dumps(rows))
    else:
        source.write_text("".join(json.dumps(row) + "\n" for row in rows))
    settings = ScoreSettings(
        source=str(source), db=str(tmp_path / "f.duckdb"), max_quarantine_share=None
    )
    run = run_score(settings)  # was InputUnreadable: "maximum_object_size" of 16777216 bytes
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (4, 3, 1)
    assert query(tmp_path / "f.duckdb", 'SELECT "check" FROM quarantine') == [
        ("actual_output_too_large",)
    ]


def test_twenty_5_mb_answers_in_one_batch_are_each_quarantined(tmp_path: Path) -> None:
    rows = [case_row(f"big{i}", big_answer(5 * MB) + str(i)) for i in range(20)]
    rows += [case_row("small", retrieval_context=["x" * 300, "y" * 300])]
    source = write(cases(rows), tmp_path / "cases.parquet")
    settings = ScoreSettings(
        source=str(source),
        db=str(tmp_path / "f.duckdb"),
        judge={"kind": "lexical"},
        max_context_bytes=500,  # the small row's passages hold 600 bytes together
        max_quarantine_share=1.0,  # (test_quarantine_share.py's subject)
    )
    run = run_score(settings)
    assert counted(run) == run["rows_in"] == 21
    assert (run["rows_quarantined"], run["rows_scored"]) == (21, 0)
    checks = query(
        Path(settings.db), 'SELECT "check", count(*) FROM quarantine GROUP BY ALL ORDER BY 1'
    )
    assert checks == [("actual_output_too_large", 20), ("retrieval_context_too_large", 1)]
    # Twenty rows that differ only at their end keep distinct keys.
    assert query(Path(settings.db), "SELECT count(DISTINCT row_key) FROM quarantine") == [(21,)]


def test_the_limits_apply_to_question_answer_and_passages_and_are_settable() -> None:
    frame = cases(
        [
            case_row("a", "x" * 101),
            case_row("q", input="q" * 101),
            case_row("p", retrieval_context=["p" * 150, "p" * 51]),
            case_row("fits", "x" * 100, retrieval_context=["p" * 200]),
        ]
    )
    checked = validate_cases(frame, SizeLimits(answer_bytes=100, context_bytes=200))
    assert checked.valid["case_id"].to_list() == ["fits"]
    assert checked.quarantined.select("case_id", "check").rows() == [
        ("a", "actual_output_too_large"),
        ("q", "input_too_large"),
        ("p", "retrieval_context_too_large"),
    ]
    # UTF-8 bytes, not characters: 34 three-byte characters are 102 bytes.
    accented = validate_cases(cases([case_row("e", "€" * 34)]), SizeLimits(answer_bytes=100))
    assert accented.quarantined["check"].to_list() == ["actual_output_too_large"]
    assert validate_cases(frame).valid.height == 4  # the defaults leave real rows alone


def test_hashing_goes_in_slices_of_bounded_content_with_the_same_hashes() -> None:
    # 40 cases of 5 MB: 200 MB of content in one batch, several slices.
    frame = validate_cases(
        cases([case_row(f"c{i}", big_answer(5 * MB) + str(i)) for i in range(40)]),
        SizeLimits(answer_bytes=6 * MB),
    ).valid
    slices = list(hashable_slices(frame))
    assert len(slices) > 1
    assert sum(piece.height for piece in slices) == 40
    for piece in slices:
        largest = piece["actual_output"].str.len_bytes().max()
        assert piece["actual_output"].str.len_bytes().sum() <= _HASH_SLICE_BYTES + largest
    # Under a memory limit one slice fits in and the whole batch does not.
    con = duckdb.connect(config={"memory_limit": "300MB"})
    try:
        classified = classify(con, frame, "config", stored_before=False)
    finally:
        con.close()
    assert classified["content_hash"].to_list() == content_hashes(frame)["content_hash"].to_list()
    small = validate_cases(cases([case_row(f"s{i}") for i in range(3)])).valid
    assert len(list(hashable_slices(small))) == 1


@pytest.mark.parametrize(
    "error",
    [
        duckdb.OutOfMemoryException("Out of Memory Error: failed to allocate 512.0 MiB"),
    ],
)
def test_a_duckdb_out_of_memory_anywhere_is_exit_7_in_one_line(error: Exception) -> None:
    code, line = failure(error, "f.duckdb")
    assert code == 7
    assert "\n" not in line
    assert "512.0 MiB" in line
    # a commit's, carried by its DatabaseWriteFailed, is not given the reader's advice
    from flows.errors import DatabaseWriteFailed

    try:
        raise DatabaseWriteFailed("batch 3 rolled back: lower --batch-size") from error
    except DatabaseWriteFailed as committed:
        code, line = failure(committed, "f.duckdb")
    assert code == 7
    assert "write it as Parquet" not in line


def test_a_batch_too_large_for_duckdb_to_hash_is_exit_7_not_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With the limits raised past what DuckDB can hash, the run fails as a failed commit."""
    source = write(
        cases([case_row("big", big_answer(int(1.5 * _HASH_SLICE_BYTES)))]), tmp_path / "c.parquet"
    )
    original = store_db.limit_memory

    def tiny(con: duckdb.DuckDBPyConnection, adding: int = 0, writing: int = 0) -> None:
        original(con, adding, writing)
        con.execute("SET memory_limit = '64MB'")

    monkeypatch.setattr(store_db, "limit_memory", tiny)
    monkeypatch.setattr(pipeline, "limit_memory", tiny)
    code = main(
        [
            "score",
            str(source),
            "--db",
            str(tmp_path / "f.duckdb"),
            "--prefect",
            "no",
            "--judge",
            "lexical",
            "--max-answer-bytes",
            f"{200 * MB}",
        ]
    )
    stderr = capsys.readouterr().err
    assert code == 7, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, stderr
    assert "out of memory" in errors[0].lower()
    assert "Traceback" not in stderr
    assert pl.DataFrame(query(tmp_path / "f.duckdb", "SELECT status FROM runs")).item() == "failed"


def test_tight_limits_on_a_real_sized_log_quarantine_rows_not_the_run(tmp_path: Path) -> None:
    """The bundled sample (3,003 rows) with a 100-byte answer limit: polars 2.1 panicked in
    the quarantine's `pl.format` once the frame held its row index and past ~1,000 rows, and
    every run with a limit a team had tightened failed (exit 1)."""
    sample = Path(__file__).resolve().parents[3] / "data" / "sample" / "cases.parquet"
    settings = ScoreSettings(
        source=str(sample),
        db=str(tmp_path / "f.duckdb"),
        max_answer_bytes=100,
        max_context_bytes=60,
        max_quarantine_share=None,
    )
    run = run_score(settings)
    parts = ("rows_scored", "rows_invalid", "rows_pending", "rows_quarantined")
    assert run["rows_in"] == sum(run[part] for part in parts) == 3_003
    assert run["rows_quarantined"] > 2_000
    found = query(
        tmp_path / "f.duckdb",
        'SELECT "check", min(value) FROM quarantine GROUP BY ALL ORDER BY 1',
    )
    assert [check for check, _ in found] == [
        "actual_output_too_large",
        "retrieval_context_too_large",
    ]
    assert found[0][1].endswith(" bytes, more than --max-answer-bytes 100")
    assert found[1][1].endswith(" bytes, more than --max-context-bytes 60")


def test_a_json_record_past_64_mib_is_exit_3_in_one_line_without_its_text(tmp_path: Path) -> None:
    """Past what the readers read, the file is refused (not an out-of-memory, exit 7), the
    line saying what to do."""
    source = tmp_path / "cases.jsonl"
    row = case_row("long", big_answer(70 * MB), logged_at="2026-11-01")
    source.write_text(json.dumps(row) + "\n")
    settings = ScoreSettings(source=str(source), db=str(tmp_path / "f.duckdb"))
    with pytest.raises(InputUnreadable) as raised:
        run_score(settings)
    (line,) = str(raised.value).splitlines()
    assert line.startswith(f"{source}: not a readable JSON file (")
    assert line.endswith("a JSON record past 64 MiB is not read: write the log as Parquet)")
    assert "Order A17" not in line


def test_a_json_lines_log_with_half_a_pair_and_a_40_mb_record_is_mended_and_read(
    tmp_path: Path,
) -> None:
    """A file holding half a UTF-16 pair is read from its mended copy, its keys listed by
    DuckDB's read_json_objects, which ran out of memory on a 40 MB record: the keys were
    then asked of the file itself, which DuckDB refuses for the half pair (exit 3)."""
    rows = [
        case_row("ok", logged_at="2026-11-01"),
        case_row("cut", "Order A17 shipped \ud83d", logged_at="2026-11-01"),
        case_row("long", big_answer(40 * MB), logged_at="2026-11-01"),
    ]
    source = tmp_path / "cases.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows))
    settings = ScoreSettings(
        source=str(source), db=str(tmp_path / "f.duckdb"), max_quarantine_share=None
    )
    run = run_score(settings)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (3, 1, 2)
    assert query(tmp_path / "f.duckdb", 'SELECT case_id, "check" FROM quarantine ORDER BY 1') == [
        ("cut", "actual_output_lone_surrogate"),
        ("long", "actual_output_too_large"),
    ]


def listing(word: str, n: int) -> str:
    """n distinct sentences that share most of their words, as a price list does."""
    return " ".join(f"{word} {i} costs 5 euros." for i in range(n))


def test_a_row_of_many_sentences_against_many_is_quarantined_before_the_judge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The grounded judge weighs each claim against each context sentence: a 74 KB answer of
    3,000 sentences against as many took 2.7 GB in `faith score` (its 200 other rows: 250 MB),
    and an answer and context within the byte limits far more than any machine has."""
    big = case_row("many", listing("Item", 1_100), retrieval_context=[listing("Part", 1_000)])
    rows = [big, *(case_row(f"c{i}") for i in range(3))]
    source = write(cases(rows), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    args = ["score", str(source), "--db", str(db), "--prefect", "no", "--max-quarantine-share", "1"]
    assert main(args) == 0, capsys.readouterr().err
    run = query(db, "SELECT rows_in, rows_scored, rows_quarantined FROM runs")
    assert run == [(4, 3, 1)]
    assert query(db, 'SELECT case_id, "check", value FROM quarantine') == [
        (
            "many",
            "too_many_sentence_pairs",
            "1100 answer sentences x 1000 context sentences, more than --max-sentence-pairs "
            "1000000",
        )
    ]


def test_the_sentence_pairs_limit_counts_list_items_and_passages_and_is_settable() -> None:
    frame = cases(
        [
            case_row("items", "- a\n- b\n- c", retrieval_context=["One. Two.", "Three."]),
            case_row("fits", "One. Two.", retrieval_context=["One. Two.", "Three."]),
            # past its bytes: that check only, as for the others
            case_row("huge", "x" * 101, retrieval_context=["One. Two.", "Three."]),
        ]
    )
    checked = validate_cases(frame, SizeLimits(answer_bytes=100, sentence_pairs=6))
    assert checked.valid["case_id"].to_list() == ["fits"]  # 2 x 3
    assert checked.quarantined.select("case_id", "check").rows() == [
        ("items", "too_many_sentence_pairs"),  # 3 x 3
        ("huge", "actual_output_too_large"),
    ]
    assert validate_cases(frame).valid.height == 3  # the default leaves real rows alone


def test_a_raised_sentence_pairs_limit_lets_the_row_be_scored(tmp_path: Path) -> None:
    """The metric's own guard (score_cases' max_sentence_pairs, 1,000,000 by default) does not
    undo a run's raised --max-sentence-pairs: the contract has checked the rows already."""
    big = case_row("many", listing("Item", 1_100), retrieval_context=[listing("Part", 1_000)])
    source = write(cases([big]), tmp_path / "cases.parquet")
    db = tmp_path / "f.duckdb"
    run = run_score(ScoreSettings(source=str(source), db=str(db), max_sentence_pairs=2_000_000))
    assert (run["rows_scored"], run["rows_invalid"], run["rows_quarantined"]) == (1, 0, 0)
    assert query(db, "SELECT status, error FROM case_scores") == [("scored", None)]


def test_a_count_of_one_sentence_is_said_in_the_singular() -> None:
    """The quarantine said `1 answer sentences x 1 context sentences`."""
    frame = cases(
        [
            case_row("one", "One answer.", retrieval_context=["One. Two."]),
            case_row("two", "One. Two.", retrieval_context=["Three."]),
        ]
    )
    checked = validate_cases(frame, SizeLimits(sentence_pairs=1))
    assert checked.quarantined.select("case_id", "value").rows() == [
        ("one", "1 answer sentence x 2 context sentences, more than --max-sentence-pairs 1"),
        ("two", "2 answer sentences x 1 context sentence, more than --max-sentence-pairs 1"),
    ]


@pytest.mark.parametrize(
    ("where", "answer", "suffix"),
    [
        # DuckDB's sniffer gave up, its strict reader said "Value with unterminated quote"
        ("first", '"' + big_answer(34 * MB).replace('"', '""') + '"', ".csv"),
        # past its buffer, unquoted: "The Parallel CSV Reader currently does not support ..."
        ("first", big_answer(34 * MB).replace(",", ";"), ".csv"),
        # among later lines DuckDB named the size, without what to do
        ("last", big_answer(17 * MB), ".csv"),
        ("first", big_answer(17 * MB), ".csv.gz"),
    ],
    ids=["quoted-first", "unquoted-first", "after-3000-lines", "gzip"],
)
def test_a_csv_line_past_16_mib_is_exit_3_naming_the_line_and_its_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, answer: str, suffix: str
) -> None:
    """A 40 MB answer in a CSV export: the run stops before anything is written (docs/
    hardening.md), and its one line says which line is too long and what to do, not an
    unterminated quote the file does not have."""
    good = [
        f'c{i},Where is A17?,Order A17 shipped.,"[""Order A17 shipped.""]",2026-11-01'
        for i in range(3000)
    ]
    huge = f'big,Where is A17?,{answer},"[""Order A17 shipped.""]",2026-11-01'
    lines = [huge, *good] if where == "first" else [*good, huge]
    text = "case_id,input,actual_output,retrieval_context,logged_at\n" + "\n".join(lines) + "\n"
    source = tmp_path / f"logs{suffix}"
    if suffix.endswith(".gz"):
        source.write_bytes(gzip.compress(text.encode(), compresslevel=1))
    else:
        source.write_text(text)
    number = 2 if where == "first" else 3002
    db = tmp_path / "f.duckdb"
    code = main(["score", str(source), "--db", str(db), "--prefect", "no"])
    err = capsys.readouterr().err
    assert code == 3, err
    (line,) = err.strip().splitlines()
    size = len(huge.encode())
    assert line.startswith(f"error: {source}: ")
    assert line.endswith(
        f"(line {number} is {size:,} bytes: a CSV line past 16 MiB is not read: "
        "write the log as Parquet)"
    ), line
    assert not db.exists()
