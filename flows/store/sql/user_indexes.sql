-- The indexes a user made on the database's tables (faithpipe makes none): DuckDB refuses
-- some changes of a table an index depends on, so a migration drops and makes them again.
SELECT index_name, sql
FROM duckdb_indexes()
WHERE database_name = current_database() AND schema_name = 'main' AND sql IS NOT NULL
ORDER BY index_name
