-- The report: the file of the database it reads (NULL in memory), which --html must not name.
SELECT path FROM duckdb_databases() WHERE database_name = current_database();
