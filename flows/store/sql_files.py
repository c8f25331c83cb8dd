"""The SQL files under flows/store/sql/: queries and migrations live there, not in strings."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

__all__ = ["migrations", "sql", "statements"]

_MIGRATION = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


@cache
def sql(name: str) -> str:
    """Text of `flows/store/sql/<name>.sql` (queries and migrations live there, not in strings)."""
    return resources.files("flows.store").joinpath("sql", f"{name}.sql").read_text()


def migrations() -> list[tuple[int, str]]:
    """(version, file stem) of every numbered migration, in order."""
    found = []
    for entry in resources.files("flows.store").joinpath("sql").iterdir():
        match = _MIGRATION.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name.removesuffix(".sql")))
    return sorted(found)


@cache
def statements(name: str) -> tuple[str, ...]:
    """The statements of a SQL file, comment lines removed."""
    lines = [line for line in sql(name).splitlines() if not line.lstrip().startswith("--")]
    return tuple(part.strip() for part in "\n".join(lines).split(";") if part.strip())


# The first line of sql/new_database.sql names the migrations it was made from
# (new_database.py writes it). Unless they are exactly this faithpipe's, it is not used:
# migrate() walks the migrations instead, so a stale script costs time, never a wrong schema.
_MADE_FROM = re.compile(r"^-- faithpipe storage after migrations ([\d ]+):")


def made_from(script: str) -> set[int]:
    """The migrations the new-database script `script` was made from (its first line)."""
    found = _MADE_FROM.match(script)
    return {int(version) for version in found.group(1).split()} if found else set()
