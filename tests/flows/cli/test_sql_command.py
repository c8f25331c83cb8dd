"""`faith sql`: a query of your own on the database, with faithpipe's macros, read only, for a
machine without DuckDB's command-line client (`make setup` does not install it)."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import polars as pl
import pytest

from flows.cli import main
from flows.printable import printable
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.builders import many_cases, write
from tests.support.db_reading import frame

PASS_RATES = "SELECT period, scored, passed FROM pass_rates() ORDER BY period"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 cases over several days, scored once; the tests only read it."""
    folder = tmp_path_factory.mktemp("sql")
    source = write(many_cases(40), folder / "cases.parquet")
    path = folder / "faith.duckdb"
    run_score(ScoreSettings(source=str(source), db=str(path)))
    return path


def faith_sql(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["sql", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_docs_first_query_prints_what_duckdb_reads(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = frame(db, PASS_RATES)
    assert expected.height > 1
    code, out, err = faith_sql(capsys, PASS_RATES, "--db", str(db), "--format", "csv")
    assert (code, err) == (0, "")
    printed = pl.read_csv(io.StringIO(out), try_parse_dates=True)
    assert printed.equals(expected.cast(printed.schema))
    code, out, _ = faith_sql(capsys, PASS_RATES, "--db", str(db), "--format", "json")
    assert [json.loads(line)["scored"] for line in out.splitlines()] == expected["scored"].to_list()
    code, out, _ = faith_sql(capsys, PASS_RATES, "--db", str(db))
    assert out.startswith(f"{expected.height} rows\n")
    assert str(expected["period"][0]) in out


def test_a_table_shows_the_first_rows_and_says_how_many_it_left_out(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    query = "SELECT case_id FROM case_scores ORDER BY case_id"
    code, out, _ = faith_sql(capsys, query, "--db", str(db), "--limit", "2")
    lines = out.splitlines()
    assert lines[0] == "40 rows, the first 2 shown (--limit 0 shows all)"
    assert lines[1:] == ["case_id", *frame(db, query)["case_id"][:2]]
    code, out, _ = faith_sql(capsys, query, "--db", str(db), "--format", "csv", "--limit", "3")
    assert out.splitlines() == ["case_id", *frame(db, query)["case_id"][:3]]
    # no rows: the columns all the same, a CSV's header
    code, out, _ = faith_sql(capsys, f"{query} LIMIT 0", "--db", str(db), "--format", "csv")
    assert (code, out) == (0, "case_id\n")


def test_a_query_read_from_stdin(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("SELECT count(*) AS n FROM case_scores;\n"))
    code, out, _ = faith_sql(capsys, "-", "--db", str(db), "--format", "json")
    assert (code, out) == (0, '{"n":40}\n')


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("SELEC 1", 'Parser Error: syntax error at or near "SELEC"'),
        ("SELECT * FROM case_score", "Table with name case_score does not exist!; Did you mean"),
        ("DELETE FROM case_scores", 'Cannot execute statement of type "DELETE"'),
        ("", "QUERY is empty"),
        ("-- pass rates, to do\n", "QUERY holds no statement, only comments"),
    ],
    ids=["syntax", "a-typo-with-duckdbs-hint", "a-write", "empty", "only-a-comment"],
)
def test_a_query_duckdb_refuses_is_one_line_and_exit_2_the_database_unchanged(
    db: Path, capsys: pytest.CaptureFixture[str], query: str, says: str
) -> None:
    before = os.stat(db).st_mtime_ns, frame(db, "SELECT count(*) FROM case_scores")
    code, out, err = faith_sql(capsys, query, "--db", str(db))
    assert code == 2
    (line,) = err.splitlines()
    assert line.startswith("error: ")
    assert says in line
    assert out == ""
    after = os.stat(db).st_mtime_ns, frame(db, "SELECT count(*) FROM case_scores")
    assert before[0] == after[0]
    assert before[1].equals(after[1])


def test_a_database_not_there_is_refused_not_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "typo.duckdb"
    code, _, err = faith_sql(capsys, "SELECT 1", "--db", str(missing))
    assert code == 5
    assert "no such database" in err
    assert not missing.exists()


def test_values_of_any_type_are_printed_in_every_format(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """polars imports no INTERVAL, a CSV holds no list, JSON's keys are text: each was a
    traceback-less exit 1 where DuckDB's client prints them."""
    query = (
        "SELECT INTERVAL 1 DAY AS wait, map([1], ['a']) AS by_number, [1, 2] AS list, "
        "{'k': 1.5::DECIMAL(4, 2)} AS struct, chr(27) || '[2J' AS escape"
    )
    code, out, _ = faith_sql(capsys, query, "--db", str(db))
    assert code == 0
    assert "\\x1b[2J" in out
    assert "\x1b" not in out
    code, out, _ = faith_sql(capsys, query, "--db", str(db), "--format", "csv")
    header, row = out.splitlines()
    assert (code, header) == (0, "wait,by_number,list,struct,escape")
    assert '"[1, 2]"' in row
    code, out, _ = faith_sql(capsys, query, "--db", str(db), "--format", "json")
    (record,) = [json.loads(line) for line in out.splitlines()]
    assert record["list"] == [1, 2]
    assert record["escape"] == "\x1b[2J"


@pytest.mark.parametrize(
    "value",
    [
        "[INTERVAL 1 DAY, INTERVAL 90 MINUTE]",
        "{'waited': INTERVAL 3 DAY}",
        "MAP {1: INTERVAL 1 MONTH}",
        "encode('a' || chr(0) || 'b')",
        "'101'::BIT",
        "union_value(k := 1)",
        "[union_value(k := 1)]",
        "12345678901234567890123456789012345678901234::VARINT",
        "'infinity'::DATE",
        "'-infinity'::TIMESTAMP",
        "'infinity'::TIMESTAMPTZ",
        "DATE '12000-01-01'",
        "TIME '24:00:00'",
        "TIMETZ '10:00:00+05'",
        "TIMESTAMP '2026-10-01 12:00:00.5'",
    ],
    ids=[
        "list-of-intervals",
        "struct-of-an-interval",
        "map-to-intervals",
        "blob",
        "bit",
        "union",
        "list-of-unions",
        "bignum",
        "infinite-date",
        "minus-infinite-timestamp",
        "infinite-timestamptz",
        "year-12000",
        "midnight-at-24",
        "time-with-its-offset",
        "a-plain-timestamp",
    ],
)
@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_a_value_polars_cannot_take_is_printed_as_duckdbs_text(
    db: Path, capsys: pytest.CaptureFixture[str], value: str, fmt: str
) -> None:
    """A list of intervals or an infinite date made polars panic (a Rust backtrace, exit 1),
    a BLOB or a BIT could not be written as CSV or JSON, a year past 9999 was a ValueError as
    a table, `TIME '24:00:00'` came out empty and a TIMETZ without its offset: each is
    printed as DuckDB's client prints it."""
    (text,) = frame(db, f"SELECT CAST({value} AS VARCHAR) AS t")["t"]
    code, out, err = faith_sql(
        capsys, f"SELECT 1 AS n, {value} AS v", "--db", str(db), "--format", fmt
    )
    assert (code, err) == (0, "")
    if fmt == "json":
        assert [json.loads(line) for line in out.splitlines()] == [{"n": 1, "v": text}]
    elif fmt == "csv":
        assert pl.read_csv(io.StringIO(out), infer_schema=False).rows() == [("1", text)]
    else:
        assert out.splitlines()[-1].split(maxsplit=1) == ["1", printable(text)]


def test_a_file_of_statements_ending_in_a_comment_prints_its_last_result(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A .sql file as people write them: statements, each with its `;`, and a comment last.
    Its result, an interval cast to text, was read again with the `; -- …` tail: exit 2."""
    query = "SELECT 1 AS n;\nSELECT [INTERVAL 1 DAY] AS waited; -- the last one ; /* done */\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(query))
    code, out, err = faith_sql(capsys, "-", "--db", str(db), "--format", "json")
    assert (code, err) == (0, "")
    assert [json.loads(line) for line in out.splitlines()] == [{"waited": "[1 day]"}]


@pytest.mark.parametrize(
    "query",
    [
        "SELECT 'Zürich' AS c",
        "SELECT count(*) AS n FROM case_scores WHERE input <> 'Besançon' AND n_claims > 0",
        "SELECT [INTERVAL 1 DAY] AS waited, 'é' AS city; -- fini, à demain\n",
    ],
    ids=["a-city", "a-filter", "a-tail-after-the-text"],
)
def test_a_query_with_letters_beyond_ascii_runs(
    db: Path, capsys: pytest.CaptureFixture[str], query: str
) -> None:
    """DuckDB's tokenizer counts bytes, the query's tail was cut by characters: any query
    with an `é` near its end was `IndexError: string index out of range` (exit 1)."""
    expected = frame(db, query.partition(";")[0].replace("[INTERVAL 1 DAY]", "'[1 day]'"))
    code, out, err = faith_sql(capsys, query, "--db", str(db), "--format", "json")
    assert (code, err) == (0, "")
    assert [json.loads(line) for line in out.splitlines()] == expected.to_dicts()


def test_a_query_file_not_in_utf8_is_one_line_and_exit_2(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A .sql file saved as Latin-1 (`'Zürich'` as the byte 0xFC) reaches Python as a lone
    surrogate: it was `UnicodeEncodeError: 'utf-8' codec can't encode ...` (exit 1)."""
    latin1 = "SELECT count(*) AS n FROM case_scores WHERE input <> 'Zürich';\n".encode("latin-1")
    stdin = io.TextIOWrapper(io.BytesIO(latin1), encoding="utf-8", errors="surrogateescape")
    monkeypatch.setattr("sys.stdin", stdin)
    code, out, err = faith_sql(capsys, "-", "--db", str(db))
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        "error: QUERY is not UTF-8 text (the byte 0xfc, character 56 of the query): "
        "save it as UTF-8"
    ]


def test_a_join_of_two_tables_with_a_column_of_one_name_prints_both(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`SELECT *` of a join holds `config_id` twice: polars refused it (DuplicateError, exit
    1); the second is named as DuckDB names it in a table (`config_id_1`)."""
    query = (
        "SELECT * FROM (SELECT config_id, count(*) AS n FROM case_scores GROUP BY 1) AS c "
        "JOIN metric_configs AS m ON c.config_id = m.config_id"
    )
    (config,) = frame(db, "SELECT config_id FROM metric_configs")["config_id"]
    code, out, err = faith_sql(capsys, query, "--db", str(db), "--format", "json")
    assert (code, err) == (0, "")
    (record,) = [json.loads(line) for line in out.splitlines()]
    assert (record["config_id"], record["n"], record["config_id_1"]) == (config, 40, config)


def test_a_sum_of_counts_is_a_json_number(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """DuckDB's sum of a BIGINT is a HUGEINT, which came out as a string (`"scored":"40"`):
    `jq '.passed / .scored'` failed on it. A whole number is a JSON number."""
    query = "SELECT sum(passed) AS passed, sum(scored) AS scored FROM pass_rates()"
    passed, scored = frame(db, query).row(0)
    code, out, err = faith_sql(capsys, query, "--db", str(db), "--format", "json")
    assert (code, err) == (0, "")
    (record,) = [json.loads(line) for line in out.splitlines()]
    assert (record["passed"], record["scored"]) == (passed, scored)
    assert isinstance(record["scored"], int)
    assert scored == 40


def test_a_value_duckdb_refuses_after_the_first_rows_is_exit_2_as_any_refusal(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CAST that fails on a row far into the result is raised while the rows are read,
    through the Arrow reader, as an OSError: it was exit 1 (`error: OSError: Conversion
    Error …`), not the query's exit 2."""
    query = (
        "SELECT CAST(CASE WHEN range = 900000 THEN '2.4.0' ELSE range::VARCHAR END AS INTEGER) "
        "AS n FROM range(1000000)"
    )
    code, _, err = faith_sql(capsys, query, "--db", str(db), "--format", "csv")
    assert code == 2
    assert err.splitlines() == [
        "error: the query failed: Conversion Error: Could not convert string '2.4.0' to INT32"
    ]


def test_a_blob_is_printed_as_duckdb_writes_it_in_every_format(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A BLOB (a hash, a payload column) was `ComputeError: datatype binary cannot be written
    to CSV` (exit 1) as CSV, and a Rust panic with its backtrace as JSON."""
    query = "SELECT 'a\\x00\\x5C'::BLOB AS payload, ['b'::BLOB] AS payloads"
    expected = frame(db, "SELECT 'a\\x00\\x5C'::BLOB::VARCHAR AS text")["text"][0]
    assert expected == "a\\x00\\x5C"
    code, out, err = faith_sql(capsys, query, "--db", str(db), "--format", "csv")
    assert (code, err) == (0, "")
    assert out.splitlines() == ["payload,payloads", f"{expected},[b]"]  # DuckDB's texts
    code, out, err = faith_sql(capsys, query, "--db", str(db), "--format", "json")
    assert (code, err) == (0, "")
    assert json.loads(out) == {"payload": expected, "payloads": "[b]"}
    code, out, err = faith_sql(capsys, query, "--db", str(db))
    assert (code, err) == (0, "")
    assert expected in out


def test_a_query_of_comments_alone_is_refused_as_one_with_no_statement(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A query file all commented out printed `ValueError: cannot concat empty list` (exit 1)
    as a table, and nothing (exit 0) as CSV: said as an empty QUERY is (exit 2)."""
    for fmt in ("table", "csv", "json"):
        code, out, err = faith_sql(capsys, "-- SELECT 1", "--db", str(db), "--format", fmt)
        assert (code, out) == (2, "")
        assert err.startswith("error: QUERY holds no statement, only comments")


def test_every_query_the_docs_and_the_help_name_runs(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/sql.md and `faith sql --help` offered `SELECT * FROM failing_claims`, a view
    no faithpipe database has (`Catalog Error: Table with name failing_claims does not
    exist!`, exit 2)."""
    import re

    from flows.cli.commands import build_parser

    docs = (Path(__file__).resolve().parents[3] / "docs" / "sql.md").read_text()
    queries = re.findall(r'^faith sql "([^"]+)"', docs, flags=re.MULTILINE)
    assert len(queries) >= 2
    for query in queries:
        code, _, err = faith_sql(capsys, query, "--db", str(db), "--format", "csv")
        assert (code, err) == (0, ""), query
    (sql_parser,) = [
        action.choices["sql"]
        for action in build_parser()._actions
        if isinstance(getattr(action, "choices", None), dict)
    ]
    named = re.search(r"\(((?:\w+(?:\(\))?, )+)\.\.\.\)", sql_parser.description)
    assert named is not None
    for name in filter(None, named.group(1).split(", ")):
        query = f"SELECT * FROM {name} LIMIT 1"
        code, _, err = faith_sql(capsys, query, "--db", str(db), "--format", "csv")
        assert (code, err) == (0, ""), query


def test_json_lines_hold_no_nan_whatever_the_columns(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A NaN score is null in a JSON line, but beside a map keyed by numbers (written by
    Python's json, not polars) it was `NaN` and `Infinity`: no JSON to a strict parser."""

    def refuse(constant: str) -> None:
        raise ValueError(constant)

    for query in (
        "SELECT 'nan'::DOUBLE AS score, ['inf'::DOUBLE] AS scores",
        "SELECT map([1], ['a']) AS by_number, 'nan'::DOUBLE AS score, ['inf'::DOUBLE] AS scores",
    ):
        code, out, err = faith_sql(capsys, query, "--db", str(db), "--format", "json")
        assert (code, err) == (0, "")
        record = json.loads(out, parse_constant=refuse)
        assert (record["score"], record["scores"]) == (None, [None]), query


def test_dates_inside_a_list_struct_or_map_stay_json_lists_of_duckdbs_text(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    query = (
        "SELECT ['infinity'::DATE, DATE '2026-10-01'] AS days, "
        "{'at': TIME '24:00:00'} AS struct, MAP {DATE '2026-10-01': 1} AS by_day"
    )
    code, out, err = faith_sql(capsys, query, "--db", str(db), "--format", "json")
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "days": ["infinity", "2026-10-01"],
        "struct": {"at": "24:00:00"},
        "by_day": {"2026-10-01": 1},
    }
    code, out, err = faith_sql(capsys, query, "--db", str(db), "--format", "csv")
    assert (code, err) == (0, "")
    assert pl.read_csv(io.StringIO(out), infer_schema=False).row(0)[0] == (
        '["infinity", "2026-10-01"]'
    )


def test_a_list_of_text_in_a_csv_keeps_its_letters(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`contradicted_claims()`' passages, a list, are JSON text in a CSV cell: a French or
    Arabic passage came out as `\\u00e9` and `\\u0627` escapes in the spreadsheet."""
    query = "SELECT ['Livré à Zürich', 'تم الشحن'] AS passages, {'ville': 'Besançon'} AS s"
    code, out, err = faith_sql(capsys, query, "--db", str(db), "--format", "csv")
    assert (code, err) == (0, "")
    cells = pl.read_csv(io.StringIO(out), infer_schema=False).row(0)
    assert [json.loads(cell) for cell in cells] == [
        ["Livré à Zürich", "تم الشحن"],
        {"ville": "Besançon"},
    ]
    assert "\\u" not in out
    # JSON Lines beside a map keyed by numbers, written by Python's json: the same letters
    query = "SELECT map([1], ['Zürich']) AS by_number"
    code, out, err = faith_sql(capsys, query, "--db", str(db), "--format", "json")
    assert (code, err, out) == (0, "", '{"by_number": {"1": "Zürich"}}\n')


def test_a_table_cut_by_its_limit_reads_no_further_than_it_must(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A table read the whole result to count it, however few rows it showed: the first 100
    of `SELECT * FROM case_scores` waited for millions of rows, and a value failing on row
    900,000, never shown, made it exit 2. It reads one batch (65,536 rows) past the rows it
    shows: a result longer than that is `at least` what was read."""
    query = (
        "SELECT CAST(CASE WHEN range = 900000 THEN '2.4.0' ELSE range::VARCHAR END AS INTEGER) "
        "AS n FROM range(1000000)"
    )
    code, out, err = faith_sql(capsys, query, "--db", str(db), "--limit", "3")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "at least 131,072 rows, the first 3 shown (--limit 0 shows all)",
        "n",
        "0",
        "1",
        "2",
    ]
    # within that batch, the count is exact
    for rows, says in ((3003, "3,003"), (65_536, "65,536"), (200_000, "at least 131,072")):
        code, out, _ = faith_sql(capsys, f"SELECT * FROM range({rows})", "--db", str(db))
        assert out.splitlines()[0] == f"{says} rows, the first 100 shown (--limit 0 shows all)"
