-- The columns of main.schema_migrations, if there is such a table: faithpipe's has
-- version INTEGER, name VARCHAR, applied_at TIMESTAMP.
SELECT column_name, data_type
FROM duckdb_columns()
WHERE database_name = current_database() AND schema_name = 'main'
  AND table_name = 'schema_migrations'
ORDER BY column_index
