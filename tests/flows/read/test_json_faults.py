"""Faults in JSON logs: passages holding a non-string, records that are no object, nesting past
what can be read, a byte-order mark. A bad row is quarantined alone and the others read as from
a clean file (same content hash); a bad file is exit 3 naming it, nothing written; never exit 1.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from flows.read.small_json import SMALL_JSON_BYTES, bom_array, small_json
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from tests.support.cli_run import faith_here
from tests.support.db_reading import query

PASSAGE = "Order A17 shipped on 3 March by courier."
BOM = b"\xef\xbb\xbf"
STORED = "SELECT case_id, content_hash, passage_ids FROM case_scores ORDER BY case_id"


def _row(case_id: str, passages: object = None, **extra: object) -> dict:
    return {
        "case_id": case_id,
        "input": "Where is A17?",
        "actual_output": "Order A17 shipped on 3 March.",
        "retrieval_context": [PASSAGE] if passages is None else passages,
        "logged_at": "2026-11-01",
        **extra,
    }


def _lines(*records: object) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)


def _score(source: Path) -> tuple[dict, Path]:
    db = source.parent / f"{source.name}.duckdb"
    run = run_score(ScoreSettings(source=str(source), db=str(db), max_quarantine_share=None))
    parts = ("rows_scored", "rows_invalid", "rows_pending", "rows_quarantined")
    assert run["rows_in"] == sum(run[part] for part in parts)
    return run, db


Clean = Callable[..., Path]


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Clean:
    """The same good rows as a clean JSON Lines file, scored: what a faulty file's good rows
    must match. Each set of rows is scored once for the module (the tests only read it)."""
    scored: dict[tuple[str, ...], Path] = {}

    def clean_db(*case_ids: str) -> Path:
        if case_ids not in scored:
            source = tmp_path_factory.mktemp("clean") / "clean.jsonl"
            source.write_text(_lines(*(_row(c) for c in case_ids)))
            scored[case_ids] = _score(source)[1]
        return scored[case_ids]

    return clean_db


@pytest.mark.parametrize("passages", [[5], ["A.", True]])
def test_a_non_string_passage_in_a_folder_of_small_files_quarantines_its_row_only(
    tmp_path: Path, passages: list, clean: Clean
) -> None:
    """Small files alike are gathered into one read (formats._json_together), which read the
    passages as JSON values: '"Order A17 ..."' stored, [5] scored as the passage '5'."""
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "1.jsonl").write_text(_lines(_row("a")))
    (logs / "2.jsonl").write_text(_lines(_row("b", passages)))
    run, db = _score(logs)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (2, 1, 1)
    assert query(db, 'SELECT case_id, "check", value FROM quarantine') == [
        (
            "b",
            "retrieval_context_not_a_list_of_strings",
            json.dumps(passages, separators=(",", ":")),
        )
    ]
    assert query(db, STORED) == query(clean("a"), STORED)
    assert query(db, "SELECT truth FROM truths") == [(PASSAGE,)]


def test_passages_as_json_text_among_lists_read_as_in_a_file_of_such_strings(
    tmp_path: Path, clean: Clean
) -> None:
    """A string holding a list's JSON text reads as a file of strings alone reads it, not as the
    JSON string '"[...]"' (quarantined) because another row logged a list."""
    source = tmp_path / "mixed.jsonl"
    source.write_text(_lines(_row("a", json.dumps([PASSAGE])), _row("b", [PASSAGE])))
    run, db = _score(source)
    assert (run["rows_in"], run["rows_scored"]) == (2, 2)
    assert query(db, "SELECT DISTINCT content_hash FROM case_scores") == query(
        clean("a"), "SELECT content_hash FROM case_scores"
    )


def _no_object(folder: Path, name: str, stray: str) -> Path:
    path = folder / name
    if name.endswith(".jsonl"):
        path.write_text(_lines(_row("a"), _row("b"), stray))
    else:
        path.write_text(json.dumps([_row("a"), _row("b")])[:-1] + f", {stray}]")
    return path


def test_a_record_that_is_no_object_is_named_beside_a_malformed_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The files' keys are asked of DuckDB in one query; a malformed file failed it for all,
    and the file with a stray record was then read as one `json` column ('missing required
    columns ... (has: json)'): each is now asked alone when the query fails."""
    logs = tmp_path / "logs"
    logs.mkdir()
    stray = _no_object(logs, "1.jsonl", "5")
    (logs / "2.jsonl").write_text(_lines(_row("c")) + "{not json\n")
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(logs), "--db", str(db), "--prefect", "no")
    assert done.returncode == 3
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"error: {stray}: record 3 is a JSON number, not an object")


