"""Reading packed replies and holding verdicts to the claims one to one.

Pure: JSON values in, plain values out, JudgeReplyError when a reply is unusable.
"""

from __future__ import annotations

import json
import re
from typing import Any

from faith_udfs.errors import JudgeReplyError
from faith_udfs.replies import _clip, _field, _number, one_based, parse_verdicts

# Text a model may put around its JSON object: "Here is the JSON:" and the like.
MAX_CHATTER = 200
_FENCE = re.compile(r"\A\s*```[a-zA-Z]*[ \t]*\n(?P<body>.*?)\n?```\s*\Z", re.DOTALL)
# The format examples' stand-ins in every template (prompts.py, packed_prompts.py): a reply
# holding one copied the example instead of answering.
PLACEHOLDERS = frozenset({"...", "…", "yes|no|idk", "yes | no | idk"})


def top_level_object(text: str) -> dict[str, Any]:
    """The reply's one complete top-level JSON object: the whole text, the body of a ```json
    fence, or the object after (and before) a short chatter of at most MAX_CHATTER characters.

    Never a nested object: a reply cut inside its outer object is unusable as a whole, however
    many complete objects it holds.
    """
    fenced = _FENCE.match(text)
    body = fenced.group("body") if fenced else text
    start = body.find("{")
    if start < 0:
        raise JudgeReplyError(f"reply holds no JSON object: {_clip(text)}")
    if start > MAX_CHATTER:
        raise JudgeReplyError(
            f"reply has {start} characters before its JSON object (at most {MAX_CHATTER}): "
            f"{_clip(text)}"
        )
    if "[" in body[:start]:
        # A top-level array: its first object is nested, and the array may be cut after it.
        raise JudgeReplyError(f"reply is a JSON array, not one object: {_clip(text)}")
    try:
        value, end = json.JSONDecoder().raw_decode(body, start)
    except json.JSONDecodeError as exc:
        raise JudgeReplyError(
            f"reply is not one complete JSON object ({exc.msg} at character {exc.pos}): "
            f"{_clip(text)}"
        ) from None
    rest = body[end:].strip().removesuffix("```").strip()
    if not isinstance(value, dict):
        raise JudgeReplyError(f"reply is JSON but not an object: {_clip(text)}")
    if "{" in rest or "[" in rest:
        # Prose quoting a small object before the answer: the first object is not the reply.
        raise JudgeReplyError(f"reply holds more than one JSON value: {_clip(text)}")
    if len(rest) > MAX_CHATTER:
        raise JudgeReplyError(
            f"reply goes on for {len(rest)} characters after its JSON object: {_clip(text)}"
        )
    return value


def refuse_placeholders(value: Any) -> Any:
    """`value` unchanged, unless a string in it is a format example's stand-in ("...",
    "yes|no|idk"): a copied example is a reply error, never an answer to store."""
    found = _placeholder_in(value)
    if found is not None:
        raise JudgeReplyError(
            f"the reply copies the prompt's format example ({found!r} is a placeholder, not "
            f"an answer): {_clip(value)}"
        )
    return value


def _placeholder_in(value: Any) -> str | None:
    if isinstance(value, str):
        return value if value.strip().lower() in PLACEHOLDERS else None
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for item in items:
        found = _placeholder_in(item)
        if found is not None:
            return found
    return None


def split_packed(reply: Any, field: str, n_items: int) -> list[dict[str, Any] | None]:
    """`{"items": [{"item": n, "<field>": ...}]}` -> one `{field: value}` per item, in order.

    Items are numbered from 1 (or from 0, as some models count). An item the reply has no
    entry for is None (ask it again); a reply whose entries cannot be told apart (not a list,
    numbers repeated or out of range, unnumbered and miscounted) is unusable as a whole.
    """
    entries = _field(reply, "items")
    if not isinstance(entries, list) or not all(isinstance(entry, dict) for entry in entries):
        raise JudgeReplyError(f"'items' must be a list of objects, got {_clip(entries)}")
    numbers = [entry.get("item") for entry in entries]
    if all(number is None for number in numbers):
        if len(entries) != n_items:
            raise JudgeReplyError(
                f"the reply has {len(entries)} unnumbered entries for {n_items} items"
            )
        numbers = list(range(1, n_items + 1))
    else:
        numbers = one_based([_number(number, "item") for number in numbers])
    if len(set(numbers)) != len(numbers) or not all(1 <= n <= n_items for n in numbers):
        given = [entry.get("item") for entry in entries]
        raise JudgeReplyError(f"item numbers {given} do not match items 1..{n_items}")
    found: list[dict[str, Any] | None] = [None] * n_items
    for number, entry in zip(numbers, entries, strict=True):
        if field in entry:
            found[number - 1] = {field: entry[field]}
    return found


def parse_exact_verdicts(reply: Any, n_claims: int) -> list[tuple[str | None, str | None]]:
    """`parse_verdicts`, plus: exactly one verdict per claim, and blank reasons as None.

    The scoring stage rejects a miscount too, but a judge that talks to a model can ask again
    when it sees one here.
    """
    verdicts = parse_verdicts(reply, n_claims)
    if len(verdicts) != n_claims:
        raise JudgeReplyError(
            f"verdicts do not match the claims one to one: {len(verdicts)} verdicts for "
            f"{n_claims} claims"
        )
    return [
        (verdict, reason if reason and reason.strip() else None) for verdict, reason in verdicts
    ]
