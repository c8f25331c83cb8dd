"""Reading packed replies strictly, holding verdicts to the claims one to one, and checking
that each item's answer is that item's own (docs/small-models.md).

Pure: JSON values in, plain values out, JudgeReplyError when a reply is unusable.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from faith_udfs.errors import JudgeReplyError
from faith_udfs.replies import (
    EMPTY_REPLY,
    HALF_PAIR,
    _clip,
    _field,
    _number,
    one_based,
    parse_statements,
    parse_verdicts,
    past_reasoning,
    past_unopened_reasoning,
)
from faith_udfs.words import STOP_WORDS, WORD_PATTERN

# Text a model may put around its JSON object: "Here is the JSON:" and the like.
MAX_CHATTER = 200
_FENCE = re.compile(r"\A\s*```[a-zA-Z]*[ \t]*\n(?P<body>.*?)\n?```\s*\Z", re.DOTALL)
# The format examples' stand-ins in every template (prompts.py, packed_prompts.py): a reply
# holding one copied the example instead of answering.
PLACEHOLDERS = frozenset({"...", "…", "yes|no|idk", "yes | no | idk"})


def top_level_object(text: str) -> dict[str, Any]:
    """The reply's one complete top-level JSON object: the whole text, the body of a ```json
    fence, or the object after (and before) a short chatter of at most MAX_CHATTER characters;
    a thinking model's opening `<think>...</think>` block is read past first.

    Never a nested object: a reply cut inside its outer object is unusable as a whole, however
    many complete objects it holds. A reply unusable as it stands that shows the end of a
    reasoning block the chat template opened (`...</think>`) is read after that end.
    """
    answer = past_reasoning(text)
    try:
        return _one_object(answer, text)
    except JudgeReplyError:
        after = past_unopened_reasoning(answer)
        if after is None:
            raise
        return _one_object(after, text)


def _one_object(answer: str, text: str) -> dict[str, Any]:
    """`answer`'s one complete top-level object (top_level_object's rules; `text`, the whole
    reply, is what an error quotes)."""
    if not answer.strip():
        raise JudgeReplyError(EMPTY_REPLY)
    fenced = _FENCE.match(answer)
    body = fenced.group("body") if fenced else answer
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
        value, end = json.JSONDecoder(object_pairs_hook=unique_keys).raw_decode(body, start)
    except json.JSONDecodeError as exc:
        raise JudgeReplyError(
            f"reply is not one complete JSON object ({exc.msg} at character {exc.pos}): "
            f"{_clip(text)}"
        ) from None
    except (ValueError, RecursionError) as exc:
        # JSON that Python will not read: nested past the interpreter's depth, or a number of
        # more than 4,300 digits. A server's text, so a reply error, never a crash of the run.
        raise JudgeReplyError(
            f"reply is JSON too deep or with too long a number to read ({type(exc).__name__}): "
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
    half = HALF_PAIR.search(json.dumps(value, ensure_ascii=False))
    if half is not None:
        shown = _clip(HALF_PAIR.sub("\N{REPLACEMENT CHARACTER}", text))
        # JSON's "\ud83d" alone (an emoji's escape cut in two) decodes to a character UTF-8
        # cannot carry: no frame or table could hold the answer.
        raise JudgeReplyError(
            f"the reply holds half of a UTF-16 pair ('\\u{ord(half.group()):04x}' without "
            f"its other half), not text: {shown}"
        )
    return value


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict, refusing a key written twice: json keeps the last one
    silently, and a small model may write `"items"` twice with the wrong list last."""
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise JudgeReplyError(
                f"the reply writes the key {key!r} twice in one object (which one is meant "
                "cannot be told)"
            )
        seen[key] = value
    return seen


