"""What OpenAIJudge asks: each stage's task (template, cache data, size, reply parser), how
items are packed into calls, and how replies and settings are checked."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
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
from faith_udfs.packed_replies import (
    misfiled_statement,
    misfiled_verdicts,
    parse_exact_verdicts,
    refuse_placeholders,
    top_level_object,
)
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
from faith_udfs.replies import parse_reason, parse_statements

if TYPE_CHECKING:
    from flows.judges.endpoint.replies import Reply


MODES = ("per-item", "packed")
DEFAULT_MODE = "packed"
# A packed call's default size: items, and characters of their data.
PACK_SIZE, PACK_CHARS = 8, 12_000
RETRY_NOTE = (
    "Your previous reply could not be used: {reason}. Reply again with one complete JSON "
    "object in exactly the format asked for, with real content instead of the example's "
    "placeholders, and nothing else."
)
# Output tokens a call may take by default (see `reply_token_budget`): a fixed part for the
# JSON's frame, and bounds that keep a looping model short and a real answer whole.
BUDGET_PER_CALL = 64
BUDGET_FLOOR = 256
BUDGET_CEILING = 8192


# A cut reply ending in at least this many white-space characters was padded, not long: the
# model (a small one, after an unescaped quote) fills max_tokens with spaces, and a larger
# limit only buys more spaces (issue 27: 660 s for the same cut twice).
PADDING_RUN = 64


@dataclass(frozen=True)
class Packing:
    """How much a packed call carries: up to `size` items and `chars` characters of their
    data (per-item mode asks one item a call whatever these say)."""

    size: int = PACK_SIZE
    chars: int = PACK_CHARS


class ReplyCut(JudgeReplyError):
    """The reply ended at `max_tokens` (finish_reason "length"): never parsed, and not asked
    again at the same limit, which would cut it again. `padded`: it ended in white space
    only, so a larger limit would not help either."""

    def __init__(self, message: str, *, padded: bool = False) -> None:
        super().__init__(message)
        self.padded = padded


class Misfiled(JudgeReplyError):
    """An answer that reads as another item's (the own-item checks of docs/small-models.md);
    in a packed reply whose entries carry no item numbers, proof that their order is not the
    items' own."""


@dataclass(frozen=True)
class Task:
    """One question asked of the endpoint: how to render, identify and read its items."""

    stage: str
    schema: str
    render: Callable[[list[Any]], str]
    item_data: Callable[[Any], Any]
    size: Callable[[Any], int]
    parse: Callable[[Any, Any], Any]
    # Output tokens one item's answer may rightly take (see reply_token_budget).
    reply_tokens: Callable[[Any], int] = lambda _: 128
    # The text an item's statements must be taken from (truths: the passage; claims: the
    # answer); None when the answer is not statements (verdicts, reasons).
    source: Callable[[Any], str] | None = None
    # The one-item task asking the same question: a packed answer that fails for an item is
    # asked again for that item alone (None for one-item tasks).
    alone: Task | None = None

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
    """How one stage is asked: template, item data for the cache key, size, reply parser;
    a packed task carries the one-item task its failed items are asked again with."""
    task = _stage_task(stage, packed=packed, limit=limit)
    if packed:
        return replace(task, alone=_stage_task(stage, packed=False, limit=limit))
    return task


def _stage_task(stage: str, *, packed: bool, limit: int | None) -> Task:
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
            reply_tokens=lambda text: _restated_tokens(text, limit),
            source=_itself,
        )
    if stage == "claims":
        return Task(
            stage,
            PACKED_CLAIMS if packed else CLAIMS,
            render=packed_claims_prompt if packed else (lambda texts: claims_prompt(texts[0])),
            item_data=lambda text: {"text": text},
            size=len,
            parse=lambda reply, _: parse_statements(reply, "claims"),
            reply_tokens=lambda text: _restated_tokens(text, None),
            source=_itself,
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
            reply_tokens=lambda q: 16 + 48 * len(q[0]),
        )
    return Task(
        stage,
        PACKED_REASONS if packed else REASON,
        render=packed_reasons_prompt if packed else (lambda requests: reason_prompt(*requests[0])),
        item_data=lambda r: {"score": format_score(r[0]), "contradictions": list(r[1])},
        size=lambda r: sum(map(len, r[1])) + 8,
        parse=lambda reply, _: parse_reason(reply),
        reply_tokens=lambda _: 96,
    )


def _itself(text: str) -> str:
    return text


def _question_text(question: tuple[Sequence[str], Sequence[str]]) -> str:
    """A verdicts item's claims and truths, as the text its verdicts' reasons speak of."""
    claims, truths = question
    return "\n".join([*claims, *truths])


def _restated_tokens(text: str, limit: int | None) -> int:
    """Statements restate their text: about its length in tokens (a third of its characters,
    leaving room for JSON quoting), fewer under a truths limit."""
    tokens = 24 + len(text) // 3
    return min(tokens, 24 + 48 * limit) if limit else tokens