@pytest.mark.parametrize("name", ["logs.jsonl", "logs.json"])
def test_a_duplicate_key_is_exit_3_without_the_records_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """DuckDB names an object with a key twice by its first 50 characters: the log's text
    was on stderr and in runs.error. The line names the record and the key, not the text."""
    secret = "Where is my order? My card is 4111 1111"
    twice = '{"case_id": "c1", "case_id": "c2", "input": "' + secret + '", "logged_at": "x"}'
    records = [json.dumps(_row(f"c{i}")) for i in range(1, 4)] + [twice]
    text = _lines(*records) if name.endswith("l") else "[" + ",\n".join(records) + "]\n"
    source = tmp_path / name
    source.write_text(text)
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no")
    assert done.returncode == 3, done.stderr
    line = done.stderr.strip().splitlines()[-1]  # after the run's first line: read mid-run
    assert line.startswith(f"error: {source}: ")
    assert 'an object has duplicate key "case_id"' in line
    assert "Where is" not in done.stderr
    assert "4111" not in done.stderr
    assert '"c2"' not in line
    stored = query(db, "SELECT error FROM runs") if db.exists() else []
    assert all("Where is" not in (error or "") for (error,) in stored)


@pytest.mark.parametrize("name", ["2.jsonl", "2.json"])
def test_a_duplicate_key_in_a_folder_names_its_own_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """docs/input.md: a bad file is exit 3 naming the file. In a folder, the line named the
    first file of the folder (1.jsonl, clean), the one with the key twice only in DuckDB's
    words inside it: counting each file's rows alone, to find the failing one, reads no key."""
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "1.jsonl").write_text(_lines(_row("a1"), _row("a2")))
    twice = '{"case_id": "b1", "case_id": "b2", "input": "q", "logged_at": "2026-11-01"}'
    records = [json.dumps(_row("b0")), twice]
    bad = logs / name
    bad.write_text(_lines(*records) if name.endswith("l") else "[" + ",\n".join(records) + "]\n")
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(logs), "--db", str(db), "--prefect", "no")
    assert done.returncode == 3, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith(f"error: {bad}: "), line
    assert 'an object has duplicate key "case_id"' in line


