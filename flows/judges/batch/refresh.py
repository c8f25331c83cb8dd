"""`faith batches --refresh`: ask the server for the state of every batch still waited for.

Only the state is stored (`judge_batches.state`, `checked_at`); collecting the answers into
judge_cache is the next `faith score` or `faith nightly`'s (flows/judges/batch/judge.py).
"""

from __future__ import annotations

import logging
from pathlib import Path

from flows.judges.batch.api import BatchApi, BatchApiError, BatchUnreachable
from flows.store.batch_jobs import BatchJobs, submission_file
from flows.store.db import open_store

__all__ = ["refresh_batch_states"]

log = logging.getLogger("faithpipe")


def refresh_batch_states(
    db: Path | str,
    *,
    base_url: str | None,
    api_key_env: str,
    timeout: float,
    lock_timeout: float = 0.0,
) -> tuple[int, int, str]:
    """Store the server's state of each unfinished batch submitted to `base_url`'s host;
    returns (refreshed, unfinished, the endpoint asked). Batches waited for at other
    endpoints are named in one warning: a --base-url other than their runs' refreshes none.
    A batch the server cannot tell about now is left as it was, with a warning; once the
    circuit breaker opens, BatchUnreachable (exit 6) is raised, what was refreshed before
    kept."""
    api = BatchApi(base_url=base_url, api_key_env=api_key_env, timeout=timeout)
    try:
        con = open_store(db, lock_timeout=lock_timeout)
        jobs = BatchJobs(con)
        try:
            unfinished = jobs.unfinished(endpoint=api.endpoint)
            _warn_of_other_endpoints(jobs, api.endpoint)
            refreshed = 0
            for batch_id, submitted_at, _ in unfinished:
                file_id = submission_file(batch_id)
                try:
                    # One still `submitting` is looked for by its file; creating it is a run's.
                    status = (
                        api.status(batch_id) if file_id is None else api.find(file_id, submitted_at)
                    )
                except BatchUnreachable:
                    raise
                except BatchApiError as exc:
                    log.warning("batch %s: state not refreshed (%s)", batch_id, exc)
                    continue
                if status is None:
                    continue
                if file_id is not None:
                    jobs.adopt(batch_id, batch_id=status.batch_id, state=status.status)
                jobs.seen(
                    status.batch_id,
                    state=status.status,
                    output_file_id=status.output_file_id,
                    error_file_id=status.error_file_id,
                    error=status.error,
                )
                refreshed += 1
        finally:
            jobs.close()
            con.close()
    finally:
        api.close()
    return refreshed, len(unfinished), api.endpoint


def _warn_of_other_endpoints(jobs: BatchJobs, endpoint: str) -> None:
    """One warning line naming where the batches this refresh leaves are waited for."""
    elsewhere = jobs.unfinished_elsewhere(endpoint)
    if not elsewhere:
        return
    where = ", ".join(f"{count} at {other}" for other, count in elsewhere[:5])
    more = f" and {len(elsewhere) - 5} more endpoints" if len(elsewhere) > 5 else ""
    log.warning(
        "%d unfinished batches were submitted to other endpoints than %s (%s%s): refresh "
        "them with the --base-url their runs used",
        sum(count for _, count in elsewhere),
        endpoint,
        where,
        more,
    )