def reply_token_budget(task: Task, items: Sequence[Any], fixed: int | None = None) -> int:
    """`max_tokens` of one call: `fixed` (--max-output-tokens) when given, else
    BUDGET_PER_CALL plus each item's share (`Task.reply_tokens`), between BUDGET_FLOOR and
    BUDGET_CEILING."""
    if fixed is not None:
        return fixed
    wanted = BUDGET_PER_CALL + sum(task.reply_tokens(item) for item in items)
    return max(BUDGET_FLOOR, min(BUDGET_CEILING, wanted))


def larger_budget(budget: int, fixed: int | None) -> int | None:
    """`max_tokens` for asking again after a reply cut at `budget`: twice it, up to
    BUDGET_CEILING; None when --max-output-tokens fixed the limit or it is the ceiling already
    (at temperature 0 the same limit cuts the same reply again)."""
    if fixed is not None or budget >= BUDGET_CEILING:
        return None
    return min(BUDGET_CEILING, 2 * budget)


def read_answer(task: Task, part: Any, item: Any, others: dict[int, Any] | None = None) -> Any:
    """One item's answer from its part of a reply (or from the cache): placeholders refused,
    the stage's parser, then the check that the answer is this item's (its statements come
    from its own text, not from `others`, the pack's other items by number; a packed item's
    verdicts name its claims). A failed check is a reply error for this item alone."""
    value = task.parse(refuse_placeholders(part), item)
    wrong: str | None = None
    if task.source is not None:
        texts = {number: task.source(other) for number, other in (others or {}).items()}
        wrong = misfiled_statement(value, task.source(item), texts)
    elif task.schema == PACKED_VERDICTS:
        texts = {number: _question_text(other) for number, other in (others or {}).items()}
        wrong = misfiled_verdicts(part, len(item[0]), _question_text(item), texts)
    if wrong is not None:
        raise Misfiled(f"the answer is not this item's: {wrong}")
    return value


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
    max_output_tokens: int | None = None,
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
    if max_output_tokens is not None and (
        isinstance(max_output_tokens, bool)
        or not isinstance(max_output_tokens, int)
        or max_output_tokens < 16
    ):
        raise ConfigError(
            f"--max-output-tokens must be an integer >= 16, got {max_output_tokens!r}"
        )
    for name, cap in (("max_calls", max_calls), ("max_tokens", max_tokens)):
        if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 0):
            raise ConfigError(f"{name} must be a non-negative integer or None, got {cap!r}")
    if not timeout or timeout <= 0:
        raise ConfigError(f"timeout must be a positive number of seconds, got {timeout!r}")


def json_reply(reply: Reply, *, alone: bool = False) -> Any:
    """The reply's one complete top-level JSON object; a reply the token limit cut is refused
    unread (its first part may well parse, and would be a wrong answer). `alone`: the reply
    to a one-item prompt, what --judge-mode per-item asks (so not advised)."""
    if reply.finish_reason == "length":
        if padded(reply.text):
            raise ReplyCut(
                f"the reply was cut at max_tokens={reply.max_tokens} after "
                f"{len(reply.text.rstrip())} characters of text and then only white space: "
                "the model padded it (an unescaped quote inside a string is the usual cause), "
                "so a larger --max-output-tokens will not help; try "
                + (
                    "another model (a larger one)"
                    if alone
                    else "--judge-mode per-item or another model"
                ),
                padded=True,
            )
        raise reply_cut(reply.max_tokens, alone=alone)
    return top_level_object(reply.text)


def reply_cut(max_tokens: int | None, *, alone: bool = False) -> ReplyCut:
    """The error of an item whose reply ended at `max_tokens` (a dry run's too, where the
    stand-in's reply is longer than --max-output-tokens); `alone`: of a one-item prompt,
    already the shortest reply (--judge-mode per-item asks no shorter)."""
    shorter = "" if alone else ", or use --judge-mode per-item for shorter replies"
    return ReplyCut(
        f"the reply was cut at max_tokens={max_tokens} (finish_reason 'length') before it "
        f"ended; raise --max-output-tokens{shorter}"
    )


def padded(text: str) -> bool:
    """Whether a cut reply ends in a run of PADDING_RUN white-space characters or more."""
    return len(text) - len(text.rstrip()) >= PADDING_RUN


def cut_twice(first: Reply, second: Reply) -> ReplyCut:
    """The error of an item whose reply was cut at the same place twice: not asked again.
    Only a one-item ask is asked twice (--judge-mode per-item), so that mode is no advice."""
    return ReplyCut(
        f"the reply was cut twice at the same place (after {len(second.text.rstrip())} "
        f"characters, at max_tokens={first.max_tokens} and then {second.max_tokens}): the "
        "model stops making progress there (padding, or an unescaped quote), not for want of "
        "room; not asked a third time. A larger --max-output-tokens will not help (the second "
        "ask had twice the room); try another model (a larger one)",
        padded=True,
    )


def lost_answer() -> JudgeError:
    """The error of an item no call answered."""
    return JudgeError("the judge returned no answer for this item")


def outcomes(results: Sequence[Result]) -> list[ItemOutcome]:
    """Each call's result as the item outcome the stages' frames are built from."""
    return [
        ItemOutcome(value=r.value) if r.error is None else outcome_of_error(r.error)
        for r in results
    ]
