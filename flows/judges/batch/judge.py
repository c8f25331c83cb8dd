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
import threading
import uuid
from datetime import datetime
from typing import TYPE_CHECKING, Any

import polars as pl

from faith_udfs.errors import ConfigError, JudgeError
from flows.errors import JudgeEndpointError
from flows.judges.batch.answers import (
    MAX_BATCH_ASKS,
    BatchAnswers,
    BatchNotSubmitted,
    BatchPending,
    BatchRequest,
    BatchSubmissionRefused,
)
from flows.judges.batch.api import BatchApi, BatchApiError, BatchRefused, BatchUnreachable
from flows.judges.batch.collecting import BatchCollector
from flows.judges.batch.requests import BatchLimits, batch_slices, request_line
from flows.judges.endpoint.request_details import endpoint_key
from flows.judges.endpoint.transport import FORMATS
from flows.judges.endpoint.usage import Usage
from flows.judges.live.asking import AnswerStore, Asking, release
from flows.judges.live.judge import recalled_format
from flows.judges.live.questions import AskingJudge, asking_identity, openai_identity
from flows.judges.live.tasks import PACK_CHARS, PACK_SIZE, Result, Task, check_judge_settings
from flows.store.batch_jobs import SUBMITTING, BatchItem, BatchJobs, JudgeOf, submitting_id, utc_now
from flows.store.judge_memory import JudgeMemory
from flows.store.reply_cache import ReplyCache

if TYPE_CHECKING:
    import duckdb

    from flows.judges.settings import JudgeSettings

__all__ = ["BatchJudge", "BatchLimits", "BatchPending", "build_batch_judge"]

log = logging.getLogger("faithpipe")  # what a run submits and collects is shown


