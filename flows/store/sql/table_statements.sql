-- Every table's CREATE TABLE, in the order the connection made them (new_database.py);
-- schema_migrations is made by 000_schema_migrations before anything else.
SELECT sql FROM duckdb_tables()
WHERE NOT internal AND NOT temporary AND table_name <> 'schema_migrations'
ORDER BY table_oid;
