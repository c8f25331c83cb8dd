"""The batch judge's way to answer a pack: not a call but a request line gathered for the
next batch; an item a submitted batch already asks stays pending, and an item whose batch
answered unusably fails once with that error."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from faith_udfs.errors import (
    JudgeBudgetExhausted,
    JudgeError,
    JudgeReplyError,
    JudgeTransientError,
)
from flows.judges.endpoint.request_details import chat_request_body, conversation
from flows.judges.endpoint.transport import REQUEST_PARAMETERS
from flows.judges.live.asking import Asked
from flows.judges.live.tasks import Result, Task, reply_token_budget
from flows.store.batch_jobs import BatchJobs, JudgeOf, Standing

# An item that this many collected batches brought no usable answer for (a provider that
# mislabels custom_ids, batches that always expire) is not submitted again: its cases are
# invalid with the reason, and the run warns.
MAX_BATCH_ASKS = 3


class BatchGaveUp(JudgeReplyError):
    """The item was asked in MAX_BATCH_ASKS batches and none answered it: not asked again."""


class BatchNotSubmitted(JudgeTransientError):
    """The item's batch could not be uploaded or submitted now (the Batch API failed): nothing
    was asked, so its case stays pending for the next run."""

    case_status = "pending"


class BatchSubmissionRefused(JudgeError):
    """The batch endpoint refused the item's batch (a 4xx to its upload or create: a proxy's
    size limit, a model the Batch API does not take): asked again, it is refused again, so
    its case is `invalid` with the refusal (asked again by the next run), not `pending` as
    for a passing fault: a server refusing every batch ended each night 0, nothing asked."""


class BatchPending(JudgeError):
    """The item is asked in a submitted batch: its case stays pending until a later run
    collects the answer."""

    case_status = "pending"


@dataclass(frozen=True)
class BatchRequest:
    """One request line to be: a pack of items of one stage."""

    indices: list[int]  # into the asked items
    body: dict[str, Any]  # the chat-completions request, as the live path would post it
    items: list[Any]  # each item's cache data
    cache_keys: list[str]


class BatchAnswers:
    """Gathers the packs the live path would ask as request lines (PackAnswers), within the
    run's caps: `max_calls` request lines, `max_tokens` tokens (expected_line_tokens: an
    estimate); the rest stays pending."""

    def __init__(
        self,
        jobs: BatchJobs,
        owner: JudgeOf,
        *,
        model: str,
        response_format: str,
        max_output_tokens: int | None,
        max_calls: int | None,
        max_tokens: int | None,
    ) -> None:
        self._jobs = jobs
        self._owner = owner
        self._model = model
        self.response_format = response_format
        self._max_output_tokens = max_output_tokens
        self._caps = (max_calls, max_tokens)
        self._spent = [0, 0]  # request lines gathered this run, their tokens (estimated)
        self._standing: dict[str, Standing] = {}
        self._gathered: list[BatchRequest] = []
        self._reported: list[tuple[str, str, int]] = []
        self.given_up = 0  # items not submitted again this run (MAX_BATCH_ASKS)

    def prepare(self, asked: Asked, missing: list[int]) -> None:
        """Where the batches of the items the cache lacked stand, in one query."""
        self._standing = self._jobs.standing([asked.cache_keys[i] for i in missing], self._owner)

    def take(self) -> list[BatchRequest]:
        """The request lines gathered since the last take; the unusable answers reported to
        the cases are marked so, and are asked again by the next run."""
        self._jobs.mark_reported(self._reported)
        gathered, self._gathered, self._reported = self._gathered, [], []
        return gathered

    def answer(self, asked: Asked, pack: list[int]) -> list[Result]:
        """A pack's items waiting for a batch stay pending; an item whose batch answered
        with an unusable reply fails once with that error; the rest become a request line."""
        task, items, cache_keys = asked.task, asked.items, asked.cache_keys
        results: dict[int, Result] = {}
        asking = []
        for index in pack:
            standing = self._standing.get(cache_keys[index])
            if standing is not None and standing.waiting:
                results[index] = Result(error=waiting_for(standing))
            elif standing is not None and standing.error and not standing.error_reported:
                results[index] = Result(
                    error=JudgeReplyError(
                        f"{standing.error} (batch {standing.batch_id}); asked again next run"
                    )
                )
                self._reported.append((standing.batch_id, standing.custom_id, standing.position))
            elif standing is not None and standing.unanswered >= MAX_BATCH_ASKS:
                self.given_up += 1
                results[index] = Result(error=given_up(standing))
            else:
                asking.append(index)
        if asking:
            body = self._request_body(task, [items[i] for i in asking])
            refused = self._over_cap(expected_line_tokens(body))
            if refused is not None:
                results.update((i, Result(error=refused)) for i in asking)
            else:
                self._gathered.append(
                    BatchRequest(
                        indices=asking,
                        body=body,
                        items=[task.item_data(items[i]) for i in asking],
                        cache_keys=[cache_keys[i] for i in asking],
                    )
                )
                # Replaced once the batch is submitted (or is not).
                results.update((i, Result(error=BatchPending("not submitted"))) for i in asking)
        return [results[index] for index in pack]

    def _request_body(self, task: Task, items: list[Any]) -> dict[str, Any]:
        """The body the live path posts when it first asks these items: one user turn, the
        structured-output mode the endpoint accepts, built by the live path's own code."""
        return chat_request_body(
            self._model,
            conversation(task.render(items)),
            schema=task.schema,
            response_format=self.response_format,
            max_tokens=reply_token_budget(task, items, self._max_output_tokens),
            parameters=REQUEST_PARAMETERS,
        )

    def _over_cap(self, tokens: int) -> JudgeBudgetExhausted | None:
        """The cap this request line would pass, or None (and it is counted). A line that
        would take the run past --max-tokens is not gathered: checked against the lines
        before it alone, the last one gathered overran the cap."""
        max_calls, max_tokens = self._caps
        if max_calls is not None and self._spent[0] >= max_calls:
            return JudgeBudgetExhausted(
                f"the run's cap of {max_calls} batch requests is reached (--max-calls); "
                "the case stays pending for the next run"
            )
        if max_tokens is not None and self._spent[1] + tokens > max_tokens:
            return JudgeBudgetExhausted(
                f"the run's cap of {max_tokens} judge tokens is reached (--max-tokens); "
                "the case stays pending for the next run"
            )
        self._spent[0] += 1
        self._spent[1] += tokens
        return None