def strict_loads(text: str) -> Any:
    """`json.loads`, refusing duplicate keys (stored replies are read back with it)."""
    try:
        return json.loads(text, object_pairs_hook=unique_keys)
    except json.JSONDecodeError as exc:
        raise JudgeReplyError(f"stored reply is not JSON ({exc.msg})") from None


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
    entry for is None (ask it again). A reply whose entries cannot be told apart is unusable
    as a whole, with the error naming what was wrong: not a list, more entries than items, an
    entry without a number among numbered ones, a number out of range or given twice.
    """
    entries = _field(reply, "items")
    if not isinstance(entries, list) or not all(isinstance(entry, dict) for entry in entries):
        raise JudgeReplyError(f"'items' must be a list of objects, got {_clip(entries)}")
    if len(entries) > n_items:
        raise JudgeReplyError(f"the reply has {len(entries)} entries for {n_items} items")
    given = [entry.get("item") for entry in entries]
    if all(number is None for number in given):
        if len(entries) != n_items:
            raise JudgeReplyError(
                f"the reply has {len(entries)} unnumbered entries for {n_items} items"
            )
        numbers = list(range(1, n_items + 1))
    else:
        if None in given:
            raise JudgeReplyError(
                f"entry {given.index(None) + 1} of the reply has no item number; the others do"
            )
        numbers = one_based([_number(number, "item") for number in given])
    _check_numbers(numbers, given, n_items)
    found: list[dict[str, Any] | None] = [None] * n_items
    for number, entry in zip(numbers, entries, strict=True):
        if field in entry:
            found[number - 1] = {field: entry[field]}
    return found


def numbered(reply: Any) -> bool:
    """Whether a packed reply's entries carry item numbers; split_packed reads unnumbered
    entries in order, which only holds while each proves to be its item's."""
    entries = reply.get("items") if isinstance(reply, dict) else None
    return isinstance(entries, list) and any(
        isinstance(entry, dict) and entry.get("item") is not None for entry in entries
    )


def _check_numbers(numbers: list[int], given: list[Any], n_items: int) -> None:
    """Each item number in 1..n_items at most once; the error names the first that is not."""
    seen: set[int] = set()
    for number, written in zip(numbers, given, strict=True):
        if not 1 <= number <= n_items:
            raise JudgeReplyError(
                f"item number {written!r} is out of range: the prompt has items 1..{n_items}"
            )
        if number in seen:
            raise JudgeReplyError(f"item number {written!r} is given twice")
        seen.add(number)


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


# --- whose answer is it? (rules on words, never on the judge's wording) --------------------

# A statement (truth or claim) must share at least this share of its content words with its
# own item's text: a model restates its text, it does not write another item's facts.
OWN_SHARE_FLOOR = 0.5
# Words of at least this many letters match a longer word they start ("ship" ~ "shipped").
_STEM_MIN = 4
_SUFFIXES = ("ing", "ed", "es", "s")
_DIGIT = re.compile(r"\d")


# Scripts written without spaces between words (Han, kana): a run of their characters is one
# "word" of WORD_PATTERN, a whole clause, which a restatement never matches. Such a run counts
# as its pairs of characters (a lone character as itself), its digits and Latin as words.
_UNSPACED_RUN = re.compile(
    "[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
    "\U00020000-\U0003134f]+"
)


def text_words(text: str) -> frozenset[str]:
    """Content words of `text` as the lexical judge finds them, lightly stemmed; in a script
    written without spaces, pairs of characters."""
    words: set[str] = set()
    for word in re.findall(WORD_PATTERN, text.lower()):
        for part in _unspaced_parts(word):
            if part not in STOP_WORDS:
                words.add(_stem(part))
    return frozenset(words)


def _unspaced_parts(word: str) -> list[str]:
    """`word` alone, or, when it holds characters of a script without spaces, each run of
    them as its pairs of characters and each run of other characters (digits, Latin) whole."""
    parts: list[str] = []
    last = 0
    for run in _UNSPACED_RUN.finditer(word):
        if run.start() > last:
            parts.append(word[last : run.start()])
        chars = run.group()
        parts.extend(chars[i : i + 2] for i in range(max(1, len(chars) - 1)))
        last = run.end()
    if last < len(word):
        parts.append(word[last:])
    return parts


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= _STEM_MIN - 1:
            return word[: -len(suffix)]
    return word


def coverage(statement: frozenset[str], text: frozenset[str]) -> float:
    """Share of a statement's words found in a text (a word or a stem it starts); 1.0 for a
    statement without content words (it can belong to no item in particular)."""
    if not statement:
        return 1.0
    found = sum(1 for word in statement if _matches(word, text))
    return found / len(statement)


def _matches(word: str, text: frozenset[str]) -> bool:
    if word in text:
        return True
    if len(word) < _STEM_MIN:
        return False
    return any(
        len(other) >= _STEM_MIN and (other.startswith(word) or word.startswith(other))
        for other in text
    )


