"""Chat logs and turns that are not what the contract wants (QA defects R3, R4): `messages`
given as JSON text is read as the list it holds, in every format; `messages` that is null,
no list, or a list of anything but message objects is one quarantined row
(`messages_not_a_list`), never dropped; a fractional turn is `turn_not_an_integer`, never
rounded. Every run here asserts rows in = scored + invalid + pending + quarantined."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from tests.support.db_reading import query
from tests.support.ledger import balanced_run

AT = "2026-11-01T12:00:00Z"
SHIPPED = "Order A17 shipped on 3 March."
MESSAGES = [
    {"role": "user", "content": "Where is A17?"},
    {"role": "assistant", "content": SHIPPED, "retrieval_context": [f"{SHIPPED[:-1]} by courier."]},
]
GOOD = {"id": "x1", "logged_at": AT, "messages": MESSAGES}
# (conversation id, its `messages` as logged): none a list of message objects.
BROKEN = [
    ("s1", "user: Where is A17?"),
    ("s2", None),
    ("s3", {"role": "user", "content": "Where is A17?"}),
    ("s4", [{"role": "user", "content": "Where is A17?"}, 5]),
    ("s5", [None]),
    ("s6", "[1, 2]"),  # JSON text, but no list of messages
    ("s7", "null"),
]
COMPARED = "SELECT case_id, input, actual_output, content_hash, status FROM case_scores ORDER BY 1"


def _run(source: Path, db: Path) -> dict:
    return balanced_run(source, db, max_invalid_share=1, max_quarantine_share=None)


def _as_text(messages: object) -> str | None:
    """`messages` as a CSV cell or a Parquet string holds it: JSON text (a string as it is)."""
    if messages is None or isinstance(messages, str):
        return messages
    return json.dumps(messages)


def _write_chats(lines: list[dict], path: Path) -> Path:
    """The chat log in the format its name says; CSV and a Parquet string column hold
    `messages` as JSON text."""
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    else:
        texts = [{**line, "messages": _as_text(line["messages"])} for line in lines]
        _write(pl.DataFrame(texts, schema=dict.fromkeys(GOOD, pl.String)), path)
    return path


def _write(frame: pl.DataFrame, path: Path) -> None:
    if path.suffix == ".csv":
        frame.write_csv(path)
    elif path.suffix == ".jsonl":
        frame.write_ndjson(path)
    else:
        frame.write_parquet(path)


@pytest.fixture(scope="module")
def from_jsonl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The database of a clean JSON Lines log of GOOD alone, scored once: what the other
    forms and the mixed log must store for it."""
    folder = tmp_path_factory.mktemp("chat")
    db = folder / "jsonl.duckdb"
    run = _run(_write_chats([GOOD], folder / "chats.jsonl"), db)
    assert (run["rows_in"], run["rows_scored"]) == (1, 1)
    return db


