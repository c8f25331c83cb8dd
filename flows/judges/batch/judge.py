"""BatchJudge (`--judge-mode batch`): the packed LLM judge, asked through the Batch API.

What the live judge would ask (after deduplication and the reply cache, same keys) is written
as JSONL request lines carrying exactly the body the live path posts, uploaded, submitted with
a 24 h window, and recorded in DuckDB (`judge_batches`, `judge_batch_items`); the cases that
need those answers are `pending`. A later run on the same database first collects the batches
that finished into `judge_cache` (building the judge does it), then scores the waiting cases.

Multi-stage: verdicts need a case's truths and claims, so a case goes through rounds, one a
run: truths and claims are asked; once collected, verdicts (and with `llm_reason` the reason,
one round more). Each run collects, advances what it can, and submits the next stage.
An expired, failed, cancelled or lost batch leaves its items unanswered: the next run asks
them again. A partial batch keeps what it answered; an unusable reply (the live path's reply
errors) makes its cases invalid once, not cached, and the run after asks it again.

A batch is recorded (`submitting`) before it is created, and its create is sent once: an
unclear answer is resolved by finding the batch of the file on the server, so no item is in
two billed batches. The tokens of the answers a run collects are charged to that run, each
item's share to the first case that needs it.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from faith_udfs.errors import (
    ConfigError,
    JudgeBudgetExhausted,
    JudgeError,
    JudgeReplyError,
    JudgeTransientError,
)
from flows.errors import JudgeEndpointError
from flows.judges.batch.api import BatchApi, BatchApiError, BatchNotFound, BatchStatus
from flows.judges.batch.creation import BatchCreation
from flows.judges.batch.requests import (
    MAX_BYTES,
    MAX_REQUESTS,
    batch_slices,
    read_result_lines,
    reply_of_completion,
    request_line,
)
from flows.judges.endpoint.request_details import chat_request_body, conversation
from flows.judges.endpoint.transport import REQUEST_PARAMETERS, Reply
from flows.judges.live.judge import OpenAIJudge
from flows.judges.live.tasks import Result, Task, judge_task, reply_token_budget, split_evenly
from flows.store.batch_jobs import (
    SUBMITTING,
    BatchItem,
    BatchJobs,
    JudgeOf,
    Standing,
    submission_file,
    submitting_id,
    utc_now,
)
from flows.store.judge_memory import JudgeMemory
from flows.store.reply_cache import ReplyCache

if TYPE_CHECKING:
    import duckdb

    from flows.run.settings import JudgeSettings

__all__ = ["BatchJudge", "BatchPending", "build_batch_judge"]

log = logging.getLogger("faithpipe")  # what a run submits and collects is shown

# A batch still unfinished this long after it was submitted (twice the 24 h window) is given
# up: a cancel is asked for and its items are asked again. No wait without a deadline.
GIVE_UP_AFTER = timedelta(hours=48)
# Polling a batch while a run may wait for it (--batch-wait): soon at first, then less often.
_FIRST_POLL, _LONGEST_POLL = 0.2, 30.0


class BatchPending(JudgeError):
    """The item is asked in a submitted batch: its case stays pending until a later run
    collects the answer."""

    case_status = "pending"


@dataclass(frozen=True)
class _Request:
    """One request line to be: a pack of items of one stage."""

    indices: list[int]  # into the asked items
    body: dict[str, Any]  # the chat-completions request, as the live path would post it
    items: list[Any]  # each item's cache data
    cache_keys: list[str]


class BatchJudge(OpenAIJudge):
    """OpenAIJudge in packed mode whose missing answers go into Batch API requests.

    Same identity, prompts, request bodies and cache keys as the live packed judge, so a batch
    night and a live re-run share one metric config and one cache. `max_calls` caps the
    request lines submitted a run, `max_tokens` their prompt tokens (estimated, 4 characters a
    token); the rest stays pending.
    """

    def __init__(
        self,
        model: str,
        *,
        jobs: BatchJobs,
        cache: ReplyCache | None,
        max_calls: int | None = None,
        max_tokens: int | None = None,
        wait: float = 0.0,
        max_requests: int = MAX_REQUESTS,
        max_bytes: int = MAX_BYTES,
        **options: Any,
    ) -> None:
        """`wait`: seconds this judge may wait in all for the batches it submits to finish
        (polling), to collect them and go on with the next stage in the same run; 0: none.
        `options` are OpenAIJudge's (base_url, api_key_env, timeout, llm_reason, ...), except
        the mode and concurrency, which batch mode sets."""
        if cache is None:
            raise ConfigError("--judge-mode batch needs the run's database for its answers")
        # Packs only become request lines here: there is no call to wait for.
        super().__init__(model, mode="packed", concurrency=1, cache=cache, **options)
        self._api = BatchApi(
            base_url=options.get("base_url"),
            api_key_env=self.api_key_env,
            timeout=options.get("timeout", 60.0),
        )
        self._jobs = jobs
        self._owner = JudgeOf(
            self._chat.endpoint, model, json.dumps(self.identity.as_dict(), sort_keys=True)
        )
        self._max_requests, self._max_bytes = max_requests, max_bytes
        self._caps = (max_calls, max_tokens)
        self._spent = [0, 0]  # request lines submitted this run, their prompt tokens (estimated)
        self._standing: dict[str, Standing] = {}
        self._gathered: list[_Request] = []
        self._reported: list[tuple[str, str, int]] = []
        self._batch_fatal: str | None = None
        self._submitted: list[tuple[str, datetime]] = []  # by the current ask
        # Tokens of the answers this judge collected, by cache key, until the case that
        # needs the item is charged with them (usage(), drain_item_usage()).
        self._uncharged: dict[str, tuple[int, int]] = {}
        self._wait_until = time.monotonic() + max(wait, 0.0)
        self._creation = BatchCreation(self._api, jobs, stop=self._stop, give_up=GIVE_UP_AFTER)

    @property
    def fatal_error(self) -> str | None:
        """Why the endpoint refuses every request (a refused key), once it has said so."""
        return self._batch_fatal or super().fatal_error

    def stop(self) -> None:
        # The stop is marked before the calls in flight are cancelled: a create cancelled by a
        # stop must read as one (its batch adopted by the next run), not as a lost answer.
        super().stop()
        self._api.stop()

    def close(self) -> None:
        if self._uncharged:
            prompt, completion = (sum(t) for t in zip(*self._uncharged.values(), strict=True))
            log.info(
                "%d items collected from batches (%d + %d tokens) were not used by this run's "
                "cases: their tokens are in judge_batches only",
                len(self._uncharged),
                prompt,
                completion,
            )
        try:
            super().close()
        finally:
            self._api.close()
            self._jobs.close()

    def __repr__(self) -> str:
        return (
            f"BatchJudge(model={self.model!r}, endpoint={self._chat.endpoint!r}, "
            f"api_key_env={self.api_key_env!r})"
        )

    # --- collecting what earlier runs submitted ----------------------------------------------

    def collect(self) -> int:
        """Read every finished batch of this judge into judge_cache; returns how many were
        collected. A batch whose state or files cannot be read now is left for the next run."""
        return sum(
            self._check(batch_id, at) for batch_id, at, _ in self._jobs.unfinished(self._owner)
        )

    def _check(self, batch_id: str, submitted_at: datetime) -> bool:
        """Ask a batch's state and collect it if it finished; whether it is done with (read,
        lost or given up) rather than still waited for."""
        if submission_file(batch_id) is not None:
            settled = self._creation.settle(batch_id, submitted_at)
            if not isinstance(settled, str):
                return bool(settled)
            batch_id = settled
        return self._check_state(batch_id, submitted_at)

    def _check_state(self, batch_id: str, submitted_at: datetime) -> bool:
        """`_check` of a batch the server gave its id."""
        try:
            status = self._api.status(batch_id)
        except BatchNotFound as exc:
            log.warning("batch %s: %s; its items are asked again", batch_id, exc)
            self._jobs.seen(batch_id, state="lost", error=str(exc))
            self._jobs.collected(
                batch_id, answered=0, errors={}, prompt_tokens=0, completion_tokens=0
            )
            return True
        except BatchApiError as exc:
            log.warning("batch %s: state unknown (%s); the next run asks again", batch_id, exc)
            return False
        self._jobs.seen(
            batch_id,
            state=status.status,
            output_file_id=status.output_file_id,
            error_file_id=status.error_file_id,
            error=status.error,
        )
        if status.finished:
            return self._collect(status)
        if utc_now() - submitted_at > GIVE_UP_AFTER:
            self._give_up(batch_id)
            return True
        return False

    def _await(self, batches: list[tuple[str, datetime]]) -> bool:
        """Poll these batches (0.2 s, then twice as long each time, at most every 30 s) until
        each is done with or the run's wait is spent; whether they all are."""
        waiting, pause = list(batches), _FIRST_POLL
        while waiting:
            left = self._wait_until - time.monotonic()
            if left <= 0 or self._stop.wait(min(pause, left)):
                return False
            pause = min(2 * pause, _LONGEST_POLL)
            waiting = [(batch_id, at) for batch_id, at in waiting if not self._check(batch_id, at)]
        return True

    def _collect(self, status: BatchStatus) -> bool:
        """Store a finished batch's usable answers in judge_cache and its items' errors;
        False when its files could not be read (the next run tries again)."""
        results = {}
        try:
            for file_id in (status.error_file_id, status.output_file_id):  # answers win
                if file_id:
                    results.update(read_result_lines(self._api.content(file_id)))
        except BatchApiError as exc:
            log.warning(
                "batch %s: results not read (%s); the next run tries again", status.batch_id, exc
            )
            return False
        by_request: dict[str, list[BatchItem]] = defaultdict(list)
        for item in self._jobs.items_of(status.batch_id):
            by_request[item.custom_id].append(item)
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
                before = self._uncharged.get(item.cache_key, (0, 0))
                self._uncharged[item.cache_key] = (before[0] + prompt, before[1] + completion)
            unusable = self._read_pack(
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
        if self._cache is not None:
            self._cache.flush()  # the answers are stored before the batch counts as collected
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

    # --- asking: the live path's cache and packs, then request lines instead of calls ---------

    def _ask(self, task: Task, items: list[Any], keys: Any = None) -> list[Result]:
        """Ask through batches; within the run's wait, collect them and ask the rest again."""
        results = self._ask_in_batches(task, items, keys)
        while self._submitted and self._await(self._submitted):
            waiting = [
                i for i, result in enumerate(results) if isinstance(result.error, BatchPending)
            ]
            if not waiting:
                break
            again = self._ask_in_batches(
                task,
                [items[i] for i in waiting],
                keys.gather(waiting) if keys is not None else None,
            )
            for index, result in zip(waiting, again, strict=True):
                results[index] = result
        return results

    def _ask_in_batches(self, task: Task, items: list[Any], keys: Any) -> list[Result]:
        """The live path's cache and packs; the packs it would ask become batches."""
        self._gathered, self._submitted = [], []
        results = super()._ask(task, items, keys)
        self._charge(task, items, keys)
        self._jobs.mark_reported(self._reported)
        self._reported = []
        gathered, self._gathered = self._gathered, []
        return self._submit_gathered(task, gathered, results) if gathered else results

    def _charge(self, task: Task, items: list[Any], keys: Any) -> None:
        """Charge the run (usage()) and the items' first cases (drain_item_usage()) with the
        tokens of collected answers these items needed, once: what the provider billed."""
        if not self._uncharged:
            return
        key_list = keys.to_list() if keys is not None and self._track_items else None
        rows, spent = [], [0, 0]
        for index, item in enumerate(items):
            tokens = self._uncharged.pop(self._cache_key(task, item), None)
            if tokens is None:
                continue
            spent[0] += tokens[0]
            spent[1] += tokens[1]
            if key_list is not None:
                rows.append((task.stage, key_list[index], 0.0, tokens[0], tokens[1], False))
        self._usage.add(prompt_tokens=spent[0], completion_tokens=spent[1])
        self._usage.record_items(rows)

    def _cached(self, cache_keys: list[str]) -> dict[int, str]:
        """The cache's answers; and, for the keys it lacks, where their batches stand."""
        found = super()._cached(cache_keys)
        missing = [key for index, key in enumerate(cache_keys) if index not in found]
        self._standing = self._jobs.standing(missing, self._owner)
        return found

    def _answer_pack(
        self,
        task: Task,
        pack: list[int],
        items: list[Any],
        cache_keys: list[str],
        keys: list[int] | None,
    ) -> list[Result]:
        """A pack's items waiting for a batch stay pending; an item whose batch answered
        with an unusable reply fails once with that error; the rest become a request line."""
        results: dict[int, Result] = {}
        asking = []
        for index in pack:
            standing = self._standing.get(cache_keys[index])
            if standing is not None and standing.waiting:
                results[index] = Result(error=_waiting(standing))
            elif standing is not None and standing.error and not standing.error_reported:
                results[index] = Result(
                    error=JudgeReplyError(
                        f"{standing.error} (batch {standing.batch_id}); asked again next run"
                    )
                )
                self._reported.append((standing.batch_id, standing.custom_id, standing.position))
            else:
                asking.append(index)
        if asking:
            body = self._request_body(task, [items[i] for i in asking])
            refused = self._over_cap(sum(len(m["content"]) for m in body["messages"]) // 4)
            if refused is not None:
                results.update((i, Result(error=refused)) for i in asking)
            else:
                self._gathered.append(
                    _Request(
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
            self.model,
            conversation(task.render(items)),
            schema=task.schema,
            response_format=self._chat.response_format,
            max_tokens=reply_token_budget(task, items, self._max_output_tokens),
            parameters=REQUEST_PARAMETERS,
        )

    def _over_cap(self, prompt_tokens: int) -> JudgeBudgetExhausted | None:
        """The cap this request line would pass, or None (and it is counted)."""
        max_calls, max_tokens = self._caps
        if max_calls is not None and self._spent[0] >= max_calls:
            return JudgeBudgetExhausted(
                f"the run's cap of {max_calls} batch requests is reached (--max-calls); "
                "the case stays pending for the next run"
            )
        if max_tokens is not None and self._spent[1] >= max_tokens:
            return JudgeBudgetExhausted(
                f"the run's cap of {max_tokens} judge tokens is reached (--max-tokens); "
                "the case stays pending for the next run"
            )
        self._spent[0] += 1
        self._spent[1] += prompt_tokens
        return None

    def _submit_gathered(
        self, task: Task, gathered: list[_Request], results: list[Result]
    ) -> list[Result]:
        """Submit the request lines in as many batches as the limits need; each item's
        result says which batch asks it, or why none does."""
        results = list(results)
        lines = [
            request_line(f"{task.stage}-{number}", request.body)
            for number, request in enumerate(gathered)
        ]
        for part in batch_slices(lines, max_requests=self._max_requests, max_bytes=self._max_bytes):
            error: JudgeError
            try:
                error = self._submit(task, lines[part], gathered[part], first=part.start)
            except JudgeEndpointError as exc:
                self._batch_fatal = str(exc)
                error = exc
            except BatchApiError as exc:
                error = JudgeTransientError(f"the batch was not submitted: {exc}")
            for request in gathered[part]:
                for index in request.indices:
                    results[index] = Result(error=error)
        return results

    def _submit(
        self, task: Task, lines: list[bytes], requests: list[_Request], *, first: int
    ) -> BatchPending:
        """Upload, submit and record one batch; the pending error its items carry."""
        if self._batch_fatal is not None:
            raise JudgeEndpointError(self._batch_fatal)
        if self._stop.is_set():  # stopped: nothing more is asked, not even in a batch
            raise BatchApiError("the judge was closed or interrupted before this batch")
        file_id = self._api.upload(
            b"".join(lines), f"faithpipe-{task.stage}-{uuid.uuid4().hex}.jsonl"
        )
        items = [
            BatchItem(
                custom_id=f"{task.stage}-{first + number}",
                position=position,
                stage=task.stage,
                item=json.dumps(data, sort_keys=True, ensure_ascii=False),
                cache_key=key,
            )
            for number, request in enumerate(requests)
            for position, (data, key) in enumerate(
                zip(request.items, request.cache_keys, strict=True)
            )
        ]
        # Recorded before the create: whatever happens to its answer (lost, cut by a stop or
        # by the process's death), the batch is found later, never created a second time.
        placeholder, submitted_at = submitting_id(file_id), utc_now()
        self._jobs.record(
            batch_id=placeholder,
            input_file_id=file_id,
            judge=self._owner,
            state=SUBMITTING,
            requests=len(lines),
            items=items,
            submitted_at=submitted_at,
        )
        status = self._creation.first(placeholder, submitted_at)
        if status is None:
            return BatchPending(
                f"asked in a batch of file {file_id} whose creation had no clear answer; "
                "a later run finds it or creates it"
            )
        self._submitted.append((status.batch_id, submitted_at))
        log.info(
            "submitted batch %s: %d %s requests, %d items",
            status.batch_id,
            len(lines),
            task.stage,
            len(items),
        )
        return BatchPending(
            f"asked in batch {status.batch_id} submitted {submitted_at:%Y-%m-%d %H:%M} UTC; "
            "a later run collects it"
        )


def _shares(reply: Reply, n: int) -> tuple[list[int], list[int]]:
    """A reply's prompt and completion tokens in `n` whole shares each, one an item."""
    return split_evenly(reply.prompt_tokens, n), split_evenly(reply.completion_tokens, n)


def _waiting(standing: Standing) -> BatchPending:
    return BatchPending(
        f"waiting for batch {standing.batch_id} submitted "
        f"{standing.submitted_at:%Y-%m-%d %H:%M} UTC; a later run collects it"
    )


def _task_of(stage: str, data: dict[str, Any]) -> Task:
    """The packed task an item of `stage` was asked with (the truths limit is in its data)."""
    return judge_task(stage, packed=True, limit=data.get("limit") if stage == "truths" else None)


def _item_of(stage: str, data: dict[str, Any]) -> Any:
    """An item back from its cache data, as the stage's reply parser reads it."""
    if stage in ("truths", "claims"):
        return data["text"]
    if stage == "verdicts":
        return (data["claims"], data["truths"])
    return (data["score"], data["contradictions"])


def build_batch_judge(settings: JudgeSettings, con: duckdb.DuckDBPyConnection | None) -> BatchJudge:
    """The judge `--judge openai --judge-mode batch` asks for, with every finished batch of
    earlier runs already collected into judge_cache."""
    if con is None:
        # Only a run in one process has it: Dask workers never open the database.
        raise ConfigError(
            "--judge-mode batch runs in one process: use --engine local (the batches and "
            "their answers live in the run's database)"
        )
    cache = ReplyCache(con)
    jobs = BatchJobs(con)
    try:
        judge = BatchJudge(
            settings.model or "",
            jobs=jobs,
            base_url=settings.endpoint_url(),
            api_key_env=settings.api_key_env,
            timeout=settings.timeout,
            max_calls=settings.max_calls,
            max_tokens=settings.max_tokens,
            max_output_tokens=settings.max_output_tokens,
            llm_reason=settings.llm_reason,
            max_reply_bytes=settings.max_reply_bytes,
            breaker_failures=settings.breaker_failures,
            wait=settings.batch_wait,
            cache=cache,
            owns_cache=True,
            memory=JudgeMemory(con),
            # The pipeline drains per-item usage after every batch to charge cases.
            track_items=True,
        )
    except BaseException:
        cache.close()
        jobs.close()
        raise
    try:
        judge.collect()
    except BaseException:
        judge.close()
        raise
    return judge
