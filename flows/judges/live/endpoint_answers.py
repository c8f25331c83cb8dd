"""The live judge's way to answer a pack: one chat-completions call, and each item its reply
left unusable asked again alone (escalation.py: never a smaller pack renumbered, issue 27)."""

from __future__ import annotations

from collections.abc import Mapping

from faith_udfs.errors import JudgeError
from flows.judges.endpoint.refusals import RequestRefused
from flows.judges.endpoint.transport import ChatEndpoint
from flows.judges.endpoint.usage import Usage
from flows.judges.live.asking import AnswerStore, Asked
from flows.judges.live.escalation import AloneAsker
from flows.judges.live.tasks import Result, reply_token_budget, split_evenly


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
        self._alone = AloneAsker(
            chat, store=store, usage=usage, max_output_tokens=max_output_tokens
        )

    def prepare(self, asked: Asked, missing: list[int]) -> None:
        """Nothing to look up before the calls."""

    def answer(self, asked: Asked, pack: list[int]) -> list[Result]:
        """Ask one pack; the items its reply leaves unusable (or answers with another item's
        answer) are asked again one by one with the one-item template (escalation.py), never
        as a smaller pack renumbered. One-item tasks are asked alone from the start.
        A request counts as failed only when no answer of its reply was used."""
        task, items, cache_keys = asked.task, asked.items, asked.cache_keys
        spent = [0, 0, 0]  # requests, prompt tokens, completion tokens
        alone = task.alone
        if alone is None:
            results = {
                i: self._alone.ask(task, items[i], cache_keys[i], spent, stored_as=task)
                for i in pack
            }
        else:
            results, unusable = self._packed(asked, pack, spent)
            if unusable:
                self._usage.add(retries=1, escalated=len(unusable))
            for i in unusable:
                results[i] = self._alone.ask(
                    alone, items[i], cache_keys[i], spent, stored_as=task, attempts=1
                )
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

    def _packed(
        self, asked: Asked, pack: list[int], spent: list[int]
    ) -> tuple[dict[int, Result], Mapping[int, JudgeError]]:
        """One packed call: the answers it gave, and the items it left unusable (and why):
        every item of a pack the endpoint refused for what it holds (a content filter's 400),
        since one item's prompt must not fail the cases of the others."""
        task, items = asked.task, asked.items
        budget = reply_token_budget(task, [items[i] for i in pack], self._max_output_tokens)
        try:
            reply = self._chat.complete(
                task.render([items[i] for i in pack]),
                schema=task.schema,
                max_tokens=budget,
                spent=spent,
            )
        except JudgeError as exc:
            if isinstance(exc, RequestRefused) and exc.per_item and len(pack) > 1:
                return {}, dict.fromkeys(pack, exc)
            return {i: Result(error=exc) for i in pack}, {}
        share = list(
            zip(
                split_evenly(reply.prompt_tokens, len(pack)),
                split_evenly(reply.completion_tokens, len(pack)),
                strict=True,
            )
        )
        results: dict[int, Result] = {}
        unusable = self._store.read_reply(
            task,
            reply=reply,
            asking=pack,
            items=items,
            cache_keys=asked.cache_keys,
            share=share,
            results=results,
        )
        if len(unusable) == len(pack):
            self._usage.add(failed=1)  # nothing of this reply was used
        return results, unusable
