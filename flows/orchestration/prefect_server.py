"""A Prefect server that PREFECT_API_URL names but that does not answer: a setting to fix.

Prefect's own failure there is a RuntimeError as the flow starts ("Failed to reach API"),
which the CLI can only call a bug (exit 1); asked first, it is one line and exit 2, before
anything is read or written.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from faith_udfs.errors import ConfigError


class PrefectServerUnreachable(ConfigError):
    """The configured Prefect server does not answer (exit 2: fix the setting or start it)."""


def require_prefect_server(*, plain_route: bool = True) -> None:
    """Raise PrefectServerUnreachable unless the configured Prefect server answers its health
    check; without PREFECT_API_URL Prefect starts a temporary server, and there is none to ask.
    `plain_route`: the command takes `--prefect no`, and the line offers it."""
    from prefect.client.orchestration import get_client
    from prefect.settings import get_current_settings

    url = get_current_settings().api.url
    if not url:
        return
    with get_client(sync_client=True) as client:
        problem = client.api_healthcheck()
    if problem is not None:
        raise PrefectServerUnreachable(unreachable_line(url, problem, plain_route=plain_route))


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
