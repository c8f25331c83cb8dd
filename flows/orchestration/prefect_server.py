"""A Prefect server that PREFECT_API_URL names but that does not answer: a setting to fix.

Prefect's own failure there is a RuntimeError as the flow starts ("Failed to reach API"),
which the CLI can only call a bug (exit 1); asked first, it is one line and exit 2, before
anything is read or written.
"""

from __future__ import annotations

import contextvars
import threading
from urllib.parse import urlsplit, urlunsplit

from faith_udfs.errors import ConfigError


class PrefectServerUnreachable(ConfigError):
    """The configured Prefect server does not answer (exit 2: fix the setting or start it)."""


def require_prefect_server(*, plain_route: bool = True) -> None:
    """Raise PrefectServerUnreachable unless the configured Prefect server answers its health
    check; without PREFECT_API_URL Prefect starts a temporary server, and there is none to ask.
    `plain_route`: the command takes `--prefect no`, and the line offers it."""
    from prefect.settings import get_current_settings

    api = get_current_settings().api
    if not api.url:
        return
    problem = health_within(float(api.request_timeout))
    if problem is not None:
        raise PrefectServerUnreachable(unreachable_line(api.url, problem, plain_route=plain_route))


def health_within(seconds: float) -> BaseException | None:
    """Prefect's health check, given `seconds` in all (PREFECT_API_REQUEST_TIMEOUT): its client
    retries a timed-out request five times with a back-off (a server that held the connection
    took 7 minutes at the default 60 s) and follows a 503's Retry-After, however long. What
    went wrong, or None; past the deadline the check is left to its daemon thread."""
    from prefect.client.orchestration import get_client

    outcome: list[BaseException | None] = []

    def ask() -> None:
        try:
            with get_client(sync_client=True) as client:
                outcome.append(client.api_healthcheck())
        except Exception as exc:  # a client that cannot be made: said on the error line too
            outcome.append(exc)

    context = contextvars.copy_context()  # Prefect's settings context, in the thread too
    worker = threading.Thread(
        target=context.run, args=(ask,), name="faithpipe-prefect-health", daemon=True
    )
    worker.start()
    worker.join(seconds)
    if worker.is_alive() or not outcome:
        return TimeoutError(f"no healthy answer within {seconds:g} s, PREFECT_API_REQUEST_TIMEOUT")
    return outcome[0]


def unreachable_line(url: str, problem: BaseException, *, plain_route: bool) -> str:
    """What failed and the ways out, in one line."""
    reason = str(problem).strip().splitlines()
    detail = f"{type(problem).__name__}: {reason[0]}" if reason else type(problem).__name__
    ways = ["start it (prefect server start)", "point PREFECT_API_URL at a running one"]
    ways += ["use --prefect no"] if plain_route else []
    return (
        f"the Prefect server at {without_credentials(url)} does not answer ({detail}): "
        f"{', '.join(ways[:-1])} or {ways[-1]}"
    )


def without_credentials(url: str) -> str:
    """The URL without a `user:password@` part: the error line is printed and logged."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))
