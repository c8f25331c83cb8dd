"""CSV, JSON Lines, JSON and gzip sources, column mapping and content ids (issue 23): every
copy of a cases table scores as its Parquet file does, through the same contract, quarantine
and per-batch commits; rows in = scored + invalid + pending + quarantined in every run."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import duckdb
import polars as pl
import pytest

from faith_udfs.errors import ConfigError
from flows.errors import InputUnreadable
from flows.read.read_options import ReadOptions, parse_columns
from flows.read.source import resolve_source
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import many_cases, write
from tests.support.cli_run import faith_here
from tests.support.db_reading import query

SCORES = "SELECT case_id, score, success, n_claims, n_yes, n_no, n_idk, status FROM case_scores"


def _balanced(run: dict) -> None:
    assert run["rows_in"] == (
        run["rows_scored"] + run["rows_invalid"] + run["rows_pending"] + run["rows_quarantined"]
    )


def _as_text_lists(frame: pl.DataFrame, column: str = "retrieval_context") -> pl.DataFrame:
    """The cases with their passages as JSON text, as a CSV holds a list."""
    texts = [json.dumps(v) for v in frame[column].to_list()]
    return frame.with_columns(pl.Series(column, texts, dtype=pl.String))


def _copies(frame: pl.DataFrame, folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = {
        "parquet": write(frame, folder / "cases.parquet"),
        "csv": folder / "cases.csv",
        "jsonl": folder / "cases.jsonl",
        "ndjson.gz": folder / "cases.ndjson.gz",
        "csv.gz": folder / "cases.csv.gz",
        "json": folder / "cases.json",
    }
    _as_text_lists(frame).write_csv(paths["csv"])
    frame.write_ndjson(paths["jsonl"])
    paths["ndjson.gz"].write_bytes(gzip.compress(paths["jsonl"].read_bytes()))
    paths["csv.gz"].write_bytes(gzip.compress(paths["csv"].read_bytes()))
    frame.write_json(paths["json"])  # one JSON array of objects
    return paths


def _score(source: Path | str, db: Path, **options: object) -> dict:
    options.setdefault("max_quarantine_share", None)  # test_quarantine_share.py's subject
    run = run_score(ScoreSettings(source=str(source), db=str(db), **options))
    _balanced(run)
    return run


def test_csv_jsonl_json_and_gzip_copies_score_as_the_parquet_file(tmp_path: Path) -> None:
    frame = many_cases(60)
    paths = _copies(frame, tmp_path / "logs")
    expected = None
    for name, path in paths.items():
        db = tmp_path / f"{name}.duckdb"
        run = _score(path, db, batch_size=25)
        assert (run["rows_in"], run["rows_scored"], run["batches"]) == (60, 60, 3), name
        scores = sorted(query(db, SCORES))
        expected = expected or scores
        assert scores == expected, name
    assert len(expected) == 60


def test_a_json_file_of_mixed_types_reads_each_text_as_a_clean_file_does(tmp_path: Path) -> None:
    """One answer logged as a number makes read_json type the column JSON: the others must
    still read as their text, not as JSON with its quotes (and keep their content hash)."""
    frame = many_cases(3).with_columns(pl.col("logged_at").dt.strftime("%Y-%m-%dT%H:%M:%S"))
    clean = tmp_path / "clean.jsonl"
    frame.write_ndjson(clean)
    rows = [json.loads(line) for line in clean.read_text().splitlines()]
    mixed = tmp_path / "mixed.jsonl"
    odd = {**rows[0], "case_id": "odd", "actual_output": 42, "input": 7}
    mixed.write_text("".join(json.dumps(row) + "\n" for row in [*rows, odd]))
    compared = "SELECT case_id, input, actual_output, content_hash FROM case_scores"
    _score(clean, tmp_path / "clean.duckdb")
    run = _score(mixed, tmp_path / "mixed.duckdb")
    assert (run["rows_in"], run["rows_scored"]) == (4, 4)
    found = query(tmp_path / "mixed.duckdb", compared + " WHERE case_id <> 'odd' ORDER BY 1")
    assert found == query(tmp_path / "clean.duckdb", compared + " ORDER BY 1")
    odd_row = query(tmp_path / "mixed.duckdb", compared + " WHERE case_id = 'odd'")
    assert odd_row[0][1:3] == ("7", "42")


def test_a_folder_or_glob_of_csv_files_is_read_as_for_parquet(tmp_path: Path) -> None:
    frame = many_cases(30)
    for part in range(3):
        folder = tmp_path / "logs" / f"day={part}"
        folder.mkdir(parents=True)
        _as_text_lists(frame.slice(part * 10, 10)).write_csv(folder / "cases.csv")
    run = _score(tmp_path / "logs", tmp_path / "folder.duckdb")
    assert (run["rows_in"], run["rows_scored"]) == (30, 30)
    days = query(tmp_path / "folder.duckdb", "SELECT DISTINCT segments ->> 'day' FROM case_scores")
    assert sorted(day for (day,) in days) == ["0", "1", "2"]
    run = _score(str(tmp_path / "logs" / "*" / "*.csv"), tmp_path / "glob.duckdb")
    assert run["rows_scored"] == 30


def test_format_reads_a_file_whatever_its_name(tmp_path: Path) -> None:
    path = tmp_path / "export.log"
    many_cases(5).write_ndjson(path)
    # the line says what to do: a .log or .tsv export was "a corrupt Parquet file"
    with pytest.raises(InputUnreadable, match=r"not a readable Parquet file.*--format csv"):
        resolve_source(path)
    run = _score(path, tmp_path / "db.duckdb", format="ndjson")
    assert run["rows_scored"] == 5


@pytest.mark.parametrize(
    ("column", "kind", "said"),
    [
        ("retrieval_context", "list_view", "list_view<element: string> (an Arrow list view)"),
        ("revenue", "decimal", "decimal256(40, 2) (a decimal of more than 38 digits)"),
    ],
)
def test_a_parquet_column_of_a_type_the_reader_lacks_is_named_with_what_to_write_instead(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], column: str, kind: str, said: str
) -> None:
    """pyarrow writes list views, BigQuery its BIGNUMERIC as decimals of 76 digits: polars
    panicked on the first ("not yet implemented", a Rust trace on stderr, the error naming
    the case_id column) and refused the second naming no column, a segment failing the run."""
    import decimal

    import pyarrow as pa
    import pyarrow.parquet as pq

    table = many_cases(3).to_arrow()
    if kind == "list_view":
        passages = many_cases(3)["retrieval_context"].to_list()
        views = pa.array(passages, pa.list_view(pa.string()))
        table = table.set_column(table.schema.get_field_index(column), column, views)
    else:
        wide = pa.array([decimal.Decimal("1.50")] * 3, pa.decimal256(40, 2))
        table = table.append_column(column, wide)
    pq.write_table(table, tmp_path / "odd.parquet")
    db = tmp_path / "f.duckdb"
    done = faith_here(
        capfd, "score", str(tmp_path / "odd.parquet"), "--db", str(db), "--prefect", "no"
    )
    assert done.returncode == 3
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"error: {tmp_path / 'odd.parquet'}: column {column} is typed {said}, ")
    assert "which faithpipe's Parquet reader cannot read: " in line
    assert not db.exists()


def test_a_table_of_turns_with_a_list_view_or_a_wide_decimal_is_read(tmp_path: Path) -> None:
    """Conversations are read by DuckDB, which reads both (a list view as a list, a decimal
    of 40 digits as a double): a log scored every night was refused (exit 3) as if polars,
    which reads a cases table, read it."""
    import decimal

    import pyarrow as pa
    import pyarrow.parquet as pq

    passages = [None, ["The parcel ships from Leeds."]]
    table = pa.table(
        {
            "conversation_id": ["c", "c"],
            "turn": [1, 2],
            "role": ["user", "assistant"],
            "content": ["Where does it ship from?", "It ships from Leeds."],
            "retrieval_context": pa.array(passages, pa.list_view(pa.string())),
            "logged_at": ["2026-11-01T09:00:00"] * 2,
            "revenue": pa.array([decimal.Decimal("1.50")] * 2, pa.decimal256(40, 2)),
        }
    )
    pq.write_table(table, tmp_path / "turns.parquet")
    run = run_score(
        ScoreSettings(source=str(tmp_path / "turns.parquet"), db=str(tmp_path / "f.duckdb"))
    )
    assert (run["rows_in"], run["rows_scored"]) == (1, 1)


@pytest.mark.parametrize("forced", ["csv", "json", "ndjson"])
def test_a_parquet_file_forced_to_be_text_is_named_a_parquet_file(
    tmp_path: Path, forced: str
) -> None:
    """Read as CSV it was "not UTF-8 text … iconv -f WINDOWS-1252", as JSON "malformed"."""
    path = write(many_cases(3), tmp_path / "cases.parquet")
    with pytest.raises(InputUnreadable, match=r"a Parquet file \(it starts with PAR1\), not "):
        _score(path, tmp_path / "db.duckdb", format=forced)
    assert not (tmp_path / "db.duckdb").exists()


def test_a_text_file_forced_to_be_parquet_is_told_its_name_says_otherwise(tmp_path: Path) -> None:
    """It was told that "a file whose name says no format is read as Parquet", of a .csv."""
    path = tmp_path / "cases.csv"
    _as_text_lists(many_cases(3)).write_csv(path)
    with pytest.raises(InputUnreadable, match=r"its name says CSV: score it without --format"):
        _score(path, tmp_path / "db.duckdb", format="parquet")


def test_a_csv_cell_that_is_not_a_json_list_is_quarantined_with_its_text(tmp_path: Path) -> None:
    frame = _as_text_lists(many_cases(4))
    texts = frame["retrieval_context"].to_list()
    texts[1], texts[2] = "Order A17 shipped on 3 March.", '["fine", 3]'
    path = tmp_path / "cases.csv"
    frame.with_columns(pl.Series("retrieval_context", texts)).write_csv(path)
    run = _score(path, tmp_path / "db.duckdb")
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (4, 2, 2)
    found = query(tmp_path / "db.duckdb", 'SELECT "check", value FROM quarantine ORDER BY value')
    assert found == [
        ("retrieval_context_not_a_list_of_strings", "Order A17 shipped on 3 March."),
        ("retrieval_context_not_a_list_of_strings", '["fine", 3]'),
    ]


def test_columns_map_other_names_and_content_ids_are_stable(tmp_path: Path) -> None:
    frame = many_cases(12).rename(
        {
            "input": "question",
            "actual_output": "answer",
            "retrieval_context": "contexts",
            "logged_at": "ts",
        }
    )
    source = write(frame.drop("case_id"), tmp_path / "logs.parquet")
    mapping = "input=question,actual_output=answer,retrieval_context=contexts,logged_at=ts"
    with pytest.raises(
        InputUnreadable, match=r"question2 \(--columns input=\.\.\.\).*--case-id content"
    ):
        resolve_source(source, ReadOptions(columns={"input": "question2"}))
    db = tmp_path / "db.duckdb"
    first = _score(source, db, columns=mapping, case_id="content")
    assert (first["rows_in"], first["rows_newly_scored"]) == (12, 12)
    # The same rows delivered again (from CSV, one of them twice): the same ids, nothing new.
    again = pl.concat([frame.drop("case_id"), frame.drop("case_id").head(1)])
    again = _as_text_lists(again, "contexts")
    again.write_csv(tmp_path / "again.csv")
    second = _score(tmp_path / "again.csv", db, columns=mapping, case_id="content")
    assert (second["rows_in"], second["rows_already_scored"]) == (13, 12)
    assert (second["rows_newly_scored"], second["rows_quarantined"]) == (0, 1)
    copies = query(db, 'SELECT "check" FROM quarantine')
    assert copies == [("duplicate_case_id_exact_copy",)]
    ids = [case_id for (case_id,) in query(db, "SELECT case_id FROM case_scores")]
    assert len(set(ids)) == 12
    assert all(len(case_id) == 32 for case_id in ids)


# Headers as exports spell them: a contract column in another case, and a mapped one too.
SPELLED = {"case_id": "Case_ID", "input": "INPUT", "actual_output": "Actual_Output"}
# (and `TS` where `--columns logged_at=ts` maps it)


def test_contract_columns_in_another_case_are_read_under_their_contract_names(
    tmp_path: Path,
) -> None:
    """`Case_ID`, `INPUT`, `Actual_Output` were no contract columns: the file was refused
    ('missing required columns case_id, input, ...'). Each format, its repeated case_id too."""
    frame = many_cases(6)
    frame = pl.concat([frame, frame.slice(1, 1)])  # c00001 twice: the case_id pre-pass reads it
    _score(write(frame, tmp_path / "plain.parquet"), tmp_path / "plain.duckdb")
    expected = sorted(query(tmp_path / "plain.duckdb", SCORES))
    copies = _copies(frame.rename(SPELLED | {"logged_at": "TS"}), tmp_path / "spelled")
    for name in ("csv", "json", "parquet"):
        db = tmp_path / f"{name}.duckdb"
        run = _score(copies[name], db, columns={"logged_at": "ts"})
        assert (run["rows_scored"], run["rows_quarantined"]) == (6, 1), name
        assert sorted(query(db, SCORES)) == expected, name
        assert query(db, 'SELECT "check" FROM quarantine') == [("duplicate_case_id_exact_copy",)]


def test_two_columns_differing_only_in_case_for_one_contract_column_are_exit_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Which of `Input` and `INPUT` is the question cannot be told: one line names both, as
    DuckDB reads a CSV header (it names the second `INPUT_1`), and what to do, which works."""
    source = tmp_path / "logs.csv"
    frame = _as_text_lists(many_cases(2)).rename({"input": "Input"})
    frame.with_columns(INPUT=pl.col("Input") + "?").write_csv(source)
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no")
    assert done.returncode == 3
    assert done.stderr.strip().splitlines() == [
        f"error: {source}: columns Input and INPUT_1 differ only in case, so which one is input "
        "cannot be told: drop or rename one, or name it with --columns input=INPUT_1"
    ]
    assert not db.exists()
    run = _score(source, db, columns={"input": "INPUT_1"})
    assert (run["rows_scored"], run["rows_quarantined"]) == (2, 0)
    inputs = query(db, "SELECT input FROM case_scores ORDER BY case_id")
    assert [i for (i,) in inputs] == [q + "?" for q in frame.sort("case_id")["Input"]]
    # `input` after a blank `Input` (a pandas export): the question is not guessed either,
    # where it was read from the blank column (a review, 2026-12-06)
    frame.with_columns(input=pl.col("Input"), Input=pl.lit(" ")).write_csv(source)
    done = faith_here(capsys, "score", str(source), "--db", str(tmp_path / "g.duckdb"))
    assert done.returncode == 3
    assert "columns Input and input_1 differ only in case" in done.stderr


