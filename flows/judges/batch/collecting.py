"""Collecting what batches answered: ask each unfinished batch's state, read a finished one's
result files into judge_cache, give up on one past GIVE_UP_AFTER, and poll within a run's
wait. The tokens of what is collected wait in `uncharged` for the cases that need them."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from flows.judges.batch.api import (
    BatchApi,
    BatchApiError,
    BatchNotFound,
    BatchStatus,
    BatchUnreachable,
)
from flows.judges.batch.creation import BatchCreation
from flows.judges.batch.requests import LineResult, read_result_lines, reply_of_completion
from flows.judges.endpoint.transport import Reply
from flows.judges.live.asking import AnswerStore
from flows.judges.live.tasks import Task, judge_task, split_evenly
from flows.store.batch_jobs import BatchItem, BatchJobs, JudgeOf, submission_file, utc_now

log = logging.getLogger("faithpipe")  # what a run collects is shown

# A batch still unfinished this long after it was submitted (twice the 24 h window) is given
# up: a cancel is asked for and its items are asked again. No wait without a deadline.
GIVE_UP_AFTER = timedelta(hours=48)
# A finished batch whose result files still cannot be read this long after it was submitted
# (a file the server answers 5xx or 4xx for, run after run) is collected without that file:
# its items are asked again, the other file's answers kept. A day past GIVE_UP_AFTER, so a
# server's bad hour is waited out.
UNREADABLE_AFTER = GIVE_UP_AFTER + timedelta(hours=24)
# A batch whose state the server answers HTTP 404 for is `lost` (its items asked, and paid
# for, again) only this long after it was submitted: a server can answer 404 for a while
# right after creating a batch, and a batch it still runs bills its items once more if they
# are asked again. The batch's completion window: one the server really has ends by then.
STATE_GONE_AFTER = timedelta(hours=24)
# Polling a batch while a run may wait for it (--batch-wait): soon at first, then less often.
_FIRST_POLL, _LONGEST_POLL = 0.2, 30.0


class BatchCollector:
    """Reads the answers of one judge's batches (`owner`) into the reply cache (`store`)."""

    def __init__(
        self,
        api: BatchApi,
        jobs: BatchJobs,
        *,
        owner: JudgeOf,
        store: AnswerStore,
        stop: threading.Event,
        wait: float,
    ) -> None:
        self._api, self._jobs, self._owner, self._store = api, jobs, owner, store
        self._stop = stop
        self._wait_until = time.monotonic() + max(wait, 0.0)
        self._creation = BatchCreation(api, jobs, stop=stop, give_up=GIVE_UP_AFTER)
        # Tokens of the answers collected, by cache key, until the case that needs the item
        # is charged with them (BatchJudge).
        self.uncharged: dict[str, tuple[int, int]] = {}

    def collect(self) -> int:
        """Read every finished batch of this judge into judge_cache; returns how many were
        collected. A batch whose state or files cannot be read now is left for the next run,
        and so is every one after the circuit breaker opened (the run then ends with exit 6)."""
        collected = 0
        for batch_id, at, _ in self._jobs.unfinished(self._owner):
            if self._api.unreachable is not None:
                break
            collected += self.check(batch_id, at)
        return collected

    def check(self, batch_id: str, submitted_at: datetime) -> bool:
        """Ask a batch's state and collect it if it finished; whether it is done with (read,
        lost or given up) rather than still waited for."""
        if submission_file(batch_id) is not None:
            settled = self._creation.settle(batch_id, submitted_at)
            if not isinstance(settled, str):
                return bool(settled)
            batch_id = settled
        return self._check_state(batch_id, submitted_at)

    def create(self, placeholder: str, submitted_at: datetime) -> BatchStatus | None:
        """Create the batch of a row just recorded as submitting (batch/creation.py)."""
        return self._creation.first(placeholder, submitted_at)

    def wait_for(self, batches: list[tuple[str, datetime]]) -> bool:
        """Poll these batches (0.2 s, then twice as long each time, at most every 30 s) until
        each is done with or the run's wait is spent; whether they all are."""
        waiting, pause = list(batches), _FIRST_POLL
        while waiting and self._api.unreachable is None:
            left = self._wait_until - time.monotonic()
            if left <= 0 or self._stop.wait(min(pause, left)):
                return False
            pause = min(2 * pause, _LONGEST_POLL)
            waiting = [(batch_id, at) for batch_id, at in waiting if not self.check(batch_id, at)]
        return not waiting

    def _check_state(self, batch_id: str, submitted_at: datetime) -> bool:
        """`check` of a batch the server gave its id."""
        try:
            status = self._api.status(batch_id)
        except BatchNotFound as exc:
            return self._not_found(batch_id, submitted_at, exc)
        except BatchUnreachable:
            return False  # the run's error line says why
        except BatchApiError as exc:
            return self._state_unknown(batch_id, submitted_at, exc)
        self._jobs.seen(
            batch_id,
            state=status.status,
            output_file_id=status.output_file_id,
            error_file_id=status.error_file_id,
            error=status.error,
        )
        if status.finished:
            return self._collect(status, submitted_at)
        if utc_now() - submitted_at > GIVE_UP_AFTER:
            self._give_up(batch_id)
            return True
        return False

    def _state_unknown(self, batch_id: str, submitted_at: datetime, exc: BatchApiError) -> bool:
        """A batch whose state could not be read (a 400, an answer that is no batch, one past
        the size cap): waited for (False) until UNREADABLE_AFTER after its submission, as an
        unreadable result file, then `lost`, its items asked again (True). It was waited for
        run after run, its cases pending for good."""
        return self._waited_or_lost(
            batch_id,
            submitted_at,
            exc,
            UNREADABLE_AFTER,
            waiting="state unknown",
            given_up="state still unreadable",
        )

    def _not_found(self, batch_id: str, submitted_at: datetime, exc: BatchNotFound) -> bool:
        """A batch whose state the server answers 404 for: waited for (False) until
        STATE_GONE_AFTER after its submission, then `lost`, its items asked again (True)."""
        return self._waited_or_lost(
            batch_id,
            submitted_at,
            exc,
            STATE_GONE_AFTER,
            waiting="state not found",
            given_up="still not found",
        )

    def _waited_or_lost(
        self,
        batch_id: str,
        submitted_at: datetime,
        exc: BatchApiError,
        grace: timedelta,
        *,
        waiting: str,
        given_up: str,
    ) -> bool:
        """A batch whose state is not read: waited for (False) until `grace` after its
        submission, then `lost`, nothing answered, its items asked again (True)."""
        if utc_now() - submitted_at <= grace:
            log.warning("batch %s: %s (%s); the next run asks again", batch_id, waiting, exc)
            return False
        why = f"{given_up} {grace} after submission ({exc})"
        log.warning("batch %s: %s; its items are asked again", batch_id, why)
        self._jobs.seen(batch_id, state="lost", error=why[:500])
        self._jobs.collected(batch_id, answered=0, errors={}, prompt_tokens=0, completion_tokens=0)
        return True

    def _collect(self, status: BatchStatus, submitted_at: datetime) -> bool:
        """Store a finished batch's usable answers in judge_cache and its items' errors;
        False when its files could not be read (the next run tries again), until
        UNREADABLE_AFTER: then a file still unreadable answered nothing, and its items are
        asked again (the other file's answers are kept)."""
        by_request: dict[str, list[BatchItem]] = defaultdict(list)
        for item in self._jobs.items_of(status.batch_id):
            by_request[item.custom_id].append(item)
        results: dict[str, LineResult] = {}
        for file_id in (status.error_file_id, status.output_file_id):  # answers win
            if not file_id:
                continue
            try:
                content = self._api.content(file_id, lines=len(by_request))
                results.update(read_result_lines(content))
            except BatchUnreachable:
                return False
            except BatchApiError as exc:
                # A 404 too: a server can answer it for a while right after the batch ends.
                if utc_now() - submitted_at <= UNREADABLE_AFTER:
                    log.warning(
                        "batch %s: results not read (%s); the next run tries again",
                        status.batch_id,
                        exc,
                    )
                    return False
                # Only this file's items are asked again: the other file's answers are kept.
                gone = isinstance(exc, BatchNotFound)
                what = f"result file {file_id} still gone" if gone else "results unreadable"
                why = f"{what} {UNREADABLE_AFTER} after submission ({exc})"
                log.warning("batch %s: %s; its items are asked again", status.batch_id, why)
                self._jobs.seen(status.batch_id, state=status.status, error=why[:500])
        strangers = sorted(set(results) - set(by_request))
        if strangers:
            # A provider that mislabels its answers: they answer nothing we asked, and the items
            # are asked again, at most MAX_BATCH_ASKS times (answers.py).
            log.warning(
                "batch %s: %d answers carry custom_ids it never asked (e.g. %r); ignored",
                status.batch_id,
                len(strangers),
                strangers[0][:80],
            )
        answered, tokens = 0, [0, 0]
        errors: dict[tuple[str, int], str] = {}
        for custom_id, items in by_request.items():
            result = results.get(custom_id)
            if result is None or result.retry:
                continue  # not answered (expired, cancelled, a 5xx): asked again
            data = [json.loads(item.item) for item in items]
            reply = (
                reply_of_completion(result.completion, sum(len(i.item) for i in items) // 4)
                if result.completion is not None
                else None
            )
            if reply is None:
                error = result.error or "the batch's answer is not a chat completion"
                errors.update(((custom_id, item.position), error) for item in items)
                continue
            tokens[0] += reply.prompt_tokens
            tokens[1] += reply.completion_tokens
            n = len(items)
            share = list(zip(*_shares(reply, n), strict=True))
            for item, (prompt, completion) in zip(items, share, strict=True):
                before = self.uncharged.get(item.cache_key, (0, 0))
                self.uncharged[item.cache_key] = (before[0] + prompt, before[1] + completion)
            unusable = self._store.read_reply(
                _task_of(items[0].stage, data[0]),
                reply=reply,
                asking=list(range(n)),
                items=[_item_of(items[0].stage, entry) for entry in data],
                cache_keys=[item.cache_key for item in items],
                share=share,
                results={},
            )
            answered += n - len(unusable)
            errors.update(((custom_id, items[i].position), str(e)) for i, e in unusable.items())
        if self._store.cache is not None:
            self._store.cache.flush()  # the answers are stored before the batch counts as collected
        self._jobs.collected(
            status.batch_id,
            answered=answered,
            errors=errors,
            prompt_tokens=tokens[0],
            completion_tokens=tokens[1],
        )
        log.info(
            "batch %s %s: %d items answered, %d unusable, the rest asked again",
            status.batch_id,
            status.status,
            answered,
            len(errors),
        )
        return True

    def _give_up(self, batch_id: str) -> None:
        """Stop waiting for a batch past GIVE_UP_AFTER: ask for a cancel, ask its items again."""
        try:
            self._api.cancel(batch_id)
        except BatchApiError as exc:
            log.warning("batch %s: cancel refused (%s)", batch_id, exc)
        log.warning(
            "batch %s unfinished after %s: given up, its items are asked again",
            batch_id,
            GIVE_UP_AFTER,
        )
        self._jobs.seen(batch_id, state="abandoned")
        self._jobs.collected(batch_id, answered=0, errors={}, prompt_tokens=0, completion_tokens=0)


def _shares(reply: Reply, n: int) -> tuple[list[int], list[int]]:
    """A reply's prompt and completion tokens in `n` whole shares each, one an item."""
    return split_evenly(reply.prompt_tokens, n), split_evenly(reply.completion_tokens, n)


def _task_of(stage: str, data: dict[str, Any]) -> Task:
    """The packed task an item of `stage` was asked with (the truths limit is in its data)."""
    return judge_task(stage, packed=True, limit=data.get("limit") if stage == "truths" else None)


def _item_of(stage: str, data: dict[str, Any]) -> Any:
    """An item back from its cache data, as the stage's reply parser reads it."""
    if stage in ("truths", "claims"):
        return data["text"]
    if stage == "verdicts":
        return (data["claims"], data["truths"])
    # A reason's data holds its score as the prompt writes it ("0.50"): a number again.
    return (float(data["score"]), data["contradictions"])
