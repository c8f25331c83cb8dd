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
    """True when the user points at a Prefect server where Prefect reads its settings:
    PREFECT_API_URL in the environment, in the working folder's `.env`, `prefect.toml`
    (`[api] url`) or `pyproject.toml` (`[tool.prefect.api] url`), or in the active profile
    (`prefect config set PREFECT_API_URL=...`). Only the profile was read besides the
    environment: `faith serve` refused a server a folder's file named ("needs a Prefect
    server"), where Prefect itself would have used it.

    Read without importing prefect (2 s), so the plain route stays fast.
    """
    # Prefect's settings read names in any case (`prefect_api_url=` is taken too)
    named = any(key.upper() == "PREFECT_API_URL" and value for key, value in os.environ.items())
    if named or _folder_names_server(Path()):
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


def _folder_names_server(folder: Path) -> bool:
    """Whether the folder's `.env`, `prefect.toml` or `pyproject.toml` names Prefect's API URL.
    The working folder is `Path()`, as Prefect reads it: one since removed has no such file
    (`Path.cwd()` raised FileNotFoundError there, exit 1)."""
    tables = (("prefect.toml", ("api",)), ("pyproject.toml", ("tool", "prefect", "api")))
    for name, keys in tables:
        try:
            table: object = tomllib.loads((folder / name).read_text())
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        for key in keys:
            table = table.get(key, {}) if isinstance(table, dict) else {}
        if isinstance(table, dict) and table.get("url"):
            return True
    try:
        lines = (folder / ".env").read_text().splitlines()
    except (OSError, UnicodeDecodeError):
        return False
    for line in lines:  # KEY=value, `export KEY=value`, quoted or not
        key, equals, value = line.strip().removeprefix("export ").partition("=")
        if equals and key.strip().upper() == "PREFECT_API_URL" and value.strip().strip("'\""):
            return True
    return False