def expected_line_tokens(body: dict[str, Any]) -> int:
    """What a request line is expected to cost: its prompt at 4 characters a token, and a
    quarter of its reply budget (as the live path expects of a call before any reply)."""
    prompt = sum(len(message["content"]) for message in body["messages"]) // 4
    reply = body.get("max_tokens") or body.get("max_completion_tokens") or 0
    return prompt + int(reply) // 4


def given_up(standing: Standing) -> BatchGaveUp:
    """The error of an item that batch after batch left unanswered, or answered unusably:
    the last batch's answer when it gave one (a refusal, a reply the live path rejects)."""
    why = (
        f"none answered it usably, the last with: {standing.error}"
        if standing.error
        else "none answered it: the provider's results name other custom_ids, or its batches "
        "end unanswered"
    )
    return BatchGaveUp(
        f"asked in {standing.unanswered} batches (the last {standing.batch_id}) and {why}; "
        f"not submitted again (at most {MAX_BATCH_ASKS}); score it with --judge-mode packed, "
        "or delete its rows from judge_batch_items to try batches again"
    )


def waiting_for(standing: Standing) -> BatchPending:
    """The pending error of an item a submitted batch asks."""
    return BatchPending(
        f"waiting for batch {standing.batch_id} submitted "
        f"{standing.submitted_at:%Y-%m-%d %H:%M} UTC; a later run collects it"
    )
