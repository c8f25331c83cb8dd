"""Starting or joining the Dask cluster, under the entry point (never at import: Dask spawns
worker processes that import the entry module again).

Workers report to the flow's Prefect API: without PREFECT_API_URL each worker would start its
own temporary Prefect server (measured 111 s instead of 44 s for the same flow).
"""

from __future__ import annotations

import importlib.util
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext, suppress
from typing import Any

from faith_udfs.errors import ConfigError
from flows.allocator import FREED_PAGES_KEPT
from flows.errors import ClusterUnavailable
from flows.run.settings import ScoreSettings
from flows.run.stop_signals import signals_deferred

log = logging.getLogger("faithpipe")
DEFAULT_WORKERS = 2
# Seconds to reach an existing scheduler before giving up with one line.
_CONNECT_TIMEOUT = 30


def require_dask() -> None:
    """`--engine dask` needs the optional extra; without it, one line saying what to install."""
    for name in ("distributed", "prefect_dask"):  # looked for, not imported (prefect_dask: ~6 s)
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise ConfigError("--engine dask needs the dask extra: pip install 'faithpipe[dask]'")


def worker_environment(prefect_api_url: str | None) -> dict[str, str]:
    """Variables every worker gets: the flow's Prefect API, and polars' allocator setting
    (flows/allocator.py), which must be in place before polars loads."""
    env = {"_RJEM_MALLOC_CONF": os.environ.get("_RJEM_MALLOC_CONF") or FREED_PAGES_KEPT}
    for name in ("PREFECT_SERVER_ANALYTICS_ENABLED", "DO_NOT_TRACK"):
        if name in os.environ:
            env[name] = os.environ[name]
    if prefect_api_url:
        env["PREFECT_API_URL"] = prefect_api_url
    return env


@contextmanager
def dask_client(settings: ScoreSettings, *, prefect_api_url: str | None = None) -> Iterator[Any]:
    """A client of the cluster at `--scheduler`, or of a local cluster of `--workers`
    processes (one thread each: polars uses the cores), closed on the way out."""
    require_dask()
    import distributed

    from flows.engines.worker_setup import WorkerEnvironment

    env = worker_environment(prefect_api_url)
    quiet_dask_logs()
    cluster = None
    # A run stopping (or failing) closes the cluster with further stops noted, not raised: a
    # SIGTERM after Ctrl-C, raised inside the close, made the exit 143 under a row `interrupted
    # by SIGINT`. A completed run's close still hears a stop (exit 130/143 after `completed`).
    stopping = False
    try:
        if settings.scheduler:
            try:
                client = distributed.Client(settings.scheduler, timeout=_CONNECT_TIMEOUT)
            except OSError as exc:
                raise ConfigError(
                    f"--scheduler {settings.scheduler}: no Dask scheduler answered within "
                    f"{_CONNECT_TIMEOUT} s ({exc})"
                ) from None
            except (TypeError, ValueError) as exc:
                # Dask's comms refuse their settings: tls:// without a TLS configuration
                # (`TLS expects a ssl_context argument`), a comm whose package is missing
                raise ConfigError(
                    f"--scheduler {settings.scheduler}: Dask cannot connect this way ({exc})"
                ) from None
        else:
            cluster = _local_cluster(
                n_workers=settings.workers or DEFAULT_WORKERS,
                threads_per_worker=1,
                processes=True,
                # no login: for this machine only (":0" served every interface, the tasks'
                # exceptions with logged words in them among its pages)
                dashboard_address="127.0.0.1:0",
                # as quiet_dask_logs for this process: at ERROR, a worker still said "Failed
                # to communicate with scheduler during heartbeat" when a stop closed the
                # scheduler first (a test's stop, 1 run in 5 under load); -v shows them
                silence_logs=dask_log_level(),
                env=env,
                # Ctrl-C at a terminal reaches the whole process group: the run's own stop
                # closes the workers, which would each print a KeyboardInterrupt otherwise.
                preload=["flows.engines.worker_preload"],
            )
            client = distributed.Client(cluster)
        try:
            wait_for_a_worker(client, settings.task_timeout)
            # Workers already running (an existing cluster) and any that join or restart later.
            client.register_plugin(WorkerEnvironment(env), name="faithpipe-environment")
            client.subscribe_topic("all", say_worker_lost)
            forward_worker_lines(client)
            yield client
        except BaseException:  # re-raised: only noted, so that the close defers further stops
            stopping = True
            raise
        finally:
            # the close's own removals are no deaths
            with suppress(Exception):
                client.unsubscribe_topic("all")
            closed_within(client, stopping)
    finally:
        if cluster is not None:
            closed_within(cluster, stopping)


# Seconds a client or a cluster is given to close: a stopping run's close hears no further
# stop, so a worker that never answers would otherwise hold it for good (LocalCluster.close
# waits without a deadline; a Client's is its connect timeout).
CLOSE_TIMEOUT = 60.0


def closed_within(closing: Any, stopping: bool) -> None:
    """Close a Dask client or cluster within CLOSE_TIMEOUT, further stops deferred while a run
    stops; past it, one warning line and the run's own end (its processes are left to exit
    with this one), not a TimeoutError over the run's exit code."""
    with signals_deferred() if stopping else nullcontext():
        try:
            closing.close(timeout=CLOSE_TIMEOUT)
        except TimeoutError:
            log.warning(
                "the Dask %s did not close within %g s; left to end with this process",
                type(closing).__name__,
                CLOSE_TIMEOUT,
            )


