"""Reading judge replies: JSON objects in, plain values out, JudgeReplyError when unusable."""

from __future__ import annotations

import json
import re
from typing import Any

from faith_udfs.errors import JudgeReplyError

# The reasoning a thinking model writes before its answer (DeepSeek-R1, Qwen3 behind llama.cpp
# or Ollama): one closed block at the very start, read past; its braces are not the reply's.
_OPENS_REASONING = re.compile(r"\A\s*<(think|thinking|reasoning)>", re.IGNORECASE)
_REASONING = re.compile(_OPENS_REASONING.pattern + r".*?</\1>", re.DOTALL | re.IGNORECASE)
# The same block whose opening tag the chat template wrote at the end of the prompt (DeepSeek-R1
# and its distills, Qwen3): the reply starts inside the reasoning and shows only its end.
_CLOSES_REASONING = re.compile(r"</(think|thinking|reasoning)>", re.IGNORECASE)
_ANY_OPENING = re.compile(r"<(think|thinking|reasoning)>", re.IGNORECASE)
# Half of a UTF-16 surrogate pair, as JSON's "\ud83d" escape alone decodes.
HALF_PAIR = re.compile("[\ud800-\udfff]")
# What a reply with no text (none, white space, or a thinking model's reasoning alone) is
# told as, by every judge: `reply holds no JSON object: ` and nothing after read as a cut line.
EMPTY_REPLY = (
    "the reply is empty (no text in the message's content, or none after the model's reasoning)"
)


def past_reasoning(text: str) -> str:
    """The reply after a thinking model's opening `<think>...</think>` block (the whole reply
    when it has none); JudgeReplyError when the reply stops inside that block."""
    reasoning = _REASONING.match(text)
    if reasoning is not None:
        return text[reasoning.end() :]
    opened = _OPENS_REASONING.match(text)
    if opened is not None:
        raise JudgeReplyError(
            f"reply stops inside its <{opened.group(1)}> block, with no answer after it: "
            f"{_clip(text)}"
        )
    return text


def _unopened_close(text: str) -> re.Match[str] | None:
    """The end of a reasoning block the chat template opened: the first `</think>` with no
    `<think>` before it, or None."""
    closed = _CLOSES_REASONING.search(text)
    if closed is None or _ANY_OPENING.search(text, 0, closed.start()) is not None:
        return None
    return closed


def past_unopened_reasoning(text: str) -> str | None:
    """The reply after the end of a reasoning block the chat template opened (`...</think>`
    with no `<think>` before it), or None when it shows no such end. Read only when the
    reply is unusable as it stands: an answer may quote the tag in its strings."""
    closed = _unopened_close(text)
    return None if closed is None else text[closed.end() :]


def first_json_object(text: str) -> dict[str, Any]:
    """The first JSON object in a model's text reply (code fences, chatter and a thinking
    model's opening reasoning block tolerated). A reply showing the end of a reasoning block
    the chat template opened (`...</think>`) is read after that end, unless its first object
    holds the tag (an answer quoting it in a string is read as it stands)."""
    text = past_reasoning(text)
    if not text.strip():
        raise JudgeReplyError(EMPTY_REPLY)
    closed = _unopened_close(text)
    if closed is None:
        return _first_object(text)
    try:
        value, start, end = _located_object(text)
        if start < closed.start() < end:
            return value  # the tag is inside the answer's strings
    except JudgeReplyError:
        pass
    after = text[closed.end() :]
    return _first_object(after if "{" in after else text)


def _first_object(text: str) -> dict[str, Any]:
    return _located_object(text)[0]


def _located_object(text: str) -> tuple[dict[str, Any], int, int]:
    """The first JSON object in `text`, where it starts and where it ends."""
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start >= 0:
        try:
            value, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            start = text.find("{", start + 1)
            continue
        except (ValueError, RecursionError) as exc:  # too deep, or a 4,300-digit number
            raise JudgeReplyError(
                f"reply is JSON too deep or with too long a number to read "
                f"({type(exc).__name__}): {_clip(text)}"
            ) from None
        if isinstance(value, dict):
            return value, start, end
        start = text.find("{", start + 1)
    raise JudgeReplyError(f"reply holds no JSON object: {_clip(text)}")


def parse_statements(reply: Any, field: str) -> list[str]:
    """`{"<field>": [str, ...]}` -> the list; anything else is unusable."""
    items = _field(reply, field)
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        raise JudgeReplyError(f"'{field}' must be a list of strings, got {_clip(items)}")
    return [item.strip() for item in items if item.strip()]


