"""Logged conversations (issue 23): a table of turns, or an OpenAI chat log, scored turn by
turn. Every answering assistant turn is a case named `<conversation_id>:<turn>`, judged
against its passages, its tool results and the last --conversation-window turns; a claim only
an earlier turn supports is `yes`, supported by the conversation; a turn with nothing to rely
on is invalid. A row of a conversation source is an assistant turn (a case) or a quarantined
turn: turns read as context only are not rows, so rows in = scored + invalid + pending +
quarantined still holds."""

from __future__ import annotations

import datetime as dt
import gzip
import json
from pathlib import Path

import polars as pl
import pytest

from flows.judges.settings import JudgeSettings
from flows.read.source import resolve_source
from flows.read.turns import NO_USER_TEXT
from flows.run.pipeline import run_score
from flows.run.settings import ScoreSettings
from flows.run.turn_support import NOTHING_TO_RELY_ON
from tests.support.db_reading import query

AT = dt.datetime(2026, 11, 1, 9, 0)
SHIPPED = "Order A17 shipped on 3 March."
TURNS_SCHEMA = {
    "conversation_id": pl.String,
    "turn": pl.Int64,
    "role": pl.String,
    "content": pl.String,
    "retrieval_context": pl.List(pl.String),
    "logged_at": pl.Datetime("us"),
    "channel": pl.String,
}
# (conversation, turn, role, content, passages)
TURNS = [
    # c1: the second answer repeats what the user said: supported by the conversation.
    ("c1", 1, "user", "My laptop is a 17-inch model. Where is order A17?", None),
    ("c1", 2, "assistant", SHIPPED, [SHIPPED]),
    ("c1", 3, "user", "Will the sleeve fit?", None),
    ("c1", 4, "assistant", "Your laptop is a 17-inch model.", []),
    # c2: an opening greeting with nothing to rely on: invalid, not failed.
    ("c2", 1, "assistant", "Welcome to the shop.", []),
    # c3: a tool call step (blank content, then a tool turn), the tool result, the answer.
    ("c3", 1, "system", "You are the shop's assistant.", None),
    ("c3", 2, "user", "Where is order B2?", None),
    ("c3", 3, "assistant", None, None),
    ("c3", 4, "tool", "Order B2 left the depot on 4 May.", None),
    ("c3", 5, "assistant", "Order B2 left the depot on 4 May. It arrives by drone.", None),
    # broken turns: quarantined, each a row
    ("c3", 5, "assistant", "A second copy of turn 5.", None),
    (None, 1, "user", "No conversation.", None),
    ("c4", 1, "narrator", "Once upon a time.", None),
]


def turns_frame(rows: list[tuple] = TURNS) -> pl.DataFrame:
    return pl.DataFrame(
        [
            {
                "conversation_id": cid,
                "turn": turn,
                "role": role,
                "content": content,
                "retrieval_context": passages,
                "logged_at": AT + dt.timedelta(minutes=turn),
                "channel": "web",
            }
            for cid, turn, role, content, passages in rows
        ],
        schema=TURNS_SCHEMA,
        orient="row",
    )


def chat_lines(rows: list[tuple] = TURNS) -> list[dict]:
    """The same conversations as OpenAI chat-log lines (valid turns only: a chat log has no
    turn numbers to repeat), tool calls as an assistant message with `tool_calls`."""
    lines: dict[str, dict] = {}
    for cid, _, role, content, passages in rows:
        if cid is None or role == "narrator" or content == "A second copy of turn 5.":
            continue
        line = lines.setdefault(
            cid, {"conversation_id": cid, "logged_at": AT.isoformat(), "messages": []}
        )
        message: dict = {"role": role, "content": content}
        if passages is not None:
            message["retrieval_context"] = passages
        if role == "assistant" and content is None:
            message["tool_calls"] = [{"id": "call_1", "type": "function"}]
        line["messages"].append(message)
    return list(lines.values())


