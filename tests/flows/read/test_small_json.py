"""Small JSON files parsed in Python (flows/read/small_json.py) give what DuckDB's readers give,
and anything but plain objects is left to DuckDB; a run of JSON files read as one keeps each
row's file and types."""

from __future__ import annotations

import gzip
from pathlib import Path

import duckdb
import pytest

from flows.read import formats
from flows.read.small_json import SMALL_JSON_BYTES, object_keys, small_objects


@pytest.mark.parametrize(
    ("text", "objects"),
    [
        ('[{"a": 1, "b": "x"}, {"c": null, "a": 2}]', [{"a": 1, "b": "x"}, {"c": None, "a": 2}]),
        ('{"a": 1,\n "b": "x\\ny"}', [{"a": 1, "b": "x\ny"}]),
        ('{"a": 1}\n\n{"b": 2}\n', [{"a": 1}, {"b": 2}]),
    ],
)
def test_plain_objects_are_parsed_as_duckdb_counts_them(
    tmp_path: Path, text: str, objects: list[dict]
) -> None:
    path = tmp_path / "x.json"
    path.write_text(text)
    assert small_objects(path) == objects
    con = duckdb.connect()
    found = con.execute(
        "SELECT json_keys(json) FROM read_json_objects($f)", {"f": [str(path)]}
    ).fetchall()
    assert len(found) == len(objects)
    assert object_keys(objects) == list(dict.fromkeys(k for (keys,) in found for k in keys))


@pytest.mark.parametrize(
    "text",
    ['{"a": NaN}', "[1, 2]", '"text"', "[]", "", '{"a": 1} {"a": 2}', "not json {{{", "[[{}]]"],
)
def test_anything_else_is_left_to_duckdb(tmp_path: Path, text: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(text)
    assert small_objects(path) is None


def test_gzip_is_looked_through_and_large_files_are_left_to_duckdb(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl.gz"
    path.write_bytes(gzip.compress(b'{"a": "b"}\n'))
    assert small_objects(path) == [{"a": "b"}]
    large = tmp_path / "large.jsonl"
    large.write_text('{"a": "b"}\n' * (SMALL_JSON_BYTES // 10))
    assert small_objects(large) is None


def test_a_run_read_as_one_keeps_files_and_types(tmp_path: Path) -> None:
    paths = []
    for i, value in enumerate(['"2024-01-02T03:04:05"', '"2024-01-03T00:00:00"', "null"]):
        path = tmp_path / f"part[{i}].json"
        path.write_text(f'[{{"case_id": "c{i}", "logged_at": {value}, "n": {i}}}]')
        paths.append(path)
    frame = next(formats.duckdb_frames(paths, "json", 100))
    listed = next(formats.duckdb_frames(paths, "json", 100, gather=False))
    assert frame.equals(listed)  # the same rows, types and files as read_json over the list
    assert frame[formats.FILE_COLUMN].to_list() == [str(path) for path in paths]


def test_a_non_text_case_id_is_read_by_duckdb(tmp_path: Path) -> None:
    for i, value in enumerate(['"a"', "7"]):
        (tmp_path / f"{i}.jsonl").write_text(f'{{"case_id": {value}}}\n')
    paths = sorted(tmp_path.glob("*.jsonl"))
    assert formats.json_strings(paths, "case_id", 10) is None  # 7 is read as a number
    strings = formats.json_strings(paths[:1], "case_id", 10)
    assert strings is not None
    assert [frame["case_id"].to_list() for frame in strings] == [["a"]]


def test_a_run_with_a_large_file_is_read_by_its_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = [tmp_path / "a.jsonl", tmp_path / "b.jsonl"]
    paths[0].write_text('{"case_id": "a"}\n')
    paths[1].write_text('{"case_id": "b"}\n' * 3)
    monkeypatch.setattr(formats, "SMALL_JSON_BYTES", 20)  # b.jsonl is large now
    gathered: list[list[Path]] = []
    monkeypatch.setattr(formats, "_json_together", lambda paths, *_: gathered.append(paths))
    frames = list(formats.duckdb_frames(paths, "json", 100))
    assert gathered == []
    assert frames[0][formats.FILE_COLUMN].to_list() == [str(paths[0])] + [str(paths[1])] * 3