def test_a_json_array_nested_deeper_than_can_be_read_is_exit_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As one object a line (tests/flows/cli/test_cli.py), so an array of them."""
    name = "deep.json"
    record = json.dumps(_row("a", meta=0)).replace(
        '"meta": 0', '"meta": ' + '{"a":' * 1000 + "1" + "}" * 1000
    )
    source = tmp_path / name
    source.write_text(record + "\n" if name.endswith(".jsonl") else f"[{record}]")
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no")
    assert done.returncode == 3
    assert done.stderr.strip().splitlines()[-1].startswith(f"error: {source}: cannot read its data")
    assert not db.exists() or query(db, "SELECT count(*) FROM case_scores") == [(0,)]


def _with_bom(folder: Path, name: str, records: list[dict]) -> Path:
    text = json.dumps(records) if ".jsonl" not in name else _lines(*records)
    data = BOM + text.encode()
    path = folder / name
    path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    return path


@pytest.mark.parametrize("name", ["x.json", "x.json.gz", "x.jsonl"])
def test_a_byte_order_mark_is_read_past(tmp_path: Path, name: str, clean: Clean) -> None:
    """DuckDB tells a JSON array by its first byte: with a mark before it, it read the array as
    one record ('missing required columns ... (has: json)', then 'record 1 is a JSON array')."""
    logs = tmp_path / "logs"
    logs.mkdir()
    source = _with_bom(logs, name, [_row("a"), _row("b")])
    run, db = _score(source)
    assert (run["rows_in"], run["rows_scored"]) == (2, 2)
    assert query(db, STORED) == query(clean("a", "b"), STORED)


def test_a_byte_order_mark_on_a_large_array_among_plain_files(tmp_path: Path, clean: Clean) -> None:
    """A file past small_json's 256 KiB is read by DuckDB alone, and files alike are read
    together: an array after a mark must be told so, and is not read with plain files."""
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "1.jsonl").write_text(_lines(_row("a")))
    _with_bom(logs, "2.json", [_row("b", note="n" * 300_000), _row("c")])
    (logs / "3.json").write_text(json.dumps([_row("d")]))
    run, db = _score(logs)
    assert (run["rows_in"], run["rows_scored"]) == (4, 4)
    clean_db = clean("a", "b", "c", "d")
    assert query(db, "SELECT case_id, content_hash FROM case_scores ORDER BY 1") == query(
        clean_db, "SELECT case_id, content_hash FROM case_scores ORDER BY 1"
    )


@pytest.mark.parametrize(
    ("data", "array"),
    [
        (BOM + b' \n[{"a": 1}]', True),
        (b'[{"a": 1}]', False),  # DuckDB tells this one itself
        (BOM + b'{"a": 1}\n{"a": 2}\n', False),
    ],
)
def test_only_an_array_after_a_mark_is_told_to_duckdb(
    tmp_path: Path, data: bytes, array: bool
) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(data)
    objects, told = small_json(path)
    assert objects is not None
    assert [value["a"] for value in objects] in ([1], [1, 2])
    assert told is array
    assert bom_array(path) is array  # the same, for a file too large to parse here


def test_a_corrupt_gzip_json_file_is_exit_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Inflating a small file here raised zlib.error (exit 1); DuckDB names what is wrong."""
    packed = gzip.compress(_lines(*(_row(f"c{i}") for i in range(20))).encode())
    source = tmp_path / "x.jsonl.gz"
    source.write_bytes(packed[:20] + bytes(b ^ 0x55 for b in packed[20:40]) + packed[40:])
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no")
    assert done.returncode == 3
    assert done.stderr.strip().splitlines()[-1].startswith(f"error: {source}: ")


def test_keys_differing_only_in_case_keep_their_names_as_segments(tmp_path: Path) -> None:
    """DuckDB's column names are case-insensitive: of `input` and `Input` it named the second
    `Input_1`, and the segment was stored under a name the file does not have. In one file,
    in a folder of small files read together, and in files too large to gather."""
    # Tag_1 is a key of its own: DuckDB names Tag `Tag_1` and it `Tag_1_1`
    record = _row("a", Input="upper", Region="EU", region="eu", tag="x", Tag="y", Tag_1="z")
    one = tmp_path / "one.jsonl"
    one.write_text(_lines(record))
    folder = tmp_path / "small"
    folder.mkdir()
    for i in range(3):
        (folder / f"part-{i}.jsonl").write_text(_lines({**record, "case_id": f"s{i}"}))
    large = tmp_path / "large"  # two files too large to gather: read together, by name
    large.mkdir()
    filler = {**record, "actual_output": "Order A17 shipped on 3 March. " * 2_000}
    for part in range(2):  # 6 rows of 60 KB: past SMALL_JSON_BYTES, no larger than needed
        rows = ({**filler, "case_id": f"l{part}-{i}"} for i in range(6))
        (large / f"part-{part}.jsonl").write_text(_lines(*rows))
        assert (large / f"part-{part}.jsonl").stat().st_size > SMALL_JSON_BYTES
    expected = {"Input": "upper", "Region": "EU", "region": "eu", "tag": "x", "Tag": "y"}
    expected["Tag_1"] = "z"
    for source in (one, folder, large):
        run, db = _score(source)
        assert run["rows_scored"] == run["rows_in"] > 0
        stored = {
            json.dumps(json.loads(s), sort_keys=True)
            for (s,) in query(db, "SELECT segments FROM case_scores")
        }
        assert stored == {json.dumps(expected, sort_keys=True)}, source


