"""Prefect settings that must be in the environment before `import prefect`.

The temporary server's first start on a fresh machine takes 27-39 s here, past Prefect's
default 20 s timeout; its telemetry races the migrations and cannot reach the network
(stack-notes §1a). A user's own values always win.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

DEFAULTS = {
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "180",
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "DO_NOT_TRACK": "1",
    "PREFECT_LOGGING_TO_API_WHEN_MISSING_FLOW": "ignore",
    # One "Finished in state Completed()" line per task and batch drowns the run's own lines.
    "PREFECT_LOGGING_LOGGERS_PREFECT_TASK_RUNS_LEVEL": "WARNING",
}


def configure_prefect_environment() -> None:
    """Set faithpipe's Prefect defaults where the user has not set them."""
    for name, value in DEFAULTS.items():
        os.environ.setdefault(name, value)


def prefect_server_configured() -> bool:
    """True when the user points at a Prefect server: PREFECT_API_URL in the environment or
    in the active profile (`prefect config set PREFECT_API_URL=...`).

    Read without importing prefect (2 s), so the plain route stays fast.
    """
    if os.environ.get("PREFECT_API_URL"):
        return True
    home = Path(os.environ.get("PREFECT_HOME", Path.home() / ".prefect")).expanduser()
    path = Path(os.environ.get("PREFECT_PROFILES_PATH", home / "profiles.toml")).expanduser()
    try:
        profiles = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError):
        return False
    active = os.environ.get("PREFECT_PROFILE") or profiles.get("active", "ephemeral")
    profile = profiles.get("profiles", {}).get(active, {})
    return bool(profile.get("PREFECT_API_URL"))
