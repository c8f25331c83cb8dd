"""Creating a batch exactly once (`--judge-mode batch`): a create (`POST /batches`) is not
idempotent, so it is recorded before it is sent (`submitting`, under the placeholder id of
its input file), sent once, and an unclear answer (lost, cut by a stop or by the process's
death) is resolved by finding the batch made from the file on the server; only when the
server surely has none is the file submitted again."""

from __future__ import annotations

import contextlib
import logging
import threading
from datetime import datetime, timedelta

from flows.errors import JudgeEndpointError
from flows.judges.batch.api import (
    BatchApi,
    BatchApiError,
    BatchRefused,
    BatchStatus,
    BatchUnreachable,
)
from flows.store.batch_jobs import BatchJobs, submission_file, utc_now

__all__ = ["BatchCreation"]

log = logging.getLogger("faithpipe")


class BatchCreation:
    """Creates, finds and adopts the batches of recorded input files."""

    def __init__(
        self, api: BatchApi, jobs: BatchJobs, *, stop: threading.Event, give_up: timedelta
    ) -> None:
        self._api, self._jobs, self._stop, self._give_up = api, jobs, stop, give_up

    def __repr__(self) -> str:
        return f"BatchCreation({self._api!r})"

    def first(self, placeholder: str, submitted_at: datetime) -> BatchStatus | None:
        """Create the batch of a row just recorded as submitting; on an unclear answer, the
        batch the server lists for its file (unless stopped), else None: the row stays
        submitting for a later run. Raises BatchRefused (nothing created) and
        JudgeEndpointError (a refused key)."""
        file_id = submission_file(placeholder) or ""
        try:
            return self._create(placeholder)
        except BatchRefused:
            raise
        except BatchUnreachable:
            return None  # no clear answer, and no further request this run: the next run looks
        except BatchApiError as exc:
            log.warning("batch of file %s: no clear answer (%s); looking for it", file_id, exc)
        if self._stop.is_set():  # stopped: the next run looks
            return None
        with contextlib.suppress(BatchApiError):
            return self._adopt_found(placeholder, submitted_at)
        return None

    def settle(self, placeholder: str, submitted_at: datetime) -> str | bool | None:
        """A row a run left submitting: the server's id of the batch made from its file
        (found, else created now); True when it is done with (refused, or past the give-up
        age: its items are asked again); None while that stays unknown."""
        try:
            found = self._adopt_found(placeholder, submitted_at)
        except BatchApiError as exc:
            if not isinstance(exc, BatchUnreachable):  # else the run's error line says why
                log.warning("%s: not looked for (%s); the next run does", placeholder, exc)
            return None
        if found is not None:
            return found.batch_id
        if utc_now() - submitted_at > self._give_up:
            self._forget(placeholder, "abandoned", "never created")
            return True
        try:
            return self._create(placeholder).batch_id
        except BatchRefused:
            return True
        except BatchApiError:
            return None  # still unknown: found or created by a later look

    def _create(self, placeholder: str) -> BatchStatus:
        """One POST, never retried; the server's id replaces the placeholder. A refusal marks
        the row done with; another error leaves it submitting."""
        try:
            status = self._api.submit(submission_file(placeholder) or "")
        except BatchUnreachable:
            raise  # a create that failed (or was not sent): the row stays submitting
        except (BatchRefused, JudgeEndpointError) as exc:
            self._forget(placeholder, "refused", str(exc))
            raise
        self._jobs.adopt(placeholder, batch_id=status.batch_id, state=status.status)
        return status

    def _adopt_found(self, placeholder: str, submitted_at: datetime) -> BatchStatus | None:
        """The batch the server made from the row's file, adopted; None when it surely has
        none. Raises BatchApiError when its listing cannot tell."""
        file_id = submission_file(placeholder) or ""
        found = self._api.find(file_id, submitted_at)
        if found is not None:
            self._jobs.adopt(placeholder, batch_id=found.batch_id, state=found.status)
            log.info("batch %s of file %s found and adopted", found.batch_id, file_id)
        return found

    def _forget(self, placeholder: str, state: str, why: str) -> None:
        """A row that never became a batch: done with, so its items are asked again."""
        log.warning("%s %s (%s): its items are asked again", placeholder, state, why)
        self._jobs.seen(placeholder, state=state, error=why[:500])
        self._jobs.collected(
            placeholder, answered=0, errors={}, prompt_tokens=0, completion_tokens=0
        )