def test_an_id_past_int64_keeps_every_rows_id_whole(tmp_path: Path) -> None:
    """A JSON id past int64 (an unsigned trace id) made DuckDB read the column as HUGEINT, a
    decimal to polars, and every row of the file was quarantined as case_id_wrong_type."""
    source = tmp_path / "ids.jsonl"
    source.write_text(_lines(*(_row(i) for i in (101, 9223372036854775808, 2**64 - 1))))
    run, db = _score(source)
    assert run["rows_scored"] == 3
    stored = [case_id for (case_id,) in query(db, "SELECT case_id FROM case_scores")]
    assert sorted(stored) == sorted(["101", "9223372036854775808", str(2**64 - 1)])


@pytest.mark.parametrize("shape", ["file", "folder", "pre-pass"])
def test_an_id_past_every_integer_type_is_read_as_written(tmp_path: Path, shape: str) -> None:
    """A JSON id of 2**64 or more, which read_json types DOUBLE, quarantined every row of the
    file as case_id_wrong_type, its id stored as 1.8446744073709552e+19; a float id `7.5` is
    its text, as in a CSV. In a folder of small files (read gathered) and through the
    duplicate pre-pass (--batch-size below the rows), the copy of an id is still its copy."""
    big = 2**64 + 1
    ids = [big, 2, 7.5, big]
    rows = [_row(i) for i in ids]  # type: ignore[arg-type]
    source = tmp_path / "logs"
    if shape == "folder":
        source.mkdir()
        for n, row in enumerate(rows):
            (source / f"{n}.jsonl").write_text(_lines(row))
    else:
        source = tmp_path / "logs.jsonl"
        source.write_text(_lines(*rows))
    db = tmp_path / "f.duckdb"
    batch = 1 if shape == "pre-pass" else 150_000
    run = run_score(
        ScoreSettings(source=str(source), db=str(db), batch_size=batch, max_quarantine_share=None)
    )
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (4, 3, 1)
    stored = sorted(case_id for (case_id,) in query(db, "SELECT case_id FROM case_scores"))
    assert stored == sorted([str(big), "2", "7.5"])
    held = query(db, 'SELECT "check", case_id FROM quarantine')
    assert held == [("duplicate_case_id_exact_copy", str(big))]


