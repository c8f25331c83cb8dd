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
