"""The live judge's way to answer a pack: one chat-completions call, and each unusable
answer asked once more (the reply as the assistant's turn, then why; a cut reply afresh)."""

from __future__ import annotations

from faith_udfs.errors import JudgeError
from flows.judges.endpoint.transport import ChatEndpoint
from flows.judges.endpoint.usage import Usage
from flows.judges.live.asking import AnswerStore, Asked
from flows.judges.live.tasks import (
    RETRY_NOTE,
    ReplyCut,
    Result,
    larger_budget,
    reply_token_budget,
    split_evenly,
)


class EndpointAnswers:
    """Answers packs by asking `chat` now (PackAnswers)."""

    def __init__(
        self,
        chat: ChatEndpoint,
        *,
        store: AnswerStore,
        usage: Usage,
        max_output_tokens: int | None,
    ) -> None:
        self._chat = chat
        self._store = store
        self._usage = usage
        self._max_output_tokens = max_output_tokens

    def prepare(self, asked: Asked, missing: list[int]) -> None:
        """Nothing to look up before the calls."""

    def answer(self, asked: Asked, pack: list[int]) -> list[Result]:
        """Ask one pack; items whose answer is unusable are asked once more (the reply as the
        assistant's turn, then why; a reply cut at max_tokens afresh), then fail.
        A request counts as failed only when no answer of its reply was used."""
        task, items = asked.task, asked.items
        results: dict[int, Result] = {}
        asking = list(pack)
        previous: tuple[str, str] | None = None
        spent = [0, 0, 0]  # requests, prompt tokens, completion tokens
        raised: int | None = None  # max_tokens after a cut reply
        for attempt in range(2):
            budget = raised or reply_token_budget(
                task, [items[i] for i in asking], self._max_output_tokens
            )
            prompt = task.render([items[i] for i in asking])
            try:
                reply = self._chat.complete(
                    prompt, schema=task.schema, max_tokens=budget, previous=previous, spent=spent
                )
            except JudgeError as exc:
                results.update((i, Result(error=exc)) for i in asking)
                break
            share = list(
                zip(
                    split_evenly(reply.prompt_tokens, len(asking)),
                    split_evenly(reply.completion_tokens, len(asking)),
                    strict=True,
                )
            )
            unusable = self._store.read_reply(
                task,
                reply=reply,
                asking=asking,
                items=items,
                cache_keys=asked.cache_keys,
                share=share,
                results=results,
            )
            if not unusable:
                break
            if len(unusable) == len(asking):
                self._usage.add(failed=1)  # nothing of this reply was used
            reason = next(iter(unusable.values()))
            # A cut reply is no turn to show the model: it is asked afresh, with room to end.
            cut = isinstance(reason, ReplyCut)
            raised = larger_budget(budget, self._max_output_tokens) if cut else None
            if attempt == 0 and (raised is not None or not cut):
                self._usage.add(retries=1)
                asking = sorted(unusable)
                previous = None if cut else (reply.text, RETRY_NOTE.format(reason=reason))
            else:
                results.update((i, Result(error=exc)) for i, exc in unusable.items())
                break
        if asked.keys is not None:
            keys = asked.keys
            calls = spent[0] / len(pack)
            prompt_tokens, completion_tokens = (
                split_evenly(spent[1], len(pack)),
                split_evenly(spent[2], len(pack)),
            )
            self._usage.record_items(
                [
                    (task.stage, keys[i], calls, prompt_tokens[n], completion_tokens[n], False)
                    for n, i in enumerate(pack)
                ]
            )
        return [results[i] for i in pack]
