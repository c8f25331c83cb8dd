"""PromptJudge: any callable that answers rendered prompts becomes a batched judge.

This is the seed's `@answers("faithfulness.Truths")` style: handlers receive our rendered,
versioned prompts and reply with dicts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from faith_udfs.config import JudgeIdentity
from faith_udfs.errors import ConfigError, JudgeReplyError
from faith_udfs.judges import ItemJudge
from faith_udfs.prompts import (
    CLAIMS,
    PROMPT_VERSION,
    REASON,
    SCHEMAS,
    TRUTHS,
    VERDICTS,
    claims_prompt,
    reason_prompt,
    truths_prompt,
    verdicts_prompt,
)
from faith_udfs.replies import (
    EMPTY_REPLY,
    check_whole_text,
    parse_reason,
    parse_statements,
    parse_verdicts,
    past_reasoning,
)
from faith_udfs.verdicts import VERDICT_READING

AnswerFn = Callable[[str, str], Any]
Handler = Callable[[str, Any], Any]


class PromptHandlers:
    """Handlers by schema name; `answers(schema)` registers one, as in the seed."""

    def __init__(self, name: str = "prompt-handlers") -> None:
        self.name = name
        self._handlers: dict[str, Handler] = {}

    def answers(self, schema: str) -> Callable[[Handler], Handler]:
        """Decorator: the function answers prompts of `schema` with a dict."""
        if schema not in SCHEMAS:
            raise ConfigError(f"unknown schema {schema!r}; expected one of {', '.join(SCHEMAS)}")

        def register(handler: Handler) -> Handler:
            self._handlers[schema] = handler
            return handler

        return register

    def __call__(self, prompt: str, schema: str) -> Any:
        handler = self._handlers.get(schema)
        if handler is None:
            raise JudgeReplyError(f"no handler answers {schema}")
        return handler(prompt, self)

    def __repr__(self) -> str:
        return f"PromptHandlers({self.name!r}, schemas={sorted(self._handlers)})"


class PromptJudge(ItemJudge):
    """Judge that renders our prompts and asks `answer(prompt, schema) -> dict` for each item."""

    def __init__(self, answer: AnswerFn, *, model: str | None = None) -> None:
        if not callable(answer):
            raise ConfigError(
                "PromptJudge needs a callable answer(prompt: str, schema: str) -> dict, "
                f"got {type(answer).__name__}; wrap handlers in PromptHandlers()"
            )
        self._answer = answer
        name = model or getattr(answer, "name", None) or getattr(answer, "__qualname__", None)
        self._identity = JudgeIdentity(
            kind="prompt",
            model=str(name or type(answer).__name__),
            prompt_version=PROMPT_VERSION,
            options=(("verdict_reading", VERDICT_READING),),  # its replies' words are read
        )

    @property
    def identity(self) -> JudgeIdentity:
        return self._identity

    def __repr__(self) -> str:
        return f"PromptJudge(model={self._identity.model!r})"

    def _reply(self, prompt: str, schema: str) -> Any:
        """`answer`'s reply to `prompt`; one holding half of a UTF-16 pair is a reply error,
        and so is text with nothing in it (none, white space, reasoning alone), told as the
        LLM judges tell it (it read `reply has no 'truths' field: ` and nothing after)."""
        answered = self._answer(prompt, schema)
        check_whole_text(answered)
        if isinstance(answered, str) and not past_reasoning(answered).strip():
            raise JudgeReplyError(EMPTY_REPLY)
        return answered

    def answer_truths(self, text: str, limit: int | None) -> list[str]:
        return parse_statements(self._reply(truths_prompt(text, limit), TRUTHS), "truths")

    def answer_claims(self, text: str) -> list[str]:
        return parse_statements(self._reply(claims_prompt(text), CLAIMS), "claims")

    def answer_verdicts(
        self, claims: list[str], truths: list[str]
    ) -> list[tuple[str | None, str | None]]:
        reply = self._reply(verdicts_prompt(claims, truths), VERDICTS)
        return parse_verdicts(reply, len(claims))

    def answer_reason(self, score: float, contradictions: list[str]) -> str:
        return parse_reason(self._reply(reason_prompt(score, contradictions), REASON))