def test_a_contract_column_named_twice_in_a_csv_header_is_exit_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A header `...,actual_output,...,actual_output` (two exports joined, each with its answer
    column): DuckDB names the second `actual_output_1`, and the run scored the first without a
    word, the other a segment. Which one is the answer cannot be told, as of `Input` and
    `INPUT`, or of a JSON object holding a key twice: exit 3 naming it, nothing written. A
    column of the file's own named `actual_output_1`, or a segment named twice, still reads."""
    source = tmp_path / "logs.csv"

    def header_ending(last: str) -> None:  # the file's last column named `last`
        frame = _as_text_lists(many_cases(2)).with_columns(extra=pl.lit("A reworded answer."))
        header, rows = frame.write_csv().split("\n", 1)
        source.write_text(header.removesuffix("extra") + last + "\n" + rows)

    header_ending("actual_output")
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no")
    assert done.returncode == 3
    assert done.stderr.strip().splitlines() == [
        f"error: {source}: column actual_output is named twice in the header line, so which one "
        "is actual_output cannot be told: drop or rename one"
    ]
    assert not db.exists()
    for last in ("actual_output_1", "app_version"):
        header_ending(last)
        run = _score(source, tmp_path / f"{last}.duckdb")
        assert (run["rows_scored"], run["rows_quarantined"]) == (2, 0), last