# The topic of faithpipe's log lines forwarded from the workers.
_WORKER_LINES = "faithpipe-worker-lines"


def forward_worker_lines(client: Any) -> None:
    """faithpipe's warnings and errors logged in a task (`flows.*`, `faithpipe`: a judge's
    cache unreadable, its connections not closed in time) are printed by this process, through
    its own handlers: timestamped, scrubbed, one line each. A worker process has no handler,
    so logging's last resort printed them on the terminal itself, with no time and no
    scrubbing (a key a server echoed went out whole), or on a --scheduler worker's own."""
    from distributed.diagnostics.plugin import ForwardLoggingPlugin

    client.subscribe_topic(_WORKER_LINES, _print_worker_line)
    for name in ("flows", "faithpipe"):
        plugin = ForwardLoggingPlugin(name, logging.WARNING, _WORKER_LINES)
        client.register_plugin(plugin, name=f"faithpipe-lines-{name}")


def _print_worker_line(event: tuple[float, dict[str, Any]]) -> None:
    """A worker's log record, handled here by the logger of its name; its traceback (a
    record's exc_text) only with -v, as this process's own."""
    record = logging.makeLogRecord(event[1])
    if dask_log_level() != logging.WARNING:  # not -v
        record.exc_text = record.stack_info = None
    logging.getLogger(record.name).handle(record)


def say_worker_lost(event: tuple[float, Any]) -> None:
    """One line for a worker that ended while running tasks, not closed by the cluster (a
    kill -9, the kernel's OOM killer, a nanny past its memory limit): Dask runs its tasks
    again, silently (its lines stay off the console), answering the judge calls the dead
    worker had answers for from their journal (flows/store/reply_journal.py). Called on the
    client's event loop, with the scheduler's "all" events."""
    message = event[1] if isinstance(event, tuple) and len(event) == 2 else None
    if not isinstance(message, dict) or message.get("action") != "remove-worker":
        return
    tasks = sorted(str(key) for key in message.get("processing-tasks") or ())
    if message.get("expected") or not tasks:
        return
    numbers = sorted(
        int(n)
        for key in tasks
        if key.startswith("score-partition-") and (n := key.rpartition("-")[2]).isdecimal()
    )
    held = (
        f"partition{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))} to score"
        if len(numbers) == len(tasks)
        else f"{len(tasks)} task{'s' if len(tasks) > 1 else ''}"
    )
    log.warning(
        "a Dask worker (%s) ended mid-run, with %s: the scheduler gives %s to another worker "
        "(up to %d tries), which asks again only the LLM judge calls left unanswered there",
        message.get("worker", "?"),
        held,
        "it" if len(tasks) == 1 else "them",
        _allowed_failures() + 1,
    )


def _allowed_failures() -> int:
    import dask

    return int(dask.config.get("distributed.scheduler.allowed-failures", 3))


def _local_cluster(**options: Any) -> Any:
    """distributed.LocalCluster(**options); one whose start a stop (or a failure) cuts short is
    closed here, quietly. Left half-made, distributed's own exit hook closed it again as the
    process ended and printed its traceback (`Exception ignored in atexit callback ...
    AssertionError: Status.init`) under the stop's one line."""
    from distributed.deploy.spec import SpecCluster

    before = set(SpecCluster._instances)
    try:
        return distributed_local_cluster(**options)
    except BaseException:
        # its nannies' start, cut short, is a task whose failure asyncio logs when it is
        # collected ("Task exception was never retrieved"): Dask's lines, shown with -v
        logging.getLogger("asyncio").setLevel(dask_log_level())
        for half_made in set(SpecCluster._instances) - before:
            SpecCluster._instances.discard(half_made)
            with suppress(Exception):
                half_made.close(timeout=5)
        raise


def distributed_local_cluster(**options: Any) -> Any:
    import distributed

    return distributed.LocalCluster(**options)


def wait_for_a_worker(client: Any, seconds: float) -> None:
    """A cluster without workers would take the tasks and run none: wait for one to join,
    at most `seconds` (--task-timeout)."""
    try:
        client.wait_for_workers(1, timeout=seconds)
    except TimeoutError:
        raise ClusterUnavailable(
            f"the Dask scheduler at {client.scheduler.address} has no worker (none joined "
            f"within --task-timeout {seconds:g} s): start workers, or use --workers N"
        ) from None


def dask_log_level() -> int:
    """The level Dask's loggers show from: WARNING with -v, else CRITICAL only."""
    verbose = logging.getLogger("faithpipe").isEnabledFor(logging.DEBUG)
    return logging.WARNING if verbose else logging.CRITICAL


def quiet_dask_logs() -> None:
    """Dask's lines (each client, comm and nanny; the tracebacks of a lost scheduler) would
    drown the run's one-line outcome: the console shows them only with -v. Dask's config sets
    levels on some of its loggers (distributed.client), so each one is set, not just the root."""
    level = dask_log_level()
    names = [
        name
        for name in logging.root.manager.loggerDict
        if name.split(".")[0] in ("distributed", "tornado")
    ]
    for name in ("distributed", "distributed.client", *names):
        logging.getLogger(name).setLevel(level)