def parse_verdicts(reply: Any, n_claims: int) -> list[tuple[str | None, str | None]]:
    """`{"verdicts": [{"verdict", "reason"?, "claim"?}]}` -> (verdict, reason) in claim order.

    Verdicts numbered with `claim` (from 1, or from 0 as some models count) are put in claim
    order and must cover every claim exactly once; unnumbered ones are taken in order. A count
    that differs from the claims is left for the scoring stage to reject, so every judge is
    held to the same rule.
    """
    items = _field(reply, "verdicts")
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise JudgeReplyError(f"'verdicts' must be a list of objects, got {_clip(items)}")
    numbers = [item.get("claim") for item in items]
    if any(number is not None for number in numbers):
        claims = one_based([_number(number) for number in numbers])
        if sorted(claims) != list(range(1, n_claims + 1)):
            raise JudgeReplyError(
                f"verdicts do not match the claims one to one: claim numbers {numbers} "
                f"for {n_claims} claims"
            )
        items = [item for _, item in sorted(zip(claims, items, strict=True), key=_first)]
    for position, item in enumerate(items, start=1):
        if "verdict" not in item:  # {"answer": "yes"}, {"label": "yes"}: a small model's
            keys = ", ".join(repr(key) for key in item) or "none"
            raise JudgeReplyError(f"verdict {position} has no 'verdict' key (its keys: {keys})")
        # A word outside yes/no/idk is the model's verdict, dropped by the metric's rule; a
        # missing, boolean or null one did not follow the format: ask again, never cache it.
        if not isinstance(item.get("verdict"), str):
            raise JudgeReplyError(
                f"a verdict must be a word (yes, no or idk), got {_clip(item.get('verdict'))}"
            )
    return [
        (_text_or_none(item.get("verdict")), _text_or_none(item.get("reason"))) for item in items
    ]


def one_based(numbers: list[int]) -> list[int]:
    """Numbers of a reply's entries, counted from 1: a numbering that uses 0 counts from 0.

    Whether the result is a 1:1 numbering of the items is the caller's check.
    """
    return [number + 1 for number in numbers] if 0 in numbers else numbers


def parse_reason(reply: Any) -> str:
    """`{"reason": str}` -> the reason."""
    reason = _field(reply, "reason")
    if not isinstance(reason, str):
        raise JudgeReplyError(f"'reason' must be a string, got {_clip(reason)}")
    return reason


def _field(reply: Any, field: str) -> Any:
    if not isinstance(reply, dict) or field not in reply:
        raise JudgeReplyError(f"reply has no '{field}' field: {_clip(reply)}")
    return reply[field]


def check_whole_text(value: Any) -> None:
    """JudgeReplyError when `value` holds half of a UTF-16 pair (JSON's `"\\ud83d"` alone, an
    emoji's escape cut in two): no frame or table can hold such text, and a prompt judge's
    reply (a DeepEval-shaped model's, a PromptJudge's dict) crashed the run with it. Checked
    where such a reply comes in (prompt_judge.py), not on every cached reply read."""
    half = HALF_PAIR.search(json.dumps(value, ensure_ascii=False, default=str))
    if half is not None:
        shown = _clip(HALF_PAIR.sub("\N{REPLACEMENT CHARACTER}", _clip(value, 10_000)))
        raise JudgeReplyError(
            f"the reply holds half of a UTF-16 pair ('\\u{ord(half.group()):04x}' without "
            f"its other half), not text: {shown}"
        )


def _number(number: Any, what: str = "claim") -> int:
    """A claim's (or item's) number in a reply: an int, or a string of one; never a bool."""
    if isinstance(number, bool) or not isinstance(number, int | str):
        raise JudgeReplyError(f"{what} number {number!r} is not an integer")
    try:
        return int(number)
    except ValueError:
        raise JudgeReplyError(f"{what} number {number!r} is not an integer") from None


def _first(pair: tuple[int, Any]) -> int:
    return pair[0]


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _clip(value: Any, limit: int = 200) -> str:
    """`value` as text for an error message, cut at `limit`; half of a UTF-16 pair (a reply cut
    inside an emoji) shown as U+FFFD, so the error can be stored as text."""
    text = value if isinstance(value, str) else repr(value)
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    return HALF_PAIR.sub("\N{REPLACEMENT CHARACTER}", text)
