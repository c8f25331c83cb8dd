"""The session's Prefect test server starts on a database already migrated: each pytest worker
starts one (prefect_test_harness), and migrating its new SQLite database was half of the
~14 CPU-seconds a start costs (7 with the tables made from prefect_schema.sql). The schema is
Prefect's, dumped from a harness's database at the installed version; `python -m
tests.support.prefect_server` writes it again after the lock moves Prefect, and a test fails
while it is stale. A stale dump is never used: the server then migrates as it did before."""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

SCHEMA = Path(__file__).with_name("prefect_schema.sql")
# The harness's database file in the folder it makes (prefect/testing/utilities.py).
DATABASE_NAME = "prefect-test.db"
_HEADER = (
    "-- Prefect {version}'s test-server database: made by `python -m tests.support.prefect_server`"
)


def installed_prefect() -> str:
    from importlib.metadata import version

    return version("prefect")


def dump_is_current(script: str) -> bool:
    """Whether `script` (prefect_schema.sql's text) was dumped from the installed Prefect."""
    return script.startswith(_HEADER.format(version=installed_prefect()) + "\n")


def seeded_folder() -> str:
    """A new folder for the harness, holding its database made from the dump when the dump is
    current (else empty: the server migrates a new database itself)."""
    folder = tempfile.mkdtemp(prefix="faithpipe-prefect-")
    script = SCHEMA.read_text(encoding="utf-8") if SCHEMA.exists() else ""
    if dump_is_current(script):
        con = sqlite3.connect(Path(folder) / DATABASE_NAME)
        try:
            con.executescript(script)
        finally:
            con.close()
    return folder


@contextmanager
def seeded_test_harness(startup_timeout: int) -> Iterator[None]:
    """prefect_test_harness on a database made from the dump (its folder from seeded_folder,
    which the harness removes at exit as its own)."""
    import prefect.testing.utilities as harness

    with (
        mock.patch.object(harness, "mkdtemp", seeded_folder),
        harness.prefect_test_harness(server_startup_timeout=startup_timeout),
    ):
        yield


def dump_schema() -> str:
    """The database a harness leaves after a server migrated it, as SQL text under a header
    naming the installed Prefect."""
    import prefect.testing.utilities as harness

    made: list[str] = []
    real_mkdtemp = harness.mkdtemp

    def kept_folder() -> str:
        made.append(real_mkdtemp())
        return made[-1]

    with (
        mock.patch.object(harness, "mkdtemp", kept_folder),
        harness.prefect_test_harness(server_startup_timeout=600),
    ):
        pass
    (folder,) = made
    con = sqlite3.connect(Path(folder) / DATABASE_NAME)
    try:
        body = "\n".join(con.iterdump())
    finally:
        con.close()  # the harness removes the folder at exit
    return f"{_HEADER.format(version=installed_prefect())}\n{body}\n"


def main() -> int:
    from flows.orchestration.prefect_env import configure_prefect_environment

    configure_prefect_environment()
    SCHEMA.write_text(dump_schema(), encoding="utf-8")
    print(f"wrote {SCHEMA}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
