-- Every table and view stored in the database, to tell a faithpipe database from another.
SELECT schema_name, table_name AS name, 'table' AS kind
FROM duckdb_tables()
WHERE database_name = current_database() AND NOT internal AND NOT temporary
UNION ALL
SELECT schema_name, view_name, 'view'
FROM duckdb_views()
WHERE database_name = current_database() AND NOT internal AND NOT temporary
ORDER BY schema_name <> 'main', schema_name, name