def test_a_bad_mapping_is_a_settings_error() -> None:
    assert parse_columns("input=question, logged_at = ts") == {
        "input": "question",
        "logged_at": "ts",
    }
    with pytest.raises(ValueError, match="CONTRACT_NAME=SOURCE_COLUMN"):
        parse_columns("input")
    with pytest.raises(ValueError, match="not a contract column"):
        ScoreSettings(source="x", columns={"question": "input"})
    with pytest.raises(ValueError, match="--format"):
        ScoreSettings(source="x", format="xml")
    # one column as two: the rename kept one, and the other was quarantined row by row as null
    with pytest.raises(ValueError, match="input=text, actual_output=text: one column cannot be"):
        ScoreSettings(source="x", columns=parse_columns("input=text,actual_output=text"))
    # one contract column named twice: the last mapping was taken, the first dropped unsaid
    with pytest.raises(ValueError, match="--columns input: named twice, as model and question"):
        parse_columns("input=model,input=question")
    assert parse_columns("input=question,input=question") == {"input": "question"}


def test_repeated_case_ids_in_a_csv_follow_the_duplicate_rule(tmp_path: Path) -> None:
    frame = many_cases(6)
    conflicting = frame.head(1).with_columns(actual_output=pl.lit("Order A17 was cancelled."))
    rows = pl.concat([frame, frame.slice(1, 1), conflicting])  # c00001 copied, c00000 differs
    _as_text_lists(rows).write_csv(tmp_path / "cases.csv")
    run = _score(tmp_path / "cases.csv", tmp_path / "db.duckdb")
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (8, 5, 3)
    found = query(tmp_path / "db.duckdb", 'SELECT "check", case_id FROM quarantine ORDER BY ALL')
    assert found == [
        ("duplicate_case_id_conflict", "c00000"),
        ("duplicate_case_id_conflict", "c00000"),
        ("duplicate_case_id_exact_copy", "c00001"),
    ]


