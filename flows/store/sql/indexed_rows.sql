-- Rows stored in tables with a PRIMARY KEY, whose index DuckDB holds in memory (db.py).
SELECT coalesce(sum(estimated_size), 0) AS indexed_rows
FROM duckdb_tables()
WHERE has_primary_key AND NOT temporary;
