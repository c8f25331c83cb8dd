"""Asking one item alone, with the one-item template: how a packed answer that failed for an
item is asked again (issue 27), and how every per-item question is asked.

At most two calls an item (one after a pack's): the second shows the model its unusable
reply and why, or asks a cut reply afresh with twice the room. A second reply identical to
the first is no answer, a reply padded with white space is not asked again with more room,
and a reply cut at the same place twice is not asked a third time: each ends as a reply
error naming the likely cause.
"""

from __future__ import annotations

from typing import Any

from faith_udfs.errors import JudgeError, JudgeReplyError
from flows.judges.endpoint.transport import ChatEndpoint, Reply
from flows.judges.endpoint.usage import Usage
from flows.judges.live.asking import AnswerStore
from flows.judges.live.tasks import (
    RETRY_NOTE,
    ReplyCut,
    Result,
    Task,
    cut_twice,
    json_reply,
    larger_budget,
    read_answer,
    reply_token_budget,
)


class AloneAsker:
    """Asks single items of `chat`, cached through `store` (the live judge's EndpointAnswers
    uses it for one-item tasks and for the items a pack escalated)."""

    def __init__(
        self, chat: ChatEndpoint, *, store: AnswerStore, usage: Usage, max_output_tokens: int | None
    ) -> None:
        self._chat = chat
        self._store = store
        self._usage = usage
        self._max_output_tokens = max_output_tokens

    def ask(
        self,
        task: Task,
        item: Any,
        cache_key: str,
        spent: list[int],
        *,
        stored_as: Task,
        attempts: int = 2,
    ) -> Result:
        """Ask `item` with the one-item `task`, in at most `attempts` calls (an item a pack
        escalated has had its first: one); a usable answer is cached under `cache_key` as
        `stored_as` (the task whose key it is: the pack's, when a pack escalated)."""
        prompt = task.render([item])
        previous: tuple[str, str] | None = None
        raised: int | None = None  # max_tokens after a cut reply
        last: tuple[Reply, JudgeReplyError] | None = None  # the refused reply, and why
        for attempt in range(1, attempts + 1):
            budget = raised or reply_token_budget(task, [item], self._max_output_tokens)
            try:
                reply = self._chat.complete(
                    prompt, schema=task.schema, max_tokens=budget, previous=previous, spent=spent
                )
            except JudgeError as exc:
                return Result(error=exc)
            try:
                if last is not None:
                    _refuse_repetition(last, reply)
                part = json_reply(reply, alone=True)
                value = read_answer(task, part, item)
            except JudgeReplyError as exc:
                self._usage.add(failed=1)  # no answer of this reply was used
                cut = isinstance(exc, ReplyCut)
                # More room buys a padded reply only more padding.
                raised = larger_budget(budget, self._max_output_tokens) if cut else None
                if attempt == attempts or (
                    isinstance(exc, ReplyCut) and (raised is None or exc.padded)
                ):
                    return Result(error=exc)
                self._usage.add(retries=1)
                # A cut reply is no turn to show the model: it is asked afresh, with room to end.
                previous = None if cut else (reply.text, RETRY_NOTE.format(reason=exc))
                last = (reply, exc)
                continue
            self._store.keep(
                stored_as, cache_key, part, reply.prompt_tokens, reply.completion_tokens, item=item
            )
            return Result(value=value)
        raise AssertionError("unreachable: the last attempt returns")


def _refuse_repetition(last: tuple[Reply, JudgeReplyError], reply: Reply) -> None:
    """A re-ask's reply that repeats the refused one is no answer; nor is one cut where the
    first was (the second only longer by white space)."""
    first, why = last
    if (
        reply.finish_reason == "length"
        and first.finish_reason == "length"
        and reply.text.rstrip() == first.text.rstrip()
    ):
        raise cut_twice(first, reply)
    if reply.text == first.text:
        raise JudgeReplyError(
            f"{why}; asked again, the model sent the same reply word for word (a copy is not "
            "a new answer)"
        )