def test_the_dask_engine_refuses_what_it_cannot_read_before_touching_anything(
    tmp_path: Path,
) -> None:
    from flows.engines.dask_run import run_score_on_dask

    frame = many_cases(3)
    _as_text_lists(frame).write_csv(tmp_path / "cases.csv")
    write(frame, tmp_path / "cases.parquet")
    refused = [
        ScoreSettings(source=str(tmp_path / "cases.csv"), engine="dask", workers=1),
        ScoreSettings(
            source=str(tmp_path / "cases.parquet"), engine="dask", workers=1, case_id="content"
        ),
    ]
    for settings in refused:
        with pytest.raises(ConfigError, match="--engine dask reads one Parquet cases table"):
            run_score_on_dask(settings.model_copy(update={"db": str(tmp_path / "x.duckdb")}), None)  # type: ignore[arg-type]
    assert not (tmp_path / "x.duckdb").exists()


def test_a_csv_written_by_duckdb_copy_scores_as_the_parquet_file(tmp_path: Path) -> None:
    frame = many_cases(20).with_columns(
        retrieval_context=pl.concat_list(
            pl.col("retrieval_context"), pl.lit(['Refunds, if any, take 5 days; it\'s "fine".'])
        )
    )
    parquet = write(frame, tmp_path / "cases.parquet")
    con = duckdb.connect()
    con.execute(f"COPY (SELECT * FROM '{parquet}') TO '{tmp_path / 'cases.csv'}'")
    con.close()
    _score(parquet, tmp_path / "parquet.duckdb")
    run = _score(tmp_path / "cases.csv", tmp_path / "csv.duckdb")
    assert (run["rows_in"], run["rows_scored"]) == (20, 20)
    assert sorted(query(tmp_path / "csv.duckdb", SCORES)) == sorted(
        query(tmp_path / "parquet.duckdb", SCORES)
    )


