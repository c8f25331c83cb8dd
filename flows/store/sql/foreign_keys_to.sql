-- The foreign keys of other tables that refer to the table $table (faithpipe makes none).
SELECT table_name, constraint_text
FROM duckdb_constraints()
WHERE database_name = current_database() AND constraint_type = 'FOREIGN KEY'
  AND referenced_table = $table
ORDER BY table_name, constraint_text