def test_an_empty_key_is_exit_3_naming_the_file_not_every_row_quarantined(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DuckDB reads objects with a "" key as one MAP column: every contract column came out
    null, and every row was quarantined as if it had no id, question or answer."""
    source = tmp_path / "logs.jsonl"
    source.write_text(_lines(_row("a"), {**_row("b"), "": "x"}))
    done = faith_here(capsys, "score", str(source), "--db", str(tmp_path / "f.duckdb"))
    assert done.returncode == 3
    assert 'logs.jsonl: a key of its objects is empty ("")' in done.stderr
    assert not (tmp_path / "f.duckdb").exists()


# A question cut in the middle of an emoji, as Python's json and JavaScript write it: half a
# UTF-16 pair, which no UTF-8 text can hold.
HALF = "Where is A17? \ud83d"


def _half_pairs(folder: Path, shape: str) -> Path:
    """Rows a and c clean, b holding half a pair, in a file (or folder) of `shape`."""
    rows = [_row("a"), _row("b", input=HALF), _row("c")]
    if shape.startswith("large"):  # past small_json's 256 KiB: DuckDB reads it alone
        rows[2]["note"] = "n" * 300_000
    folder.mkdir()
    if shape == "folder":
        for i, row in enumerate(rows):
            (folder / f"{i}.jsonl").write_text(_lines(row))
        return folder
    path = folder / f"logs.{shape.removeprefix('large.')}"
    text = json.dumps(rows) if ".jsonl" not in path.name else _lines(*rows)
    path.write_bytes(gzip.compress(text.encode()) if path.suffix == ".gz" else text.encode())
    return path


@pytest.mark.parametrize(
    "shape", ["jsonl", "json", "jsonl.gz", "large.jsonl", "large.json", "folder"]
)
def test_half_a_character_quarantines_its_row_and_the_others_are_scored(
    tmp_path: Path, shape: str, clean: Clean
) -> None:
    """DuckDB refuses a whole file for one string holding half a UTF-16 pair ("\\ud83d" alone);
    the run stopped (exit 3) with nothing scored. Now that row is quarantined, its text as the
    file spells it, and the others read as from a clean file."""
    run, db = _score(_half_pairs(tmp_path / "logs", shape))
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (3, 2, 1)
    assert query(db, 'SELECT case_id, "check", "column", value FROM quarantine') == [
        ("b", "input_lone_surrogate", "input", "Where is A17? \\ud83d")
    ]
    assert query(db, STORED) == query(clean("a", "c"), STORED)


def test_half_a_character_in_a_passage_names_the_passages(tmp_path: Path) -> None:
    source = tmp_path / "logs.jsonl"
    source.write_text(_lines(_row("a"), _row("b", [PASSAGE, "Refunds \udc00 take 5 days."])))
    run, db = _score(source)
    assert (run["rows_scored"], run["rows_quarantined"]) == (1, 1)
    assert query(db, 'SELECT "check", value FROM quarantine') == [
        (
            "retrieval_context_lone_surrogate",
            json.dumps([PASSAGE, "Refunds \\udc00 take 5 days."], separators=(",", ":")),
        )
    ]


def test_half_a_character_in_a_mapped_column_is_named_as_the_contract_names_it(
    tmp_path: Path,
) -> None:
    source = tmp_path / "logs.jsonl"
    rows = [_row("a"), _row("b", input=HALF)]
    for row in rows:
        row["question"] = row.pop("input")
    source.write_text(_lines(*rows))
    db = tmp_path / "f.duckdb"
    settings = ScoreSettings(
        source=str(source), db=str(db), columns={"input": "question"}, max_quarantine_share=None
    )
    run = run_score(settings)
    assert (run["rows_scored"], run["rows_quarantined"]) == (1, 1)
    assert query(db, 'SELECT "check", "column" FROM quarantine') == [
        ("input_lone_surrogate", "input")
    ]


def test_half_a_character_is_a_quarantined_row_for_the_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """1 row of 3 quarantined is past --max-quarantine-share 0.1: exit 11, everything kept."""
    source = _half_pairs(tmp_path / "logs", "jsonl")
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no")
    assert done.returncode == 11
    assert "top checks: input_lone_surrogate 1" in done.stderr
    assert query(db, "SELECT count(*) FROM case_scores") == [(2,)]


def test_an_array_too_large_to_mend_in_memory_is_exit_3_with_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An array is mended whole in memory, at ~13x its size: past _ARRAY_MEND_BYTES (32 MiB;
    a few kB here) it is not, and stays the exit 3 whose line says what to do (a review found
    a 109 MB array taking 1.4 GB to mend, 2026-12-06); JSON Lines are mended block by block."""
    import flows.read.lone_surrogates as lone_surrogates

    monkeypatch.setattr(lone_surrogates, "_ARRAY_MEND_BYTES", 200)
    source = _half_pairs(tmp_path / "logs", "json")
    assert source.stat().st_size > 200
    done = faith_here(capsys, "score", str(source), "--db", str(tmp_path / "f.duckdb"))
    assert done.returncode == 3
    assert "a string holds half a character" in done.stderr
    lines = _half_pairs(tmp_path / "lines", "jsonl")  # the same rows as JSON Lines: mended
    assert (
        faith_here(capsys, "score", str(lines), "--db", str(tmp_path / "g.duckdb")).returncode == 11
    )


def test_half_a_character_in_a_key_is_named_with_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A key holding half a pair names a column no row can be stored under: the file stays
    unreadable (exit 3), the line saying what it is and what to do."""
    source = tmp_path / "logs.jsonl"
    source.write_text(_lines(_row("a"), {**_row("b"), "note \ud83d": "x"}, _row("c")))
    done = faith_here(capsys, "score", str(source), "--db", str(tmp_path / "f.duckdb"))
    assert done.returncode == 3
    assert "no low surrogate" in done.stderr
    assert "a string holds half a character" in done.stderr


@pytest.mark.parametrize(
    ("lines", "named"),
    [
        (["BAD", "GOOD"], "record/value 2"),  # the first line
        (["GOOD", "BAD", "GOOD"], "line 3"),  # the second
        (["GOOD", "", "BAD"], "line 3"),  # after a blank line: its own
    ],
)
def test_a_malformed_record_is_named_where_duckdb_counts_it_with_where_to_look(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str], named: str
) -> None:
    """DuckDB numbers a malformed record one past its own, but not after a blank line: the
    line says where it is as DuckDB names it and that it may be the one before."""
    good, bad = json.dumps(_row("c1")), '{"case_id": "c2", "input": "q" "actual_output": "x"}'
    source = tmp_path / "logs.jsonl"
    source.write_text(_lines(*[{"GOOD": good, "BAD": bad, "": ""}[line] for line in lines]))
    done = faith_here(capsys, "score", str(source), "--db", str(tmp_path / "f.duckdb"))
    assert done.returncode == 3, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert f"in {named}: unexpected character." in line
    assert line.endswith("(DuckDB's count: the record is the one it names or the one before))")


@pytest.mark.parametrize("name", ["export.jsonl", "export.json"], ids=["json-lines", "json-array"])
def test_a_utf16_json_file_is_exit_3_saying_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """Windows PowerShell's `ConvertTo-Json | Out-File` writes UTF-16: DuckDB's words were
    `Malformed JSON ... in record/value 2: UTF-16 encoding is not supported (DuckDB's count:
    the record is the one it names or the one before)`, of a file of one record, where a
    UTF-16 CSV file says what it is and what to do."""
    source = tmp_path / name
    records = [_row("c1")]
    text = _lines(*records) if name.endswith(".jsonl") else json.dumps(records)
    source.write_text(text, encoding="utf-16")
    done = faith_here(capsys, "score", str(source), "--db", str(tmp_path / "f.duckdb"))
    assert done.returncode == 3, done.stderr
    assert done.stderr.strip() == (
        f"error: {source}: UTF-16 text, not UTF-8; save the file as UTF-8, "
        "e.g. iconv -f UTF-16 -t UTF-8 FILE > NEW"
    )


# A Windows-1252 export's "Café?": the byte 0xE9, which UTF-8 cannot hold.
CAFE = "Caf\N{LATIN SMALL LETTER E WITH ACUTE}?"


def _not_utf8(folder: Path, shape: str, **b_row: object) -> Path:
    """Rows a and c clean, b holding a byte UTF-8 cannot hold, in a file (or folder) of
    `shape`: each record written as UTF-8 but b's, as Windows-1252."""
    rows = [_row("a"), _row("b", **(b_row or {"input": CAFE})), _row("c")]
    if shape.startswith("large"):  # past small_json's 256 KiB: DuckDB reads it alone
        rows[2]["note"] = "n" * 300_000
    written = [
        json.dumps(row, ensure_ascii=False).encode("cp1252" if i == 1 else "utf-8")
        for i, row in enumerate(rows)
    ]
    folder.mkdir()
    if shape == "folder":
        for i, record in enumerate(written):
            (folder / f"{i}.jsonl").write_bytes(record + b"\n")
        return folder
    path = folder / f"logs.{shape.removeprefix('large.')}"
    lines = ".jsonl" in path.name
    text = b"".join(r + b"\n" for r in written) if lines else b"[" + b", ".join(written) + b"]"
    path.write_bytes(gzip.compress(text) if path.suffix == ".gz" else text)
    return path


@pytest.mark.parametrize(
    "shape", ["jsonl", "json", "jsonl.gz", "large.jsonl", "large.json", "folder"]
)
def test_a_byte_utf8_cannot_hold_quarantines_its_row_and_the_others_are_scored(
    tmp_path: Path, shape: str, clean: Clean
) -> None:
    """DuckDB refuses a whole JSON file for one byte UTF-8 cannot hold (a Windows-1252 "é",
    one corrupt byte): a night's 1M-row JSON Lines file with one such byte was exit 3, nothing
    scored, where a CSV file quarantines the row. Now that row is quarantined as a CSV one is
    (`input_not_utf8`, the byte as its escape) and the others read as from a clean file."""
    run, db = _score(_not_utf8(tmp_path / "logs", shape))
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (3, 2, 1)
    assert query(db, 'SELECT case_id, "check", "column", value FROM quarantine') == [
        ("b", "input_not_utf8", "input", "Caf\\xe9?")
    ]
    assert query(db, STORED) == query(clean("a", "c"), STORED)


def test_a_byte_utf8_cannot_hold_in_a_passage_or_a_segment_names_that_column(
    tmp_path: Path,
) -> None:
    source = _not_utf8(
        tmp_path / "logs", "jsonl", retrieval_context=[PASSAGE, "Caf\xe9 open"], note={"x": CAFE}
    )
    run, db = _score(source)
    assert (run["rows_scored"], run["rows_quarantined"]) == (2, 1)
    assert query(db, 'SELECT "check", value FROM quarantine ORDER BY "check"') == [
        ("note_not_utf8", json.dumps({"x": "Caf\\xe9?"}, separators=(",", ":"))),
        (
            "retrieval_context_not_utf8",
            json.dumps([PASSAGE, "Caf\\xe9 open"], separators=(",", ":")),
        ),
    ]


def test_a_byte_utf8_cannot_hold_is_a_quarantined_row_for_the_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """1 row of 3 quarantined is past --max-quarantine-share 0.1: exit 11, everything kept; a
    file in another encoding whole ends so, its line naming the check."""
    source = _not_utf8(tmp_path / "logs", "jsonl")
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no")
    assert done.returncode == 11
    assert "top checks: input_not_utf8 1" in done.stderr
    assert query(db, "SELECT count(*) FROM case_scores") == [(2,)]


def test_a_byte_utf8_cannot_hold_in_a_key_is_exit_3_saying_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A key holding such a byte names a column no row can be stored under, and an array too
    large to mend in memory is not mended: the file stays exit 3, nothing written, the line
    saying what the byte is and how to convert the file."""
    source = tmp_path / "logs.jsonl"
    bad = json.dumps({**_row("b"), "not" + CAFE: "x"}, ensure_ascii=False).encode("cp1252")
    source.write_bytes(_lines(_row("a")).encode() + bad + b"\n")
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(source), "--db", str(db))
    assert done.returncode == 3, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"error: {source}: not a readable JSON file (")
    assert "invalid UTF-8 encoding in string" in line
    assert "save the file as UTF-8 (a Windows export: iconv -f WINDOWS-1252 -t UTF-8" in line
    assert not db.exists()


def test_an_array_too_large_to_mend_holding_a_byte_utf8_cannot_hold_is_exit_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import flows.read.lone_surrogates as lone_surrogates

    monkeypatch.setattr(lone_surrogates, "_ARRAY_MEND_BYTES", 200)
    source = _not_utf8(tmp_path / "logs", "json")
    assert source.stat().st_size > 200
    done = faith_here(capsys, "score", str(source), "--db", str(tmp_path / "f.duckdb"))
    assert done.returncode == 3
    assert "iconv -f WINDOWS-1252 -t UTF-8" in done.stderr


def _ten(shape: str) -> bytes:
    """Ten good records as JSON Lines or a JSON array, complete."""
    records = [json.dumps(_row(f"c{i}")) for i in range(10)]
    return (
        "\n".join(records) + "\n" if shape == "jsonl" else "[" + ",\n".join(records) + "]\n"
    ).encode()


CUT_SHORT = (
    "; the file ends in the middle of a record: a file still being written, or a copy cut "
    "short? Write it under another name (FILE.tmp) and rename it when complete, or remove it"
)


@pytest.mark.parametrize(
    ("name", "ending"),
    [
        ("logs.jsonl", CUT_SHORT),
        ("logs.jsonl.gz", CUT_SHORT),
        ("brace.jsonl", CUT_SHORT),  # cut just past a nested object's brace
        ("logs.json", CUT_SHORT),
        ("trailing.json", "; the array has a comma after its last item, which JSON allows none"),
        ("commas.jsonl", "(an array's items without its brackets? write [ … ] around them)"),
    ],
    ids=[
        "json-lines",
        "json-lines-gzip",
        "json-lines-brace",
        "json-array",
        "json-array-comma",
        "json-lines-commas",
    ],
)
def test_a_file_cut_short_or_with_stray_commas_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, ending: str
) -> None:
    """A nightly run reading a log its exporter is still writing (or a copy cut short) was
    exit 3 naming a record past the file's last (`record/value 12` of a 10-record array,
    `line 11`), as was an array with a comma after its last item, and JSON Lines whose
    records are followed by commas `record/value 3 at byte 1`: the line now says what is
    wrong with the file."""
    whole = _ten("jsonl" if ".jsonl" in name else "json")
    text = whole.rstrip()[:-1] + b",\n]\n" if name.startswith("trailing") else whole[:-60]
    if name.startswith("commas"):  # each record followed by a comma
        text = whole.replace(b"}\n", b"},\n")
    if name.startswith("brace"):
        text = whole + b'{"case_id": "c10", "meta": {"channel": "app"}'
    source = tmp_path / name
    source.write_bytes(gzip.compress(text) if name.endswith(".gz") else text)
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(source), "--db", str(db))
    assert done.returncode == 3, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"error: {source}: not a readable JSON file (")
    assert line.endswith(f"{ending})")
    assert not db.exists()


def test_a_file_whose_end_is_whole_says_nothing_of_its_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A malformed record before a complete last one is named as before, no more."""
    source = tmp_path / "logs.jsonl"
    source.write_bytes(_ten("jsonl").replace(b'{"case_id": "c3"', b'{"case_id": c3', 1))
    done = faith_here(capsys, "score", str(source), "--db", str(tmp_path / "f.duckdb"))
    assert done.returncode == 3
    assert "in the middle of a record" not in done.stderr
    assert "comma after its last item" not in done.stderr


def test_a_whole_object_over_several_lines_is_not_said_to_be_cut_short(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One object written over several lines (an editor's or `json.dump(indent=2)`'s), a comma
    missing inside it and no line break after its closing brace: its last line, `}`, is no
    record by itself, and the line said the file ended in the middle of a record (a file
    still being written? remove it), which it does not; with a line break it said nothing."""
    record = json.dumps(_row("c0"), indent=2).replace(",\n", "\n", 1)  # a comma missing
    for name, text in (("one.json", record), ("ended.json", record + "\n")):
        source = tmp_path / name
        source.write_text(text)
        done = faith_here(capsys, "score", str(source), "--db", str(tmp_path / "f.duckdb"))
        assert done.returncode == 3, done.stderr
        assert "Malformed JSON" in done.stderr
        assert "in the middle of a record" not in done.stderr, done.stderr