def test_a_folder_skips_metadata_json_beside_its_parquet(tmp_path: Path) -> None:
    write(many_cases(4), tmp_path / "table" / "part-0.parquet")
    log = tmp_path / "table" / "_delta_log"
    log.mkdir()
    (log / "00000000000000000000.json").write_text('{"commitInfo": {}}\n')
    (tmp_path / "table" / ".part-0.crc.json").write_text("{}\n")
    source = resolve_source(tmp_path / "table")
    assert [path.name for path in source.all_files] == ["part-0.parquet"]


def test_a_csv_header_with_spaces_and_a_repeated_name_scores_as_before(tmp_path: Path) -> None:
    """`case_id, input, ...` (a space after each comma) with `passage` and `passage_1`, a
    name as DuckDB suffixes one: DuckDB trims the names, and nothing is read again (a review
    found such a file refused, missing every column, 2026-12-06)."""
    frame = _as_text_lists(many_cases(2)).with_columns(passage=pl.lit("a"), passage_1=pl.lit("b"))
    source = tmp_path / "logs.csv"
    body = frame.write_csv(include_header=False)
    source.write_text(f"{', '.join(frame.columns)}\n{body}")
    run = _score(source, tmp_path / "f.duckdb")
    assert (run["rows_scored"], run["rows_quarantined"]) == (2, 0)