class BatchJudge(AskingJudge):
    """The packed LLM judge whose missing answers go into Batch API requests.

    Same identity, prompts, request bodies and cache keys as the live packed judge, so a batch
    night and a live re-run share one metric config and one cache. The settings' `max_calls`
    caps the request lines submitted a run, `max_tokens` their prompt tokens (estimated, 4
    characters a token); the rest stays pending.
    """

    def __init__(
        self,
        settings: JudgeSettings,
        *,
        jobs: BatchJobs,
        cache: ReplyCache | None,
        limits: BatchLimits | None = None,
        memory: JudgeMemory | None = None,
        owns_cache: bool = False,
        track_items: bool = False,
    ) -> None:
        """`settings` (kind openai, mode batch or unset): the model, endpoint, caps,
        `batch_wait` (seconds this judge may wait in all for the batches it submits, to
        collect them and go on with the next stage in the same run) and `breaker_failures`
        (failed requests of one kind in a row after which none is made: batch/api.py);
        `jobs` and `cache`: the run's batch records and call cache, closed with the judge
        (the cache and `memory` when `owns_cache`); `limits`: what one batch may carry;
        `track_items`: keep each item's usage for the run to drain."""
        if settings.kind != "openai" or settings.mode not in (None, "batch"):
            raise ConfigError(
                f"BatchJudge takes JudgeSettings(kind='openai', mode='batch', ...), not kind "
                f"{settings.kind!r} mode {settings.mode!r}; build any judge with "
                "flows.judges.build_judge(settings)"
            )
        if cache is None:
            raise ConfigError("--judge-mode batch needs the run's database for its answers")
        model, base_url = settings.model or "", settings.endpoint_url()
        check_judge_settings(
            model=model,
            mode="packed",
            concurrency=1,
            timeout=settings.timeout,
            max_retries=0,
            max_calls=settings.max_calls,
            max_tokens=settings.max_tokens,
            pack_size=PACK_SIZE,
            pack_chars=PACK_CHARS,
            max_output_tokens=settings.max_output_tokens,
        )
        self.api_key_env = settings.api_key_env
        self._cache, self._owns_cache, self._memory = cache, owns_cache, memory
        self._jobs = jobs
        # Set by stop(), close() or an interrupt: nothing more is asked, no wait goes on.
        self._stop = threading.Event()
        self._api = BatchApi(
            base_url=base_url,
            api_key_env=settings.api_key_env,
            timeout=settings.timeout,
            breaker_failures=settings.breaker_failures,
            max_reply_bytes=settings.max_reply_bytes,
        )
        identity = openai_identity(model, "packed")
        asking = asking_identity(model, "packed").as_dict()
        self._owner = JudgeOf(self._api.endpoint, model, json.dumps(asking, sort_keys=True))
        self._limits = limits or BatchLimits()
        self._batch_fatal: str | None = None
        self._submitted: list[tuple[str, datetime]] = []  # by the current ask
        store = AnswerStore(identity, "packed", cache)
        self._collector = BatchCollector(
            self._api,
            jobs,
            owner=self._owner,
            store=store,
            stop=self._stop,
            wait=settings.batch_wait,
        )
        # Packs only become request lines here: there is no call to wait for.
        self._answers = BatchAnswers(
            jobs,
            self._owner,
            model=model,
            response_format=recalled_format(memory, endpoint_key(base_url), model) or FORMATS[0],
            max_output_tokens=settings.max_output_tokens,
            max_calls=settings.max_calls,
            max_tokens=settings.max_tokens,
        )
        usage = Usage()
        super().__init__(
            model=model,
            mode="packed",
            llm_reason=settings.llm_reason,
            usage=usage,
            asking=Asking(
                self._answers,
                store=store,
                usage=usage,
                memory=memory,
                pack_size=PACK_SIZE,
                pack_chars=PACK_CHARS,
                concurrency=1,
                track_items=track_items,
                on_interrupt=self.stop,
            ),
        )

    @property
    def fatal_error(self) -> str | None:
        """Why the endpoint refuses every request (a refused key), once it has said so, or why
        no further request is made (the circuit breaker opened: exit 6, cases pending)."""
        return self._api.unreachable or self._batch_fatal

    @property
    def run_warning(self) -> str | None:
        """What the run's row warns of: items no batch would answer, no longer submitted."""
        given_up = self._answers.given_up
        if not given_up:
            return None
        return (
            f"batch mode: {given_up:,} judge items were asked in {MAX_BATCH_ASKS} batches "
            "without an answer (mislabelled custom_ids?) and are not submitted again; their "
            "cases are invalid"
        )

    @property
    def response_format(self) -> str:
        """The structured-output request its lines carry (remembered, else json_schema)."""
        return self._answers.response_format

    def collect(self) -> int:
        """Read every finished batch of this judge into judge_cache; returns how many were
        collected (batch/collecting.py)."""
        return self._collector.collect()

    def stop(self) -> None:
        # The stop is marked before the calls in flight are cancelled: a create cancelled by a
        # stop must read as one (its batch adopted by the next run), not as a lost answer.
        self._stop.set()
        self._api.stop()

    def close(self) -> None:
        uncharged = self._collector.uncharged
        if uncharged:
            prompt, completion = (sum(t) for t in zip(*uncharged.values(), strict=True))
            log.info(
                "%d items collected from batches (%d + %d tokens) were not used by this run's "
                "cases: their tokens are in judge_batches only",
                len(uncharged),
                prompt,
                completion,
            )
        self._stop.set()
        try:
            release(self._cache, self._memory, owned=self._owns_cache)
        finally:
            self._api.close()
            self._jobs.close()

    def __repr__(self) -> str:
        return (
            f"BatchJudge(model={self.model!r}, endpoint={self._api.endpoint!r}, "
            f"api_key_env={self.api_key_env!r})"
        )

    # --- asking: the live path's cache and packs, then request lines instead of calls ---------

    def _ask(self, task: Task, items: list[Any], keys: pl.Series | None) -> list[Result]:
        """Ask through batches; within the run's wait, collect them and ask the rest again."""
        results = self._ask_in_batches(task, items, keys)
        while self._submitted and self._collector.wait_for(self._submitted):
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

    def _ask_in_batches(self, task: Task, items: list[Any], keys: pl.Series | None) -> list[Result]:
        """The live path's cache and packs; the packs it would ask become batches."""
        self._submitted = []
        results = self._asking.ask(task, items, keys)
        self._charge(task, items, keys)
        gathered = self._answers.take()
        return self._submit_gathered(task, gathered, results) if gathered else results

    def _charge(self, task: Task, items: list[Any], keys: pl.Series | None) -> None:
        """Charge the run (usage()) and the items' first cases (drain_item_usage()) with the
        tokens of collected answers these items needed, once: what the provider billed."""
        uncharged = self._collector.uncharged
        if not uncharged:
            return
        key_list = keys.to_list() if keys is not None and self._asking.track_items else None
        rows, spent = [], [0, 0]
        for index, item in enumerate(items):
            tokens = uncharged.pop(self._asking.store.key(task, item), None)
            if tokens is None:
                continue
            spent[0] += tokens[0]
            spent[1] += tokens[1]
            if key_list is not None:
                rows.append((task.stage, key_list[index], 0.0, tokens[0], tokens[1], False))
        self._usage.add(prompt_tokens=spent[0], completion_tokens=spent[1])
        self._usage.record_items(rows)

    def _submit_gathered(
        self, task: Task, gathered: list[BatchRequest], results: list[Result]
    ) -> list[Result]:
        """Submit the request lines in as many batches as the limits need; each item's
        result says which batch asks it, or why none does."""
        results = list(results)
        # Unique to this submission: an answer carrying another batch's custom_id (a server
        # that mixes up its batches) answers nothing asked here, and is ignored.
        tag = uuid.uuid4().hex[:12]
        custom_ids = [f"{task.stage}-{number}-{tag}" for number in range(len(gathered))]
        lines = [
            request_line(custom_id, request.body)
            for custom_id, request in zip(custom_ids, gathered, strict=True)
        ]
        limits = self._limits
        for part in batch_slices(
            lines, max_requests=limits.max_requests, max_bytes=limits.max_bytes
        ):
            error: JudgeError
            try:
                error = self._submit(task, lines[part], gathered[part], custom_ids[part])
            except JudgeEndpointError as exc:
                self._batch_fatal = str(exc)
                error = exc
            except BatchRefused as exc:
                error = BatchSubmissionRefused(
                    f"the batch endpoint refused the batch ({exc}): nothing was asked; fix "
                    "what it names, or use --judge-mode packed"
                )
            except BatchApiError as exc:
                error = BatchNotSubmitted(f"the batch was not submitted: {exc}")
            for request in gathered[part]:
                for index in request.indices:
                    results[index] = Result(error=error)
        return results

    def _submit(
        self, task: Task, lines: list[bytes], requests: list[BatchRequest], custom_ids: list[str]
    ) -> BatchPending:
        """Upload, submit and record one batch; the pending error its items carry."""
        if self._api.unreachable is not None:  # pending, for the next run
            raise BatchUnreachable(self._api.unreachable)
        if self._batch_fatal is not None:
            raise JudgeEndpointError(self._batch_fatal)
        if self._stop.is_set():  # stopped: nothing more is asked, not even in a batch
            raise BatchApiError("the judge was closed or interrupted before this batch")
        file_id = self._api.upload(
            b"".join(lines), f"faithpipe-{task.stage}-{uuid.uuid4().hex}.jsonl"
        )
        earlier = self._jobs.of_file(file_id, self._owner.endpoint)
        if earlier is not None:  # recorded or created, it would be taken for the earlier one
            raise JudgeEndpointError(
                f"the batch server at {self._owner.endpoint} gave the id {file_id} of an "
                f"earlier upload (batch {earlier}) to a new one: its batches cannot be told "
                "apart, so none is created from it; the cases left stay for the next run "
                "(a server that reuses file ids: use --judge-mode packed)"
            )
        items = [
            BatchItem(
                custom_id=custom_id,
                position=position,
                stage=task.stage,
                item=json.dumps(data, sort_keys=True, ensure_ascii=False),
                cache_key=key,
            )
            for custom_id, request in zip(custom_ids, requests, strict=True)
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
        status = self._collector.create(placeholder, submitted_at)
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
            settings,
            jobs=jobs,
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
