"""Reading packed replies and holding verdicts to the claims one to one.

Pure: JSON values in, plain values out, JudgeReplyError when a reply is unusable.
"""

from __future__ import annotations

from typing import Any

from faith_udfs.errors import JudgeReplyError
from faith_udfs.replies import _clip, _field, _number, one_based, parse_verdicts


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
