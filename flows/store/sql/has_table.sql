-- Whether the database has the table $name (a template of an older schema may lack it).
SELECT count(*) > 0 FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = $name;
