"""The session's Prefect test server starts on tables made from a dump of Prefect's own
(tests/support/prefect_server.py): the dump must be the installed Prefect's."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from tests.support.prefect_server import (
    DATABASE_NAME,
    SCHEMA,
    dump_is_current,
    installed_prefect,
    seeded_folder,
)


def test_the_dump_is_the_installed_prefects() -> None:
    assert dump_is_current(SCHEMA.read_text(encoding="utf-8")), (
        f"{SCHEMA.name} is not Prefect {installed_prefect()}'s: run "
        "`.venv/bin/python -m tests.support.prefect_server`"
    )


def test_a_seeded_folder_holds_prefects_tables_at_their_migration() -> None:
    folder = Path(seeded_folder())
    con = sqlite3.connect(folder / DATABASE_NAME)
    try:
        (version,) = con.execute("SELECT version_num FROM alembic_version").fetchone()
        tables = {name for (name,) in con.execute("SELECT name FROM sqlite_master")}
    finally:
        con.close()
        shutil.rmtree(folder)
    assert f"""INSERT INTO "alembic_version" VALUES('{version}');""" in SCHEMA.read_text()
    assert {"flow_run", "task_run", "log", "artifact"} <= tables


def test_a_stale_dump_is_not_read() -> None:
    assert not dump_is_current("-- Prefect 0.0.1's test-server database: made by ...\n")
