"""The tables a new database gets in one script (sql/new_database.sql), made from what the
migrations build: a first run applied ~20 migrations, most of whose statements define macros
that sql/analysis.sql replaces at once (~0.1 s of every first run). The migrations stay the
history every older database walks; `python -m flows.store.new_database` writes the script
again after a migration is added, and a test fails while it is stale."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import duckdb

from flows.store.db import migrate, migrations, sql

# The first line names the migrations the script was made from (db.made_from reads it).
_HEADER = (
    "-- faithpipe storage after migrations {versions}: made by `python -m flows.store.new_database`"
)
SCRIPT = Path(__file__).with_name("sql") / "new_database.sql"


def tables_script(con: duckdb.DuckDBPyConnection, versions: list[int]) -> str:
    """CREATE TABLE statements for every table of `con`'s database, in the order they were
    made (on the connection that made them: a reopen numbers them anew), under the header
    naming the migrations `versions` that made them: what the migrations left, analysis
    objects (macros, views) aside, which define_analysis makes."""
    statements = con.execute(sql("table_statements")).fetchall()
    body = "\n".join(statement for (statement,) in statements)
    header = _HEADER.format(versions=" ".join(map(str, versions)))
    return f"{header}\n{body}\n"


def main() -> int:
    """Write sql/new_database.sql from a database migrated the long way."""
    with tempfile.TemporaryDirectory(prefix="faithpipe-schema-") as folder:
        con = duckdb.connect(str(Path(folder) / "migrated.duckdb"))
        try:
            migrate(con, walk=True)
            text = tables_script(con, [version for version, _ in migrations()])
        finally:
            con.close()
    SCRIPT.write_text(text)
    sys.stdout.write(f"wrote {SCRIPT} ({text.count('CREATE TABLE')} tables)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