def test_an_answer_or_passage_of_control_characters_alone_is_blank(tmp_path: Path) -> None:
    """A NUL written for a missing answer (a C string cut at its first byte, a zeroed buffer)
    has nothing to read: it was scored, its one claim `\\0` idk, score 1.0 and passing."""
    source = tmp_path / "cases.jsonl"
    rows = [
        ("ok", "Order A17 shipped on 3 March.", ["Order A17 shipped on 3 March."]),
        ("nul", "\u0000", ["Order A17 shipped on 3 March."]),
        ("controls", "\u0000\u0007 \u007f", ["Order A17 shipped on 3 March."]),
        ("nul passage", "Order A17 shipped on 3 March.", ["Order A17 shipped.", "\u0000"]),
        ("inner nul", "Order A17\u0000 shipped on 3 March.", ["Order A17 shipped on 3 March."]),
    ]
    source.write_text(
        "".join(
            json.dumps(
                {
                    "case_id": case_id,
                    "input": "Where is A17?",
                    "actual_output": answer,
                    "retrieval_context": passages,
                    "logged_at": "2026-11-01",
                }
            )
            + "\n"
            for case_id, answer, passages in rows
        )
    )
    db = tmp_path / "f.duckdb"
    run = run_score(ScoreSettings(source=str(source), db=str(db), max_quarantine_share=None))
    _balanced(run)
    assert query(db, 'SELECT case_id, "check" FROM quarantine ORDER BY 1') == [
        ("controls", "actual_output_not_blank"),
        ("nul", "actual_output_not_blank"),
        ("nul passage", "no_null_or_blank_passages"),
    ]
    assert query(db, "SELECT case_id FROM case_scores ORDER BY 1") == [("inner nul",), ("ok",)]
