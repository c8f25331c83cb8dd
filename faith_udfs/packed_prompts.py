"""Packed prompt templates (several items a call) and the JSON schemas of every judge reply.

A packed prompt asks the same question as its one-item template in prompts.py for up to a
few dozen items at once, so the instructions are paid once per call. Each item's data is
fenced like prompts.py does, in sections numbered from 1 (`Text 1`, `Claims 2`, ...), and the
reply lists one entry per item number. Pure: no I/O; a template change is a new version.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from faith_udfs.judges import VERDICT_VOCABULARY
from faith_udfs.prompts import (
    _DATA_RULE,
    _HEADER,
    CLAIMS,
    REASON,
    TRUTHS,
    VERDICTS,
    _fence,
    _tag,
    format_score,
    section,
)

PACKED_VERSION = "faithfulness-packed-v1"

PACKED_TRUTHS = "faithfulness.PackedTruths"
PACKED_CLAIMS = "faithfulness.PackedClaims"
PACKED_VERDICTS = "faithfulness.PackedVerdicts"
PACKED_REASONS = "faithfulness.PackedReasons"
PACKED_SCHEMAS = (PACKED_TRUTHS, PACKED_CLAIMS, PACKED_VERDICTS, PACKED_REASONS)

# The field each packed entry carries, and the one-item schema that asks the same question.
PACKED_FIELD = {
    PACKED_TRUTHS: "truths",
    PACKED_CLAIMS: "claims",
    PACKED_VERDICTS: "verdicts",
    PACKED_REASONS: "reason",
}
ONE_ITEM_SCHEMA = {
    PACKED_TRUTHS: TRUTHS,
    PACKED_CLAIMS: CLAIMS,
    PACKED_VERDICTS: VERDICTS,
    PACKED_REASONS: REASON,
}

_ITEMS_RULE = (
    "There are {n} numbered items. Answer every item independently of the others, and give "
    "exactly one entry per item number.\n"
)
_TRUTHS_TASK = (
    "For each numbered text below, list the factual statements that it states, each as a "
    "short standalone sentence, in the order they appear. Do not add knowledge of your "
    "own.{limit}\n"
    'Answer with JSON only: {{"items": [{{"item": 1, "truths": ["...", "..."]}}]}}\n'
)
_CLAIMS_TASK = (
    "For each numbered AI output below, list the factual claims that it makes, each as a "
    "short standalone sentence, in the order they appear. Do not judge them.\n"
    'Answer with JSON only: {{"items": [{{"item": 1, "claims": ["...", "..."]}}]}}\n'
)
_VERDICTS_TASK = (
    "Each numbered item below has retrieval contexts and claims (a Python list). For each "
    "claim of each item, in order, decide whether that item's retrieval contexts support it; "
    "claims are numbered from 1 within their item.\n"
    '- "yes": the contexts state it.\n'
    '- "no": the contexts cover the subject and state something different.\n'
    '- "idk": the contexts say nothing about it.\n'
    'Give a short reason for every "no" and "idk". Answer with JSON only, one verdict per '
    'claim: {{"items": [{{"item": 1, "verdicts": [{{"claim": 1, "verdict": "yes|no|idk", '
    '"reason": "..."}}]}}]}}\n'
)
_REASONS_TASK = (
    "For each numbered item below, explain in one or two sentences why an answer received "
    "the faithfulness score given, citing the contradictions listed.\n"
    'Answer with JSON only: {{"items": [{{"item": 1, "reason": "..."}}]}}\n'
)


def _render_packed(schema: str, task: str, items: Sequence[Sequence[tuple[str, str]]]) -> str:
    """Header, data rule, task, then each item's sections named `<Name> <item number>`."""
    tag = _tag(*(content for sections in items for _, content in sections))
    parts = [
        _HEADER.format(schema=schema, version=PACKED_VERSION, tag=tag),
        _DATA_RULE.format(tag=tag),
        task,
        _ITEMS_RULE.format(n=len(items)),
        "\n",
    ]
    for number, sections in enumerate(items, start=1):
        parts.extend(_fence(f"{name} {number}", content, tag) for name, content in sections)
    return "".join(parts)


def packed_truths_prompt(texts: Sequence[str], limit: int | None) -> str:
    """Prompt asking for the factual statements of several retrieved passages."""
    note = f" List at most {limit} statements per text, the most important first." if limit else ""
    return _render_packed(
        PACKED_TRUTHS, _TRUTHS_TASK.format(limit=note), [[("Text", text)] for text in texts]
    )


def packed_claims_prompt(answers: Sequence[str]) -> str:
    """Prompt asking for the claims of several answers."""
    return _render_packed(
        PACKED_CLAIMS, _CLAIMS_TASK.format(), [[("AI Output", answer)] for answer in answers]
    )


def packed_verdicts_prompt(questions: Sequence[tuple[Sequence[str], Sequence[str]]]) -> str:
    """Prompt asking for one verdict per claim of several (claims, truths) questions."""
    return _render_packed(
        PACKED_VERDICTS,
        _VERDICTS_TASK.format(),
        [
            [("Retrieval Contexts", "\n".join(truths)), ("Claims", repr(list(claims)))]
            for claims, truths in questions
        ],
    )


def packed_reasons_prompt(requests: Sequence[tuple[float, Sequence[str]]]) -> str:
    """Prompt asking for a short reason for each of several (score, contradictions)."""
    return _render_packed(
        PACKED_REASONS,
        _REASONS_TASK.format(),
        [
            [("Contradictions", repr(list(contradictions))), ("Score", format_score(score))]
            for score, contradictions in requests
        ],
    )


def packed_size(prompt: str, name: str) -> int:
    """How many items a packed prompt holds: the highest `<name> <n>` section number."""
    count = 0
    while section(prompt, f"{name} {count + 1}") is not None:
        count += 1
    return count


# --- reply schemas (OpenAI "strict" JSON schema: every property required, no extras) ------

_STATEMENTS = {"type": "array", "items": {"type": "string"}}
_VERDICT = {
    "type": "object",
    "properties": {
        "claim": {"type": "integer"},
        "verdict": {"type": "string", "enum": list(VERDICT_VOCABULARY)},
        "reason": {"type": "string"},
    },
    "required": ["claim", "verdict", "reason"],
    "additionalProperties": False,
}
_FIELD_SCHEMA: dict[str, dict[str, Any]] = {
    "truths": _STATEMENTS,
    "claims": _STATEMENTS,
    "verdicts": {"type": "array", "items": _VERDICT},
    "reason": {"type": "string"},
}
_ONE_ITEM_FIELD = {TRUTHS: "truths", CLAIMS: "claims", VERDICTS: "verdicts", REASON: "reason"}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def reply_schema(schema: str) -> dict[str, Any]:
    """The JSON schema a reply to prompts of `schema` (one-item or packed) must follow."""
    if schema in _ONE_ITEM_FIELD:
        field = _ONE_ITEM_FIELD[schema]
        return _object({field: _FIELD_SCHEMA[field]})
    if schema in PACKED_FIELD:
        field = PACKED_FIELD[schema]
        entry = _object({"item": {"type": "integer"}, field: _FIELD_SCHEMA[field]})
        return _object({"items": {"type": "array", "items": entry}})
    raise ValueError(f"unknown schema {schema!r}")