def _run(source: Path, db: Path, **options: object) -> dict:
    options.setdefault("max_quarantine_share", None)  # broken turns are some examples' subject
    run = run_score(ScoreSettings(source=str(source), db=str(db), max_invalid_share=1, **options))
    assert run["rows_in"] == (
        run["rows_scored"] + run["rows_invalid"] + run["rows_pending"] + run["rows_quarantined"]
    )
    return run


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("turns")
    turns_frame().write_parquet(folder / "turns.parquet")
    db = folder / "turns.duckdb"
    run = _run(folder / "turns.parquet", db)
    # 4 answering assistant turns + 3 broken turns; 8 turns read as context only.
    assert (run["rows_in"], run["rows_scored"], run["rows_invalid"]) == (7, 3, 1)
    assert run["rows_quarantined"] == 3
    return db


def test_every_answering_assistant_turn_is_a_case_with_its_input(scored: Path) -> None:
    found = query(scored, "SELECT case_id, input, status FROM case_scores ORDER BY case_id")
    assert found == [
        ("c1:2", "My laptop is a 17-inch model. Where is order A17?", "scored"),
        ("c1:4", "Will the sleeve fit?", "scored"),
        ("c2:1", "(no user turn before this one)", "invalid"),
        ("c3:5", "Where is order B2?", "scored"),
    ]
    segments = query(scored, "SELECT segments FROM case_scores WHERE case_id = 'c3:5'")[0][0]
    assert json.loads(segments)["channel"] == "web"
    assert json.loads(json.loads(segments)["context_origins"]) == [
        "tool",
        "turn:1:system",
        "turn:2:user",
    ]


def test_a_claim_only_an_earlier_turn_supports_is_yes_by_the_conversation(scored: Path) -> None:
    found = query(
        scored,
        "SELECT case_id, claim, verdict, supported_by FROM claim_verdicts "
        "ORDER BY case_id, claim_index",
    )
    assert found == [
        ("c1:2", SHIPPED, "yes", "passage"),
        ("c1:4", "Your laptop is a 17-inch model.", "yes", "conversation"),
        ("c3:5", "Order B2 left the depot on 4 May.", "yes", "passage"),  # the tool result
        ("c3:5", "It arrives by drone.", "idk", None),
    ]


def test_a_turn_with_nothing_to_rely_on_is_invalid_with_the_reason(scored: Path) -> None:
    found = query(scored, "SELECT error, score, success FROM case_scores WHERE case_id = 'c2:1'")
    assert found == [(NOTHING_TO_RELY_ON, None, None)]


def test_broken_turns_are_quarantined_one_row_each(scored: Path) -> None:
    found = query(scored, 'SELECT "check", case_id, "column", value FROM quarantine ORDER BY 1')
    assert found == [
        ("conversation_id_is_null", None, "conversation_id", None),
        ("role_not_in_vocabulary", "c4:1", "role", "narrator"),
        ("turn_repeated", "c3:5", "turn", "5"),
    ]


