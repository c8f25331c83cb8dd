"""A chat log's time: its `logged_at` column, else each message's own. A file with neither is
exit 3 naming it before anything is written, as a table of turns without `logged_at` is: every
turn of it was quarantined as logged_at_is_null, stored in `quarantine` (kept there once the
log was scored with its time mapped) and the run failed at its end (exit 11) or, within
--max-quarantine-share, passed. A message or line with no time beside others that have one is
quarantined by itself, as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flows.cli.commands import main
from flows.errors import InputUnreadable
from tests.support.db_reading import query
from tests.support.ledger import balanced_run

AT = "2026-11-01T09:00:00Z"
SHIPPED = "Order A17 shipped on 3 March."


def _messages(at: str | None = None) -> list[dict]:
    timed = {"logged_at": at} if at else {}
    return [
        {"role": "user", "content": "Where is A17?", **timed},
        {"role": "assistant", "content": SHIPPED, "retrieval_context": [SHIPPED], **timed},
    ]


def _write(path: Path, lines: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_a_chat_log_with_no_time_is_exit_3_naming_it_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [{"id": f"chat-{n}", "created_at": AT, "messages": _messages()} for n in range(3)]
    source = _write(tmp_path / "chats.jsonl", lines)
    db = tmp_path / "f.duckdb"
    code = main(["score", str(source), "--db", str(db), "--prefect", "no"])
    (error,) = [line for line in capsys.readouterr().err.splitlines() if line.startswith("error:")]
    assert code == 3, error
    assert error == (
        f"error: {source}: missing required column logged_at (has: id, created_at, messages), "
        "nor has any of its messages a logged_at of its own; name yours with --columns "
        "logged_at=COLUMN"
    )
    assert not db.exists()
    mapped = ["score", str(source), "--db", str(db), "--prefect", "no"]
    assert main([*mapped, "--columns", "logged_at=created_at"]) == 0  # what it says scores them


def test_a_folders_file_with_no_time_beside_one_with_it_is_named(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    _write(logs / "day1.jsonl", [{"id": "a", "logged_at": AT, "messages": _messages()}])
    lacking = _write(logs / "day2.jsonl", [{"id": "b", "messages": _messages()}])
    with pytest.raises(InputUnreadable, match=f"^{lacking}: missing required column logged_at"):
        balanced_run(logs, tmp_path / "f.duckdb")


def test_messages_with_their_own_times_need_no_column_and_one_without_is_quarantined(
    tmp_path: Path,
) -> None:
    timed = {"id": "a", "messages": _messages(AT)}
    untimed = {"id": "b", "messages": _messages()}
    db = tmp_path / "f.duckdb"
    run = balanced_run(
        _write(tmp_path / "chats.jsonl", [timed, untimed]), db, max_quarantine_share=None
    )
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (2, 1, 1)
    assert query(db, 'SELECT "check", case_id FROM quarantine') == [("logged_at_is_null", "b:2")]
