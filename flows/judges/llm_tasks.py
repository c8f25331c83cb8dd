"""What OpenAIJudge asks: each stage's task (template, cache data, size, reply parser), how
items are packed into calls, and how replies and settings are checked."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from faith_udfs.errors import ConfigError, JudgeError, JudgeReplyError
from faith_udfs.judges import (
    ItemOutcome,
    outcome_of_error,
)
from faith_udfs.packed_prompts import (
    PACKED_CLAIMS,
    PACKED_FIELD,
    PACKED_REASONS,
    PACKED_TRUTHS,
    PACKED_VERDICTS,
    packed_claims_prompt,
    packed_reasons_prompt,
    packed_truths_prompt,
    packed_verdicts_prompt,
)
from faith_udfs.packed_replies import parse_exact_verdicts
from faith_udfs.prompts import (
    CLAIMS,
    REASON,
    TRUTHS,
    VERDICTS,
    claims_prompt,
    format_score,
    reason_prompt,
    truths_prompt,
    verdicts_prompt,
)
from faith_udfs.replies import first_json_object, parse_reason, parse_statements
from flows.judges.llm_transport import Reply

if TYPE_CHECKING:
    pass


MODES = ("per-item", "packed")
DEFAULT_MODE = "packed"
RETRY_NOTE = (
    "Your previous reply to this could not be used: {reason}. Reply again with one complete "
    "JSON object in exactly the format asked for, and nothing else."
)


@dataclass(frozen=True)
class Task:
    """One question asked of the endpoint: how to render, identify and read its items."""

    stage: str
    schema: str
    render: Callable[[list[Any]], str]
    item_data: Callable[[Any], Any]
    size: Callable[[Any], int]
    parse: Callable[[Any, Any], Any]

    @property
    def packed_field(self) -> str | None:
        """The field each entry of a packed reply carries; None when one item is asked."""
        return PACKED_FIELD.get(self.schema)


@dataclass(frozen=True)
class Result:
    """One item's answer, or the error that left it unanswered."""

    value: Any = None
    error: JudgeError | None = None


def judge_task(stage: str, *, packed: bool, limit: int | None = None) -> Task:
    """How one stage is asked: template, item data for the cache key, size, reply parser."""
    if stage == "truths":
        return Task(
            stage,
            PACKED_TRUTHS if packed else TRUTHS,
            render=(lambda texts: packed_truths_prompt(texts, limit))
            if packed
            else (lambda texts: truths_prompt(texts[0], limit)),
            item_data=lambda text: {"text": text, "limit": limit},
            size=len,
            parse=lambda reply, _: parse_statements(reply, "truths"),
        )
    if stage == "claims":
        return Task(
            stage,
            PACKED_CLAIMS if packed else CLAIMS,
            render=packed_claims_prompt if packed else (lambda texts: claims_prompt(texts[0])),
            item_data=lambda text: {"text": text},
            size=len,
            parse=lambda reply, _: parse_statements(reply, "claims"),
        )
    if stage == "verdicts":
        return Task(
            stage,
            PACKED_VERDICTS if packed else VERDICTS,
            render=packed_verdicts_prompt
            if packed
            else (lambda questions: verdicts_prompt(*questions[0])),
            item_data=lambda q: {"claims": list(q[0]), "truths": list(q[1])},
            size=lambda q: sum(map(len, q[0])) + sum(map(len, q[1])),
            parse=lambda reply, q: parse_exact_verdicts(reply, len(q[0])),
        )
    return Task(
        stage,
        PACKED_REASONS if packed else REASON,
        render=packed_reasons_prompt if packed else (lambda requests: reason_prompt(*requests[0])),
        item_data=lambda r: {"score": format_score(r[0]), "contradictions": list(r[1])},
        size=lambda r: sum(map(len, r[1])) + 8,
        parse=lambda reply, _: parse_reason(reply),
    )


def packs_of(
    task: Task, items: list[Any], indices: list[int], *, pack_size: int, pack_chars: int
) -> list[list[int]]:
    """The items at `indices` in packs of at most `pack_size` items and `pack_chars` characters."""
    packs: list[list[int]] = []
    current: list[int] = []
    chars = 0
    for index in indices:
        size = task.size(items[index])
        if current and (len(current) >= pack_size or chars + size > pack_chars):
            packs.append(current)
            current, chars = [], 0
        current.append(index)
        chars += size
    if current:
        packs.append(current)
    return packs


def split_evenly(total: int, parts: int) -> list[int]:
    """`total` in `parts` whole shares that add up to it exactly (the first ones get the rest)."""
    share, rest = divmod(total, parts)
    return [share + (1 if n < rest else 0) for n in range(parts)]


def template_reason(score: float, contradictions: Sequence[str | None] | None) -> str:
    """The reason without a call: the score, then each contradiction, as the lexical judge."""
    parts = [f"The score is {format_score(score)}."]
    for text in contradictions or []:
        stripped = (text or "").strip()
        if stripped:
            parts.append(stripped if stripped[-1] in ".!?" else f"{stripped}.")
    return " ".join(parts)


def check_judge_settings(
    *,
    model: str,
    mode: str,
    concurrency: int,
    timeout: float,
    max_retries: int,
    max_calls: int | None,
    max_tokens: int | None,
    pack_size: int,
    pack_chars: int,
) -> None:
    """Refuse settings OpenAIJudge cannot work with, saying how to fix them."""
    if not isinstance(model, str) or not model.strip():
        raise ConfigError("--judge openai needs --model NAME (e.g. --model gpt-4o-mini)")
    if mode not in MODES:
        raise ConfigError(f"unknown judge mode {mode!r}; expected one of {', '.join(MODES)}")
    for name, value, least in (
        ("concurrency", concurrency, 1),
        ("max_retries", max_retries, 0),
        ("pack_size", pack_size, 1),
        ("pack_chars", pack_chars, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ConfigError(f"{name} must be an integer >= {least}, got {value!r}")
    for name, cap in (("max_calls", max_calls), ("max_tokens", max_tokens)):
        if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 0):
            raise ConfigError(f"{name} must be a non-negative integer or None, got {cap!r}")
    if not timeout or timeout <= 0:
        raise ConfigError(f"timeout must be a positive number of seconds, got {timeout!r}")


def json_reply(reply: Reply) -> Any:
    """The first JSON object of a reply; says so when the token limit cut it."""
    try:
        return first_json_object(reply.text)
    except JudgeReplyError as exc:
        if reply.finish_reason == "length":
            raise JudgeReplyError(
                f"the reply was cut at the token limit before its JSON ended: {exc}"
            ) from None
        raise


def lost_answer() -> JudgeError:
    """The error of an item no call answered."""
    return JudgeError("the judge returned no answer for this item")


def outcomes(results: Sequence[Result]) -> list[ItemOutcome]:
    """Each call's result as the item outcome the stages' frames are built from."""
    return [
        ItemOutcome(value=r.value) if r.error is None else outcome_of_error(r.error)
        for r in results
    ]
