"""DeepEval's shapes without DeepEval: a verdict word that reads `idk` as `borderline`, a judge
made from a `DeepEvalBaseLLM`-shaped object, and the hook that turns a model name into a judge.

faith_udfs does no I/O, so a model *name* ("gpt-4o-mini") needs a resolver that `flows`
installs (`import flows.run.deepeval`); without one, a name is refused with a one-line fix.
"""

from __future__ import annotations

import copy
import functools
import inspect
import math
import numbers
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from faith_udfs.awaiting import (
    Pacer,
    loop_running_here,
    map_together,
    run_awaitable,
    run_in_worker,
)
from faith_udfs.deepeval_schemas import STAND_INS, SchemaStandIn, reply_dict, schema_class
from faith_udfs.errors import ConfigError, JudgeError, first_line_of
from faith_udfs.judges import ItemOutcome, Judge, is_judge
from faith_udfs.prompt_judge import PromptJudge
from faith_udfs.prompts import CLAIMS, REASON, TRUTHS, VERDICTS
from faith_udfs.replies import parse_reason, parse_statements, parse_verdicts

# DeepEval 4 calls the middle verdict "borderline" and reads "idk" as its legacy alias; the
# tables keep `idk`, and a verdict word compares equal to both.
MIDDLE_VERDICTS = frozenset({"idk", "borderline"})

T = TypeVar("T")
R = TypeVar("R")
ModelResolver = Callable[[str], Judge]
_RESOLVERS: list[ModelResolver] = []

__all__ = [  # the stand-ins and reply_dict live in deepeval_schemas, named here as before
    "STAND_INS",
    "DeepEvalModelJudge",
    "SchemaStandIn",
    "VerdictWord",
    "judge_of",
    "register_model_resolver",
    "reply_dict",
]

NAME_NEEDS_FLOWS = (
    "model={name!r} names an LLM endpoint, which faith_udfs (no I/O) cannot reach: "
    "`import flows.run.deepeval` first (it installs the OpenAI-compatible judge), or pass a judge"
)