def misfiled_statement(
    statements: Sequence[str], own: str, others: dict[int, str] | None = None
) -> str | None:
    """Why `statements` are not an answer about `own`, or None when they are.

    A statement fails when it names a number or id (a word with a digit) its own text does
    not hold, when it shares less than OWN_SHARE_FLOOR of its content words with its own
    text, or when another item's text (`others`: item number -> text, the pack it came
    with) covers more of it than its own does: it was copied from, or filed under, the wrong
    item.
    """
    own_words = text_words(own)
    other_words = {number: text_words(text) for number, text in (others or {}).items()}
    for position, statement in enumerate(statements, start=1):
        words = text_words(statement)
        share = coverage(words, own_words)
        foreign = sorted(w for w in words if _DIGIT.search(w) and w not in own_words)
        if foreign:
            return (
                f"statement {position} ({_clip(statement, 80)!r}) names {foreign[0]!r}, which "
                "this item's text does not contain: numbers and ids are never made up"
            )
        if share < OWN_SHARE_FLOOR:
            return (
                f"statement {position} ({_clip(statement, 80)!r}) shares {share:.0%} of its "
                f"words with this item's text (at least {OWN_SHARE_FLOOR:.0%} needed): it is "
                "not taken from this item"
            )
        for number, words_of_other in other_words.items():
            if share < 1.0 and coverage(words, words_of_other) > share:
                return (
                    f"statement {position} ({_clip(statement, 80)!r}) matches item {number}'s "
                    "text better than this item's: filed under the wrong item"
                )
    return None


def misfiled_verdicts(
    part: Any, n_claims: int, own: str, others: dict[int, str] | None = None
) -> str | None:
    """Why a packed item's verdicts do not answer that item's claims, or None: one verdict
    per claim, each naming its claim (`"claim": k`), and no verdict whose reason shares more
    words with another item's claims and contexts (`others`: number -> text) than with its
    own (`own`): the reason of a shifted verdict speaks of the item it was written for."""
    verdicts = part.get("verdicts") if isinstance(part, dict) else None
    if not isinstance(verdicts, list):
        return None  # the stage's parser says what is wrong with the shape
    if len(verdicts) != n_claims:
        return f"{len(verdicts)} verdicts for this item's {n_claims} claims"
    named = [v.get("claim") if isinstance(v, dict) else None for v in verdicts]
    if None in named:
        return f'verdict {named.index(None) + 1} does not name its claim ("claim": k)'
    own_words = text_words(own)
    other_words = {number: text_words(text) for number, text in (others or {}).items()}
    for position, verdict in enumerate(verdicts, start=1):
        reason = verdict.get("reason")
        if not isinstance(reason, str):
            continue
        words = text_words(reason)
        share = coverage(words, own_words)
        for number, words_of_other in other_words.items():
            if coverage(words, words_of_other) > share:
                return (
                    f"the reason of verdict {position} ({_clip(reason, 80)!r}) speaks of item "
                    f"{number}'s claims, not this item's: filed under the wrong item"
                )
    return None


def cached_answer_problem(schema: str, reply: str, item: str) -> str | None:
    """Why a stored answer (judge_cache: its schema, reply and item JSON) is not its item's,
    or None: the same rules a fresh answer meets (`misfiled_statement` for truths and claims,
    one verdict per claim for verdicts; reasons are free text)."""
    try:
        part = strict_loads(reply)
        data = json.loads(item)
        field = _CACHED_FIELD.get(schema.rsplit(".", 1)[-1].removeprefix("Packed"))
        if field in ("truths", "claims"):
            statements = parse_statements(part, field)
            return misfiled_statement(statements, str(data["text"]))
        if field == "verdicts":
            verdicts = _field(part, "verdicts")
            n_claims = len(data["claims"])
            if not isinstance(verdicts, list) or len(verdicts) != n_claims:
                return f"{_clip(verdicts, 60)} are not one verdict for each of {n_claims} claims"
    except JudgeReplyError as exc:
        return str(exc)
    except (ValueError, KeyError, TypeError) as exc:
        return f"unreadable stored row ({type(exc).__name__}: {exc})"
    return None


# The schemas' last word (faithfulness.Truths, faithfulness.PackedTruths, ...) -> the field.
_CACHED_FIELD = {"Truths": "truths", "Claims": "claims", "Verdicts": "verdicts"}
