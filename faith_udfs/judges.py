"""The one batched judge interface, and a base for judges that answer item by item.

A judge answers four questions, each as a frame in and a frame out, keyed by `key` (UInt64):

| method | in | out |
| --- | --- | --- |
| `truths(passages, limit)` | `key`, `text` | `key`, `truths: list[str]` |
| `claims(answers)` | `key`, `text` | `key`, `claims: list[str]` |
| `verdicts(questions)` | `key`, `claims`, `truths` (lists) | `key`, `verdicts`, `reasons` (lists) |
| `reasons(requests)` | `key`, `score: f64`, `contradictions: list[str]` | `key`, `reason: str` |

Every output may also carry `error` (str, null when fine) and `pending` (bool): an item the
judge could not answer. Items missing from the output count as errors. Judges never see the
metric config beyond the truths limit, and never read the environment.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeGuard, TypeVar, runtime_checkable

import polars as pl

from faith_udfs.config import JudgeIdentity
from faith_udfs.errors import JudgeCrashed, JudgeError

T = TypeVar("T")
R = TypeVar("R")

VERDICT_VOCABULARY = ("yes", "no", "idk")


@runtime_checkable
class Judge(Protocol):
    """Batched judge: four frame-in, frame-out questions (see the module docstring)."""

    @property
    def identity(self) -> JudgeIdentity: ...

    def truths(self, passages: pl.DataFrame, limit: int | None) -> pl.DataFrame: ...

    def claims(self, answers: pl.DataFrame) -> pl.DataFrame: ...

    def verdicts(self, questions: pl.DataFrame) -> pl.DataFrame: ...

    def reasons(self, requests: pl.DataFrame) -> pl.DataFrame: ...


_JUDGE_MEMBERS = ("identity", "truths", "claims", "verdicts", "reasons")
_JUDGE_TYPES: set[type] = set()


def is_judge(value: object) -> TypeGuard[Judge]:
    """`isinstance(value, Judge)`, remembered per class when the class itself has every member
    (a Protocol check costs ~0.1 ms: a tenth of measure()'s budget)."""
    kind = type(value)
    if kind in _JUDGE_TYPES:
        return True
    if not isinstance(value, Judge):
        return False
    if all(hasattr(kind, name) for name in _JUDGE_MEMBERS):
        _JUDGE_TYPES.add(kind)
    return True


@dataclass(frozen=True)
class ItemOutcome(Generic[R]):
    """One item's answer, or why there is none."""

    value: R | None = None
    error: str | None = None
    pending: bool = False


def describe_error(exc: BaseException) -> str:
    """`Type: message`, the form errors are stored in (never a traceback, never a secret)."""
    return f"{type(exc).__name__}: {exc}"


def outcome_of_error(exc: JudgeError) -> ItemOutcome:
    """The outcome a judge error gives its item."""
    return ItemOutcome(error=describe_error(exc), pending=exc.case_status == "pending")


def crash_of(method: Callable[..., object], exc: BaseException) -> JudgeCrashed:
    """The error that stops a run when a judge, asked through `method`, raised `exc`, which
    is not a judge error; it names the judge by its identity's kind and model."""
    judge = _judge_of(method)
    identity = getattr(judge, "identity", None)
    if isinstance(identity, JudgeIdentity):
        name = f"{identity.kind}/{identity.model}"
    else:
        name = getattr(judge, "__qualname__", None) or type(judge).__name__
    return JudgeCrashed(name, exc)


def _judge_of(method: Callable[..., object]) -> object:
    """The judge behind `method`: a bound method's object, or the judge a stage's lambda
    closes over (`lambda items: judge.truths(items, limit)`); else `method` itself."""
    owner = getattr(method, "__self__", None)
    if owner is not None:
        return owner
    for cell in getattr(method, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # a cell not filled yet
            continue
        if isinstance(value, Judge):
            return value
    return method


class ItemJudge(ABC):
    """A judge that answers one item at a time.

    Subclasses answer single items; `map_items` decides how a batch of items is run
    (sequentially here; an LLM judge fans out to concurrent calls) without any stage changing.
    """

    @property
    @abstractmethod
    def identity(self) -> JudgeIdentity: ...

    @abstractmethod
    def answer_truths(self, text: str, limit: int | None) -> list[str]: ...

    @abstractmethod
    def answer_claims(self, text: str) -> list[str]: ...

    @abstractmethod
    def answer_verdicts(
        self, claims: list[str], truths: list[str]
    ) -> list[tuple[str | None, str | None]]: ...

    @abstractmethod
    def answer_reason(self, score: float, contradictions: list[str]) -> str: ...

    def map_items(self, answer: Callable[[T], R], items: Sequence[T]) -> list[ItemOutcome[R]]:
        """Answer every item, turning each item's judge error into its own outcome; any other
        exception is a bug and propagates."""
        outcomes: list[ItemOutcome[R]] = []
        for item in items:
            try:
                outcomes.append(ItemOutcome(value=answer(item)))
            except JudgeError as exc:
                outcomes.append(outcome_of_error(exc))
        return outcomes

    def truths(self, passages: pl.DataFrame, limit: int | None) -> pl.DataFrame:
        outcomes = self.map_items(
            lambda text: self.answer_truths(text, limit), passages["text"].to_list()
        )
        return outcome_frame(passages["key"], "truths", pl.List(pl.String), outcomes)

    def claims(self, answers: pl.DataFrame) -> pl.DataFrame:
        outcomes = self.map_items(self.answer_claims, answers["text"].to_list())
        return outcome_frame(answers["key"], "claims", pl.List(pl.String), outcomes)

    def verdicts(self, questions: pl.DataFrame) -> pl.DataFrame:
        pairs = list(zip(questions["claims"].to_list(), questions["truths"].to_list(), strict=True))
        outcomes = self.map_items(lambda pair: self.answer_verdicts(*pair), pairs)
        return verdicts_frame(questions["key"], outcomes)

    def reasons(self, requests: pl.DataFrame) -> pl.DataFrame:
        pairs = list(zip(requests["score"], requests["contradictions"].to_list(), strict=True))
        outcomes = self.map_items(lambda pair: self.answer_reason(*pair), pairs)
        return outcome_frame(requests["key"], "reason", pl.String, outcomes)


def outcome_frame(
    keys: pl.Series,
    column: str,
    dtype: pl.DataType | type[pl.DataType],
    outcomes: Sequence[ItemOutcome],
) -> pl.DataFrame:
    """A stage's answer frame from per-item outcomes: `key`, `column`, `error`, `pending`."""
    return pl.DataFrame(
        {
            "key": keys,
            column: pl.Series([o.value for o in outcomes], dtype=dtype),
            "error": pl.Series([o.error for o in outcomes], dtype=pl.String),
            "pending": pl.Series([o.pending for o in outcomes], dtype=pl.Boolean),
        }
    )


def verdicts_frame(
    keys: pl.Series, outcomes: Sequence[ItemOutcome[list[tuple[str | None, str | None]]]]
) -> pl.DataFrame:
    """The verdicts stage's answer frame from per-item (verdict, reason) lists."""
    pairs = [o.value for o in outcomes]
    return pl.DataFrame(
        {
            "key": keys,
            "verdicts": pl.Series(
                [[v for v, _ in p] if p is not None else None for p in pairs],
                dtype=pl.List(pl.String),
            ),
            "reasons": pl.Series(
                [[r for _, r in p] if p is not None else None for p in pairs],
                dtype=pl.List(pl.String),
            ),
            "error": pl.Series([o.error for o in outcomes], dtype=pl.String),
            "pending": pl.Series([o.pending for o in outcomes], dtype=pl.Boolean),
        }
    )