class VerdictWord(str):
    """A verdict as stored (`yes`, `no`, `idk`) that also equals DeepEval 4's `borderline`."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str) and str.__eq__(self, "idk"):
            return other in MIDDLE_VERDICTS
        return str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = str.__hash__


def register_model_resolver(resolver: ModelResolver) -> None:
    """Install what turns a model name into a judge (flows installs the LLM judge's)."""
    if resolver not in _RESOLVERS:
        _RESOLVERS.append(resolver)


def judge_of(model: object) -> Judge:
    """The judge `model` names: a faith_udfs judge as is, a DeepEval-shaped LLM wrapped, a model
    name through the installed resolver; anything else is refused with what is accepted."""
    if is_judge(model):
        return model
    if isinstance(model, str):
        if not _RESOLVERS:
            raise ConfigError(NAME_NEEDS_FLOWS.format(name=model))
        return _RESOLVERS[-1](model)
    if is_deepeval_model(model):
        return DeepEvalModelJudge(model)
    raise TypeError(
        "model must be a faith_udfs judge (GroundedJudge(), LexicalJudge(), PromptJudge(...)), "
        "a DeepEvalBaseLLM-shaped object (generate, get_model_name) or a model name, "
        f"got {type(model).__name__}"
    )


def limited_judge(
    judge: Judge, run_async: bool, max_concurrent: object, throttle_value: object = 0
) -> Judge:
    """The judge evaluate() asks under DeepEval's AsyncConfig: a DeepEval-shaped model's copy
    with `max_concurrent` calls in flight at most (1 without `run_async`), an async model's
    calls started `throttle_value` seconds apart at least; others as given."""
    whole = isinstance(max_concurrent, numbers.Integral) and not isinstance(max_concurrent, bool)
    if not whole or int(max_concurrent) < 1:  # type: ignore[call-overload]
        raise ConfigError(
            f"max_concurrent must be a whole number of at least 1, got {max_concurrent!r}"
        )
    number = isinstance(throttle_value, numbers.Real) and not isinstance(throttle_value, bool)
    if not number or not 0 <= float(throttle_value) < math.inf:  # type: ignore[arg-type]
        raise ConfigError(
            f"throttle_value must be a number of seconds, 0 or more, got {throttle_value!r}"
        )
    if not isinstance(judge, DeepEvalModelJudge):
        return judge
    limited = copy.copy(judge)
    limited._answer = limited._generate  # the copy asks through itself
    limited.max_concurrent = int(max_concurrent) if run_async else 1  # type: ignore[call-overload]
    spacing = float(throttle_value)  # type: ignore[arg-type]
    limited.pacer = Pacer(spacing) if spacing > 0 else None
    return limited


def templated_judge(model: object, template: object) -> DeepEvalModelJudge:
    """A DeepEval-shaped model asking the prompts `template` writes. Any other judge reads
    prompts of its own, so the template is refused in one line saying why and what to pass."""
    if is_deepeval_model(model):
        return DeepEvalModelJudge(model, evaluation_template=template)
    if isinstance(model, str):
        why = (
            f"model={model!r} is a model name, which faithpipe reads as its OpenAI-compatible "
            "judge, asking its own packed prompts"
        )
    elif model is None:
        why = "no model: the offline GroundedJudge reads no prompt"
    else:
        why = f"{type(model).__name__} reads faithpipe's own prompts"
    named = getattr(template, "__name__", type(template).__name__)
    raise ConfigError(
        f"evaluation_template={named} writes the prompts a DeepEval-shaped model reads, and "
        f"{why}: pass model= a DeepEvalBaseLLM-shaped object (generate, get_model_name) that "
        "calls your LLM, or leave evaluation_template out"
    )


def is_deepeval_model(model: object) -> bool:
    """Duck-typed `DeepEvalBaseLLM`: a callable `generate` and `get_model_name`."""
    return callable(getattr(model, "generate", None)) and callable(
        getattr(model, "get_model_name", None)
    )


class DeepEvalModelJudge(PromptJudge):
    """A `DeepEvalBaseLLM`-shaped model as a prompt judge: our prompts (or a DeepEval
    `evaluation_template`'s) go to `generate(prompt)`; its JSON replies are read as usual."""

    # Calls of an async `generate` in flight at once (DeepEval's AsyncConfig.max_concurrent),
    # and the seconds between their starts (its throttle_value: a rate-limited account's).
    max_concurrent = 20
    pacer: Pacer | None = None

    def __init__(self, model: Any, *, evaluation_template: Any = None) -> None:
        self.deepeval_model = model
        self.template = evaluation_template
        self._awaits = inspect.iscoroutinefunction(model.generate)
        takes_schema = _takes_schema(model.generate)
        super().__init__(self._generate, model=str(model.get_model_name()))
        self._takes_schema = takes_schema
        if evaluation_template is not None:  # other prompts: another config
            name = getattr(evaluation_template, "__qualname__", type(evaluation_template).__name__)
            identity = self.identity
            self._identity = type(identity)(
                kind=identity.kind,
                model=identity.model,
                prompt_version=identity.prompt_version,
                options=(*identity.options, ("evaluation_template", str(name))),
            )

    def __repr__(self) -> str:
        return f"DeepEvalModelJudge(model={self.identity.model!r})"

    def _generate(self, prompt: str, schema: str) -> Any:
        """The model's JSON reply. What its `generate` raises (a provider SDK's error, a
        dropped connection) is that item's judge error, as DeepEval stores it on the case:
        the other cases are scored, and `ignore_errors` keeps them. An `async def generate`
        (or one returning a coroutine) is awaited on faith_udfs' own event loop
        (faith_udfs/awaiting.py): its coroutine was read as the reply, every case invalid.
        Asked from a thread running an event loop, `generate` is called in a worker thread."""
        generate = self.deepeval_model.generate
        if self._takes_schema:
            generate = functools.partial(generate, schema=schema_class(schema))
        try:
            if loop_running_here():  # a notebook: its own asyncio.run(...) needs another thread
                reply = run_in_worker(functools.partial(generate, prompt), "the model's generate()")
            else:
                reply = generate(prompt)
            if inspect.isawaitable(reply):
                self._awaits = True  # a sync def handing back a_generate's coroutine
                reply = run_awaitable(reply, "the model's generate()")
        except JudgeError:
            raise
        except Exception as exc:  # the user's model's failure, kept (chained) as its case's error
            raise JudgeError(f"the model's generate() raised {first_line_of(exc)}") from exc
        return reply_dict(reply)

    def map_items(self, answer: Callable[[T], R], items: Sequence[T]) -> list[ItemOutcome[R]]:
        """An async model's items up to `max_concurrent` at once, as DeepEval's evaluate()
        runs them (they were asked one at a time); a sync `generate` one at a time: a local
        model need not be thread-safe."""
        workers = min(int(self.max_concurrent), len(items))
        if not self._awaits or (workers < 2 and self.pacer is None):
            return super().map_items(answer, items)
        return map_together(answer, items, workers, self.pacer)

    def _render(self, method: str, **context: Any) -> str | None:
        """The template's prompt, given the keywords its method takes (as DeepEval does); None
        when the template has no such method: as in DeepEval, which fills in its default
        prompts, a template may override one step (its docs' example writes generate_claims
        alone) and the others ask our default prompts."""
        render = getattr(self.template, method, None)
        if render is None:
            return None
        context = {**context, "multimodal": False, "multimodal_instruction": "", "strict": True}
        try:
            parameters = inspect.signature(render).parameters
        except (TypeError, ValueError):
            return str(render(**context))
        if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
            return str(render(**context))
        return str(render(**{k: v for k, v in context.items() if k in parameters}))

    def answer_truths(self, text: str, limit: int | None) -> list[str]:
        prompt = self._render(
            "generate_truths", retrieval_context=text, extraction_limit=limit, limit=_limit(limit)
        )
        if prompt is None:
            return super().answer_truths(text, limit)
        return parse_statements(self._reply(prompt, TRUTHS), "truths")

    def answer_claims(self, text: str) -> list[str]:
        prompt = self._render("generate_claims", actual_output=text)
        if prompt is None:
            return super().answer_claims(text)
        return parse_statements(self._reply(prompt, CLAIMS), "claims")

    def answer_verdicts(
        self, claims: list[str], truths: list[str]
    ) -> list[tuple[str | None, str | None]]:
        prompt = self._render(
            "generate_verdicts", claims=claims, retrieval_context="\n\n".join(truths)
        )
        if prompt is None:
            return super().answer_verdicts(claims, truths)
        return parse_verdicts(self._reply(prompt, VERDICTS), len(claims))

    def answer_reason(self, score: float, contradictions: list[str]) -> str:
        prompt = self._render(
            "generate_reason", score=format(score, ".2f"), contradictions=contradictions
        )
        if prompt is None:
            return super().answer_reason(score, contradictions)
        return parse_reason(self._reply(prompt, REASON))


def _limit(limit: int | None) -> str:
    """DeepEval's `limit` phrase for the truths prompt."""
    if limit is None:
        return " FACTUAL, undisputed truths"
    if limit == 1:
        return " the single most important FACTUAL, undisputed truth"
    return f" the {limit} most important FACTUAL, undisputed truths per document"


def _takes_schema(generate: Callable[..., Any]) -> bool:
    """Whether `generate` takes DeepEval's `schema` argument (it gets a stand-in)."""
    try:
        return "schema" in inspect.signature(generate).parameters
    except (TypeError, ValueError):
        return False