@pytest.mark.parametrize("blank", ["   ", "", None], ids=["spaces", "empty", "null"])
def test_a_blank_answer_that_ends_a_conversation_is_quarantined_not_lost(
    tmp_path: Path, blank: str | None
) -> None:
    """A closing assistant turn has no next turn to make it a tool step: it is a case, and
    blank, so quarantined; mid-conversation or last, the same."""
    rows = [
        ("b1", 1, "user", "Where is order A17?", None),
        ("b1", 2, "assistant", blank, None),
        ("b2", 1, "user", "Where is order A17?", None),
        ("b2", 2, "assistant", blank, None),
        ("b2", 3, "user", "Hello?", None),
        ("b2", 4, "assistant", SHIPPED, [SHIPPED]),
    ]
    turns_frame(rows).write_parquet(tmp_path / "turns.parquet")
    db = tmp_path / "blank.duckdb"
    run = _run(tmp_path / "turns.parquet", db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (3, 1, 2)
    found = query(db, "SELECT case_id FROM quarantine ORDER BY case_id")
    assert found == [("b1:2",), ("b2:2",)]


def test_turns_in_json_of_mixed_types_read_their_text_as_a_clean_file_does(
    tmp_path: Path, scored: Path
) -> None:
    """One turn's content logged as a number types the column JSON: the other turns must
    still read as their text, not as JSON with its quotes."""
    lines = turns_frame().with_columns(pl.col("logged_at").dt.strftime("%Y-%m-%dT%H:%M:%S"))
    rows = lines.to_dicts()
    rows.append({**rows[0], "conversation_id": "c9", "turn": 1, "content": 7})
    (tmp_path / "turns.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    db = tmp_path / "mixed.duckdb"
    _run(tmp_path / "turns.jsonl", db)
    compared = "SELECT case_id, input, actual_output, score, status FROM case_scores ORDER BY 1"
    assert query(db, compared) == query(scored, compared)


def test_the_window_bounds_what_a_turn_may_rely_on(tmp_path: Path) -> None:
    turns_frame().write_parquet(tmp_path / "turns.parquet")
    db = tmp_path / "narrow.duckdb"
    _run(tmp_path / "turns.parquet", db, conversation_window=1)
    # c1:4 sees only turn 3 ("Will the sleeve fit?"): the laptop is no longer supported.
    # (the grounded judge, since v2, says `no` of a claim that shares no word with what the
    # turn may rely on)
    found = query(db, "SELECT verdict, supported_by FROM claim_verdicts WHERE case_id = 'c1:4'")
    assert found == [("no", None)]


def test_a_chat_log_scores_as_the_same_table_of_turns(tmp_path: Path, scored: Path) -> None:
    lines = "".join(json.dumps(line) + "\n" for line in chat_lines())
    (tmp_path / "chats.jsonl.gz").write_bytes(gzip.compress(lines.encode()))
    assert resolve_source(tmp_path / "chats.jsonl.gz").form == "chat"
    db = tmp_path / "chat.duckdb"
    run = _run(tmp_path / "chats.jsonl.gz", db)
    assert (run["rows_in"], run["rows_quarantined"]) == (4, 0)
    compared = "SELECT case_id, input, score, status FROM case_scores ORDER BY case_id"
    # A chat log numbers its messages from 1, as the table above does.
    assert query(db, compared) == query(scored, compared)
    verdicts = "SELECT case_id, verdict, supported_by FROM claim_verdicts ORDER BY ALL"
    assert query(db, verdicts) == query(scored, verdicts)


def test_a_csv_table_of_turns_with_other_column_names(tmp_path: Path, scored: Path) -> None:
    frame = turns_frame().rename({"conversation_id": "thread", "content": "text"})
    texts = [None if v is None else json.dumps(v) for v in frame["retrieval_context"].to_list()]
    frame = frame.with_columns(pl.Series("retrieval_context", texts, dtype=pl.String))
    frame.write_csv(tmp_path / "turns.csv")
    db = tmp_path / "csv.duckdb"
    run = _run(tmp_path / "turns.csv", db, columns={"conversation_id": "thread", "content": "text"})
    assert (run["rows_in"], run["rows_quarantined"]) == (7, 3)
    compared = "SELECT case_id, input, score, status FROM case_scores ORDER BY case_id"
    assert query(db, compared) == query(scored, compared)


def test_a_chat_log_names_its_conversations_by_id_or_line_and_its_times_by_message(
    tmp_path: Path,
) -> None:
    at = AT.isoformat()
    messages = [
        {"role": "user", "content": "Where is order A17?", "logged_at": at},
        {"role": "assistant", "content": SHIPPED, "logged_at": at, "retrieval_context": [SHIPPED]},
    ]
    lines = [
        {"id": "thread-9", "messages": messages},
        {"messages": messages[:1]},
        {"messages": messages},
    ]
    path = tmp_path / "chats.ndjson"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    db = tmp_path / "chat.duckdb"
    run = _run(path, db)
    assert (run["rows_in"], run["rows_scored"]) == (2, 2)
    found = query(db, "SELECT case_id, logged_at, score FROM case_scores ORDER BY case_id")
    assert found == [("line-3:2", AT, 1.0), ("thread-9:2", AT, 1.0)]


def test_one_string_as_a_turns_passages_is_a_breach_in_parquet(tmp_path: Path) -> None:
    frame = turns_frame(TURNS[:2]).with_columns(
        retrieval_context=pl.when(pl.col("role") == "assistant").then(pl.lit(SHIPPED))
    )
    frame.write_parquet(tmp_path / "turns.parquet")
    db = tmp_path / "one.duckdb"
    run = _run(tmp_path / "turns.parquet", db)
    assert (run["rows_in"], run["rows_quarantined"]) == (1, 1)
    found = query(db, 'SELECT "check", value FROM quarantine')
    assert found == [("retrieval_context_not_a_list_of_strings", SHIPPED)]


def test_a_judge_naming_no_evidence_marks_only_what_it_can_know(tmp_path: Path) -> None:
    """The lexical judge gives no evidence: a supported claim of a turn with nothing of its
    own is the conversation's; one of a turn with passages is not known (NULL)."""
    turns_frame(TURNS[:4]).write_parquet(tmp_path / "turns.parquet")
    db = tmp_path / "lexical.duckdb"
    _run(tmp_path / "turns.parquet", db, judge=JudgeSettings(kind="lexical"))
    found = query(db, "SELECT case_id, verdict, supported_by FROM claim_verdicts ORDER BY 1")
    assert found == [("c1:2", "yes", None), ("c1:4", "yes", "conversation")]


def test_a_chat_log_in_csv_holds_its_messages_as_json_text(tmp_path: Path, scored: Path) -> None:
    """A CSV (or a Parquet string column) holds `messages` as JSON text: read as the list."""
    frame = pl.DataFrame(
        [{**line, "messages": json.dumps(line["messages"])} for line in chat_lines()]
    )
    frame.write_csv(tmp_path / "chats.csv")
    db = tmp_path / "csv.duckdb"
    run = _run(tmp_path / "chats.csv", db)
    assert (run["rows_in"], run["rows_quarantined"]) == (4, 0)
    compared = "SELECT case_id, input, content_hash, score FROM case_scores ORDER BY case_id"
    assert query(db, compared) == query(scored, compared)


def test_messages_that_are_no_list_are_quarantined_never_dropped(tmp_path: Path) -> None:
    good = chat_lines()[0]  # c1: two answering turns
    lines = [
        good,
        {"conversation_id": "s1", "logged_at": AT.isoformat(), "messages": "user: Where is A17?"},
        {"conversation_id": "s2", "logged_at": AT.isoformat(), "messages": None},
        {"conversation_id": "s3", "logged_at": AT.isoformat(), "messages": [{"role": "user"}, 5]},
    ]
    (tmp_path / "chats.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    db = tmp_path / "chat.duckdb"
    run = _run(tmp_path / "chats.jsonl", db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (5, 2, 3)
    assert query(db, 'SELECT "check", case_id, value FROM quarantine ORDER BY case_id') == [
        ("messages_not_a_list", "s1", "user: Where is A17?"),
        ("messages_not_a_list", "s2", None),
        ("messages_not_a_list", "s3", '[{"role":"user"},5]'),
    ]
    assert _internal_segments(db) == []


def _internal_segments(db: Path) -> list:
    """Segments named like the reader's own working columns (`__messages_bad`): none."""
    keys = "SELECT DISTINCT unnest(json_keys(segments)) AS k FROM case_scores"
    return [key for (key,) in query(db, keys) if key.startswith("__")]


@pytest.mark.parametrize("turn", [2.4, 2.5])
def test_a_fractional_turn_is_not_an_integer_not_rounded(tmp_path: Path, turn: float) -> None:
    rows = [
        ("g", 1, "user", "Where is order A17?", None),
        ("g", 3, "assistant", SHIPPED, [SHIPPED]),
    ]
    frame = turns_frame(rows).cast({"turn": pl.Float64})
    frame = pl.concat([frame, frame.slice(1).with_columns(turn=pl.lit(turn))])
    frame.write_ndjson(tmp_path / "turns.jsonl")
    db = tmp_path / "t.duckdb"
    run = _run(tmp_path / "turns.jsonl", db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (2, 1, 1)
    assert query(db, "SELECT case_id FROM case_scores") == [("g:3",)]  # 3.0 is turn 3
    assert _internal_segments(db) == []
    assert query(db, 'SELECT "check", case_id FROM quarantine') == [
        ("turn_not_an_integer", f"g:{turn}")
    ]


def test_a_quarantined_turn_is_named_as_its_case_would_be(tmp_path: Path) -> None:
    """pandas writes an id and a turn column holding a missing value as floats: the scored
    turn is case 7:2, and a broken turn of that conversation is named 7:2 and 7:3 in
    quarantine too (it was 7:2.0, so joining quarantine to case_scores on case_id missed it);
    an id and a turn written with spaces, as their cases are named."""
    floats = pl.DataFrame(
        {
            "conversation_id": [7.0, 7.0, 7.0, 7.0, None],
            "turn": [1.0, 2.0, 2.0, 3.0, None],
            "role": ["user", "assistant", "assistant", "robot", "user"],
            "content": ["Where is order A17?", SHIPPED, "A copy.", "Beep.", "Hi."],
            "retrieval_context": [[SHIPPED], None, None, None, None],
            "logged_at": [AT] * 5,
        }
    )
    floats.write_parquet(tmp_path / "floats.parquet")
    spaced = [
        {"conversation_id": " c8 ", "turn": " 1 ", "role": "user", "content": "Hi."},
        {"conversation_id": " c8 ", "turn": " 2 ", "role": "robot", "content": "Beep."},
    ]
    (tmp_path / "spaced.jsonl").write_text(
        "".join(json.dumps({**row, "logged_at": AT.isoformat()}) + "\n" for row in spaced)
    )
    db = tmp_path / "t.duckdb"
    _run(tmp_path / "floats.parquet", db)
    _run(tmp_path / "spaced.jsonl", db)
    assert query(db, "SELECT case_id FROM case_scores") == [("7:2",)]
    assert query(db, 'SELECT "check", case_id, value FROM quarantine ORDER BY 2, 1') == [
        ("turn_repeated", "7:2", "2.0"),
        ("role_not_in_vocabulary", "7:3", "robot"),
        ("role_not_in_vocabulary", "c8:2", "robot"),
        ("conversation_id_is_null", None, None),
    ]


def test_a_whole_float_id_is_the_same_conversation_in_csv_and_in_json_of_mixed_types(
    tmp_path: Path,
) -> None:
    """pandas writes an id column holding a missing value as floats: `7.0` in its CSV, whose
    turns were the case `7.0:2` where its Parquet's are `7:2`; and a JSON file whose ids differ
    in type (`1.0` on one line, `"web-2"` on another) read `1.0` as text, so that turn was
    another conversation than the `1` of the line before it (an answer with no question)."""
    frame = pl.DataFrame(
        {
            "conversation_id": [7.0, 7.0, None],
            "turn": [1.0, 2.0, None],
            "role": ["user", "assistant", "user"],
            "content": ["Where is order A17?", SHIPPED, "Hi."],
            "retrieval_context": [None, json.dumps([SHIPPED]), None],
            "logged_at": [AT.isoformat()] * 3,
        }
    )
    frame.write_csv(tmp_path / "pandas.csv")
    _run(tmp_path / "pandas.csv", tmp_path / "csv.duckdb")
    assert query(tmp_path / "csv.duckdb", "SELECT case_id, input FROM case_scores") == [
        ("7:2", "Where is order A17?")
    ]
    lines = [
        {"conversation_id": 1, "turn": 1, "role": "user", "content": "Where is order A17?"},
        {"conversation_id": "web-2", "turn": 1, "role": "user", "content": "Hi."},
        {"conversation_id": 1.0, "turn": 2, "role": "assistant", "content": SHIPPED,
         "retrieval_context": [SHIPPED]},
    ]  # fmt: skip
    (tmp_path / "mixed.jsonl").write_text(
        "".join(json.dumps({**line, "logged_at": AT.isoformat()}) + "\n" for line in lines)
    )
    _run(tmp_path / "mixed.jsonl", tmp_path / "json.duckdb")
    assert query(tmp_path / "json.duckdb", "SELECT case_id, input FROM case_scores") == [
        ("1:2", "Where is order A17?")
    ]


def test_a_broken_copy_of_a_turn_does_not_count_as_its_copy(tmp_path: Path) -> None:
    """A turn logged broken (a role `narrator`, content `[1, 2]`) and again corrected beside it (a
    night's re-export): the sound copy was `turn_repeated`, so the turn was quarantined twice
    and never scored. As in a cases table, a broken copy is quarantined for its break and the
    first sound copy is kept; two sound copies still keep the first."""
    rows = [
        ("c", 1, "user", [1, 2], None),
        ("c", 1, "user", "Where is order A17?", None),
        ("c", 2, "narrator", SHIPPED, [SHIPPED]),
        ("c", 2, "assistant", SHIPPED, [SHIPPED]),
        ("c", 2, "assistant", "A later copy.", [SHIPPED]),
    ]
    path = tmp_path / "turns.jsonl"
    path.write_text(
        "".join(
            json.dumps({"conversation_id": cid, "turn": turn, "role": role, "content": text,
                        "retrieval_context": passages, "logged_at": AT.isoformat()}) + "\n"
            for cid, turn, role, text, passages in rows
        )
    )  # fmt: skip
    db = tmp_path / "t.duckdb"
    run = _run(path, db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (4, 1, 3)
    found = "SELECT case_id, input, actual_output FROM case_scores"
    assert query(db, found) == [("c:2", "Where is order A17?", SHIPPED)]
    assert query(db, 'SELECT "check", case_id, value FROM quarantine ORDER BY 1') == [
        ("content_wrong_type", "c:1", "[1,2]"),
        ("role_not_in_vocabulary", "c:2", "narrator"),
        ("turn_repeated", "c:2", "2"),
    ]


def test_a_text_turn_is_read_as_written_digits_only(tmp_path: Path) -> None:
    """Text turns are digits: '1e1' and '0x1A' were turns 10 and 26 (read as numbers);
    ' 3 ' and '4.0' are turns 3 and 4."""
    rows = [
        ("g", "1", "user", "Where is order A17?", None),
        ("g", " 3 ", "assistant", SHIPPED, [SHIPPED]),
        ("g", "4.0", "assistant", SHIPPED, [SHIPPED]),
        ("g", "1e1", "assistant", SHIPPED, [SHIPPED]),
        ("g", "0x1A", "assistant", SHIPPED, [SHIPPED]),
    ]
    frame = pl.DataFrame(
        rows,
        schema=["conversation_id", "turn", "role", "content", "retrieval_context"],
        orient="row",
    ).with_columns(logged_at=pl.lit("2026-10-01T09:00:00"))
    frame.write_ndjson(tmp_path / "turns.jsonl")
    db = tmp_path / "t.duckdb"
    run = _run(tmp_path / "turns.jsonl", db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (4, 2, 2)
    assert query(db, "SELECT case_id FROM case_scores ORDER BY 1") == [("g:3",), ("g:4",)]
    assert query(db, 'SELECT "check", case_id FROM quarantine ORDER BY 2') == [
        ("turn_not_an_integer", "g:0x1A"),
        ("turn_not_an_integer", "g:1e1"),
    ]


def test_a_conversations_key_value_folders_are_its_segments(tmp_path: Path) -> None:
    """Conversations took their folders' `key=value` from DuckDB's own hive reading; turned
    off for cases (it replaced a file's own column of the name), it went for turns too."""
    rows = [
        ("g", 1, "user", "Where is order A17?", None),
        ("g", 2, "assistant", SHIPPED, [SHIPPED]),
    ]
    folder = tmp_path / "logs" / "channel=app"
    folder.mkdir(parents=True)
    turns_frame(rows).write_ndjson(folder / "turns.jsonl")
    db = tmp_path / "t.duckdb"
    run = _run(tmp_path / "logs", db)
    assert run["rows_scored"] == 1
    assert query(db, "SELECT segments ->> 'channel' FROM case_scores") == [("app",)]


def test_an_answer_to_a_user_turn_without_text_has_that_turn_as_its_input(tmp_path: Path) -> None:
    """A user turn holding only an image (or an empty or null content) is still the turn the
    answer after it answers: its input says it had no text, never an earlier question."""
    asked = {"role": "user", "content": "Do you sell red shoes?"}
    answer = {"role": "assistant", "content": "Blue shoes come in sizes 38 to 44."}
    image = [{"type": "image_url", "image_url": {"url": "https://example.com/shoe.png"}}]
    messages = [asked, {**answer, "content": "Yes, we sell red shoes."}]
    for content in (image, "", None):
        messages += [{"role": "user", "content": content}, answer]
    line = {"conversation_id": "img", "logged_at": AT.isoformat(), "messages": messages}
    (tmp_path / "chats.jsonl").write_text(json.dumps(line) + "\n")
    db = tmp_path / "img.duckdb"
    run = _run(tmp_path / "chats.jsonl", db)
    assert (run["rows_in"], run["rows_quarantined"]) == (4, 0)
    by_turn = "SELECT case_id, input FROM case_scores ORDER BY CAST(segments ->> 'turn' AS INT)"
    found = query(db, by_turn)
    assert found == [
        ("img:2", "Do you sell red shoes?"),
        ("img:4", NO_USER_TEXT),
        ("img:6", NO_USER_TEXT),
        ("img:8", NO_USER_TEXT),
    ]


def test_a_turn_of_white_space_is_no_content_in_a_window_or_as_a_tool_result(
    tmp_path: Path,
) -> None:
    """A turn of nothing but white space or invisible characters ("\\n", a zero-width space)
    has no content, as a blank answer has none: no passage of the turns after it (which the
    contract quarantined as no_null_or_blank_passages) and no question."""
    rows = [
        ("w1", 1, "user", "Where is order A17?", None),
        ("w1", 2, "user", "\n\t", None),
        ("w1", 3, "assistant", SHIPPED, [SHIPPED]),
        ("w1", 4, "assistant", "\u200b", None),  # a tool-call step: a tool turn follows
        ("w1", 5, "tool", "\n", None),
        ("w1", 6, "assistant", "It shipped on 3 March.", None),
    ]
    turns_frame(rows).write_parquet(tmp_path / "turns.parquet")
    db = tmp_path / "blank.duckdb"
    run = _run(tmp_path / "turns.parquet", db)
    assert (run["rows_in"], run["rows_scored"], run["rows_quarantined"]) == (2, 2, 0)
    found = query(db, "SELECT case_id, input, segments ->> 'context_origins' FROM case_scores")
    assert sorted(found) == [
        ("w1:3", NO_USER_TEXT, '["passage","turn:1:user"]'),
        ("w1:6", NO_USER_TEXT, '["turn:1:user","turn:3:assistant"]'),
    ]