@pytest.mark.parametrize("name", ["chats.csv", "chats.parquet"])
def test_messages_as_json_text_score_as_the_jsonl_log_does(
    tmp_path: Path, from_jsonl: Path, name: str
) -> None:
    db = tmp_path / "text.duckdb"
    run = _run(_write_chats([GOOD], tmp_path / name), db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (1, 1, 0)
    assert query(db, COMPARED) == query(from_jsonl, COMPARED)


def test_a_chat_log_as_a_json_array_after_a_byte_order_mark_scores_as_the_jsonl_log(
    tmp_path: Path, from_jsonl: Path
) -> None:
    """PowerShell's and .NET's UTF-8 starts with a byte-order mark: the array was read as one
    value and the run failed with DuckDB's "Binder Error: Referenced column "messages" not
    found", though the shape was found from the same file's keys. Beside it in a folder, a
    JSON Lines log is read as before."""
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.json").write_text(json.dumps([GOOD], indent=2), encoding="utf-8-sig")
    other = {**GOOD, "id": "x2"}
    (folder / "b.jsonl").write_text(json.dumps(other) + "\n")
    db = tmp_path / "bom.duckdb"
    run = _run(folder, db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (2, 2, 0)
    assert query(db, COMPARED)[:1] == query(from_jsonl, COMPARED)


def test_a_parquet_chat_log_reads_each_message_s_own_passages(
    tmp_path: Path, from_jsonl: Path
) -> None:
    """Messages as a Parquet list of structs: a message's `retrieval_context` is its
    passages, as in JSONL, not a breach."""
    pl.DataFrame([GOOD]).write_parquet(tmp_path / "chats.parquet")
    db = tmp_path / "native.duckdb"
    run = _run(tmp_path / "chats.parquet", db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (1, 1, 0)
    assert query(db, COMPARED) == query(from_jsonl, COMPARED)


@pytest.mark.parametrize("name", ["chats.jsonl", "chats.csv", "chats.parquet"])
def test_messages_that_are_no_list_of_messages_are_quarantined_beside_a_good_log(
    tmp_path: Path, from_jsonl: Path, name: str
) -> None:
    lines = [GOOD, *({"id": cid, "logged_at": AT, "messages": given} for cid, given in BROKEN)]
    db = tmp_path / "faults.duckdb"
    run = _run(_write_chats(lines, tmp_path / name), db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (8, 1, 7)
    assert query(db, COMPARED) == query(from_jsonl, COMPARED)
    found = query(db, 'SELECT "check", case_id, "column" FROM quarantine ORDER BY case_id')
    assert found == [("messages_not_a_list", cid, "messages") for cid, _ in BROKEN]
    values = dict(query(db, "SELECT case_id, value FROM quarantine"))
    assert (values["s1"], values["s2"]) == ("user: Where is A17?", None)  # as written


def test_a_lone_string_log_is_one_quarantined_row_not_an_empty_run(tmp_path: Path) -> None:
    """The reported case: one line whose messages is a string said `0 rows in`."""
    line = {"id": "s1", "logged_at": AT, "messages": "user: Where is A17?"}
    db = tmp_path / "lone.duckdb"
    run = _run(_write_chats([line], tmp_path / "chats.jsonl"), db)
    assert (run["rows_in"], run["rows_quarantined"]) == (1, 1)
    found = query(db, 'SELECT "check", case_id, value FROM quarantine')
    assert found == [("messages_not_a_list", "s1", "user: Where is A17?")]


def _turns(turns: list[tuple[object, str]]) -> list[dict]:
    """Conversation `g`, a (turn, role) a row: the user asks, an assistant answers from its
    passage."""
    return [
        {
            "conversation_id": "g",
            "turn": turn,
            "role": role,
            "content": SHIPPED if role == "assistant" else "Where is order A17?",
            "retrieval_context": [SHIPPED] if role == "assistant" else None,
            "logged_at": AT,
        }
        for turn, role in turns
    ]


def test_fractional_turns_in_csv_are_quarantined_and_turn_2_still_answers(
    tmp_path: Path,
) -> None:
    """Rounded, 1.5 took turn 2 and the real turn 2 was quarantined as `turn_repeated`."""
    rows = _turns([("1", "user"), ("1.5", "assistant"), ("2", "assistant"), ("2.5", "user")])
    for row in rows:  # a CSV holds a list as JSON text
        row["retrieval_context"] = row["retrieval_context"] and json.dumps(row["retrieval_context"])
    pl.DataFrame(rows).write_csv(tmp_path / "turns.csv")
    db = tmp_path / "csv.duckdb"
    run = _run(tmp_path / "turns.csv", db)
    # rows: the two answers (one a case, one quarantined) and the quarantined user turn
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (3, 1, 2)
    assert query(db, "SELECT case_id, input FROM case_scores") == [("g:2", "Where is order A17?")]
    found = query(db, 'SELECT "check", case_id, value FROM quarantine ORDER BY case_id')
    assert found == [
        ("turn_not_an_integer", "g:1.5", "1.5"),
        ("turn_not_an_integer", "g:2.5", "2.5"),
    ]


@pytest.mark.parametrize("name", ["turns.jsonl", "turns.parquet"])
def test_a_turn_of_2_4_is_not_an_integer_and_4_0_is_turn_4(tmp_path: Path, name: str) -> None:
    _write(
        pl.DataFrame(
            _turns([(1.0, "user"), (2.4, "assistant"), (3.0, "user"), (4.0, "assistant")])
        ),
        tmp_path / name,
    )
    db = tmp_path / "t.duckdb"
    run = _run(tmp_path / name, db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (2, 1, 1)
    assert query(db, "SELECT case_id FROM case_scores") == [("g:4",)]
    found = query(db, 'SELECT "check", case_id, value FROM quarantine')
    assert found == [("turn_not_an_integer", "g:2.4", "2.4")]


def test_content_given_as_strings_a_number_or_an_object_is_read_never_dropped(
    tmp_path: Path,
) -> None:
    """A message's content as a list of strings (LangChain's content lists), a number or an
    object (a tool result logged as the object the tool returned) is read, an object or a
    number as its JSON text: the tool result `{"count": 5}` was dropped without a word (the
    answer judged without it), an answer `5` or `["..."]` quarantined as
    actual_output_is_null with no value."""
    answers = {
        "text": ("There are 5 items.", "There are 5 items."),
        "strings": (["There are 5 items."], ["There are 5 items."]),
        "object": ({"items": 5}, "There are 5 items."),
        "number": ("There are 5 items.", 5),
    }
    lines = [
        {
            "id": name,
            "logged_at": AT,
            "messages": [
                {"role": "user", "content": ["How many items?"]},
                {"role": "tool", "content": tool},
                {"role": "assistant", "content": answer},
            ],
        }
        for name, (tool, answer) in answers.items()
    ]
    source = _write_chats(lines, tmp_path / "chat.jsonl")
    db = tmp_path / "f.duckdb"
    run = _run(source, db)
    assert (run["rows_in"], run["rows_quarantined"]) == (4, 0)
    scored = query(
        db,
        "SELECT case_id, input, actual_output, segments ->> 'context_origins', content_hash "
        "FROM case_scores ORDER BY 1",
    )
    by_case = {row[0]: row[1:] for row in scored}
    assert by_case["number:3"][1] == "5"
    for case_id in by_case:
        assert by_case[case_id][0] == "How many items?"
        assert by_case[case_id][2] == '["tool","turn:1:user"]'  # the tool result is context
    assert by_case["strings:3"][3] == by_case["text:3"][3]  # the same case as plain text
    passages = query(
        db,
        "SELECT DISTINCT p.passage FROM case_scores AS c, unnest(c.passage_ids) AS u(id) "
        "JOIN passages AS p ON p.passage_id = u.id WHERE c.case_id = 'object:3'",
    )
    assert sorted(passages) == [("How many items?",), ('{"items":5}',)]


def test_openai_developer_and_function_messages_are_system_and_tool_ones(tmp_path: Path) -> None:
    """OpenAI's API takes a `developer` message (o1 and later: the system prompt) and, before
    tool calls, a `function` message (a function's result): a log written so had each such
    message quarantined as role_not_in_vocabulary (exit 11 every night), and the function's
    result was missing from the answer's context."""
    line = {
        "id": "d1",
        "logged_at": AT,
        "messages": [
            {"role": "developer", "content": "Answer from the order system only."},
            {"role": "user", "content": "Where is A17?"},
            {"role": "function", "name": "lookup_order", "content": f"{SHIPPED[:-1]} by courier."},
            {"role": "assistant", "content": SHIPPED},
        ],
    }
    db = tmp_path / "f.duckdb"
    run = _run(_write_chats([line], tmp_path / "chat.jsonl"), db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (1, 1, 0)
    assert query(db, "SELECT case_id, segments ->> 'context_origins', score FROM case_scores") == [
        ("d1:4", '["tool","turn:1:system","turn:2:user"]', 1.0)
    ]


def test_a_blank_function_call_step_is_a_call_as_a_tool_calls_step_is(tmp_path: Path) -> None:
    """Before tool calls an assistant asked for a function with `function_call`: a blank such
    step whose result the log does not hold (the chat closed while it ran) was quarantined as
    a blank answer (exit 11 past the share), where the same step with `tool_calls` is a call,
    no row; the answer after it is judged as after a call."""
    call = {"name": "lookup_order", "arguments": '{"order": "A17"}'}
    tool_calls = [{"id": "c1", "type": "function", "function": call}]
    lines = [
        {
            "id": cid,
            "logged_at": AT,
            "messages": [
                {"role": "user", "content": "Where is A17?"},
                {"role": "assistant", "content": None, **step},
                {"role": "user", "content": "Hello?"},
                {"role": "assistant", "content": SHIPPED, "retrieval_context": [SHIPPED]},
                {"role": "user", "content": "And A18?"},
                {"role": "assistant", "content": None, **step},
            ],
        }
        for cid, step in [
            ("legacy", {"function_call": call}),
            ("tools", {"tool_calls": tool_calls}),
        ]
    ]
    db = tmp_path / "f.duckdb"
    run = _run(_write_chats(lines, tmp_path / "chat.jsonl"), db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (2, 2, 0)
    assert query(
        db, "SELECT case_id, segments ->> 'context_origins' FROM case_scores ORDER BY 1"
    ) == [
        ("legacy:4", '["passage","turn:1:user","turn:3:user"]'),
        ("tools:4", '["passage","turn:1:user","turn:3:user"]'),
    ]


def test_a_tool_result_of_megabytes_within_the_context_limit_is_scored(tmp_path: Path) -> None:
    """DuckDB's JSON functions asked several times a 6 MB message at once: the log's load ran
    out of the reader's 512 MB and the night failed with exit 7, every night, though 6 MB is
    within --max-context-bytes. The load is tried again with 2 GB (flows/read/turns.py)."""
    report = "Order A17 shipped on 3 March. " + "Warehouse log line. " * 300_000  # ~6 MB
    tool = {"role": "tool", "content": report}
    answer = {"role": "assistant", "content": SHIPPED}
    logs = [
        {"id": "big", "logged_at": AT, "messages": [MESSAGES[0], tool, answer]},
        GOOD,
    ]
    source = tmp_path / "chat.jsonl"
    source.write_text("".join(json.dumps(log) + "\n" for log in logs))
    result = _run(source, tmp_path / "f.duckdb")
    assert (result["rows_in"], result["rows_scored"], result["rows_quarantined"]) == (2, 2, 0)
    assert query(tmp_path / "f.duckdb", "SELECT case_id, success FROM case_scores ORDER BY 1") == [
        ("big:3", True),
        ("x1:2", True),
    ]


def test_past_the_larger_memory_too_it_is_exit_7_with_advice_for_conversations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both loads short of memory (here both limits 64 MB, so a 6 MB message suffices): one
    line, exit 7, the advice a conversation log needs ('write it as Parquet' fails the same)."""
    import flows.read.turns as turns
    from tests.support.cli_run import faith_here

    monkeypatch.setattr(turns, "_MEMORY", "64MB")
    monkeypatch.setattr(turns, "_LARGE_MEMORY", "64MB")
    tool = {"role": "tool", "content": "Warehouse log line. " * 300_000}
    log = {"id": "big", "logged_at": AT, "messages": [MESSAGES[0], tool, MESSAGES[1]]}
    source = tmp_path / "chat.jsonl"
    source.write_text(json.dumps(log) + "\n")
    done = faith_here(capsys, "score", str(source), "--db", str(tmp_path / "f.duckdb"),
                      "--prefect", "no")  # fmt: skip
    assert done.returncode == 7, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert "cannot read it as conversations (Out of Memory Error" in line
    assert "(messages of many MB, within the size limits, are read whole" in line
    assert "write it as Parquet" not in line


def test_a_chat_log_of_mixed_types_reads_each_conversations_values_as_written(
    tmp_path: Path, from_jsonl: Path
) -> None:
    """One line with an integer id, an epoch time and a numeric segment types those columns
    JSON: the other lines' ids were read as '"x1"' (a new case each night beside a clean
    file's `x1:2`) and their ISO times as '"2026-…"', quarantined as logged_at_unparseable."""
    lines = [
        {**GOOD, "channel": "web"},
        {**GOOD, "id": 7, "logged_at": 1793523600, "channel": 3},
    ]
    db = tmp_path / "mixed.duckdb"
    run = _run(_write_chats(lines, tmp_path / "chat.jsonl"), db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (2, 2, 0)
    found = "SELECT case_id, logged_at, segments ->> 'channel' FROM case_scores ORDER BY 1"
    assert [(cid, str(at), channel) for cid, at, channel in query(db, found)] == [
        ("7:2", "2026-11-01 09:00:00", "3"),
        ("x1:2", "2026-11-01 12:00:00", "web"),
    ]
    same = "SELECT case_id, content_hash FROM case_scores WHERE case_id = 'x1:2'"
    assert query(db, same) == query(from_jsonl, same)  # as a clean file's


@pytest.mark.parametrize(
    ("column", "form"),
    [
        ("content", "chat"),  # every message's content was this column's value
        ("Content", "chat"),  # bound without case, as DuckDB binds names: the same
        ("role", "chat"),  # every message's role: all quarantined
        ("ROLE", "chat"),
        ("turn", "chat"),
        ("input", "chat"),  # a DuplicateError: exit 1, a bug
        ("case_id", "turns"),
        ("context_origins", "turns"),
        # the reader's own columns: a ConversionException (exit 1), every turn quarantined
        # under the column's value as its check, a blank answer read as a tool-call step
        ("__tool_calls", "turns"),
        ("__check", "turns"),
        ("__Row", "turns"),
        ("__tool_calls", "chat"),
    ],
)
def test_a_column_named_as_one_the_reader_makes_is_exit_3_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], column: str, form: str
) -> None:
    """A chat log's conversation-level `content` stood beside each message's: the reader took
    it for every message's, the message's own a segment `content_1`, and judged that. A
    column named as a case's (`input`, `case_id`) failed the run with a DuplicateError (exit
    1). Each is one line naming the column, exit 3, and no database made."""
    from tests.support.cli_run import faith_here

    if form == "chat":
        rows = [{**GOOD, column: "x"}]
    else:
        rows = [
            {"conversation_id": "c", "turn": n, "role": role, "content": text, "logged_at": AT,
             "retrieval_context": [SHIPPED] if role == "user" else None, column: "x"}
            for n, role, text in [(1, "user", "Where is A17?"), (2, "assistant", SHIPPED)]
        ]  # fmt: skip
    source = tmp_path / "log.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows))
    db = tmp_path / "f.duckdb"
    done = faith_here(capsys, "score", str(source), "--db", str(db), "--prefect", "no")
    assert done.returncode == 3, done.stderr
    assert done.stderr.startswith(f"error: {source}: column {column} is "), done.stderr
    assert "rename it or leave it out of the export" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not db.exists()
