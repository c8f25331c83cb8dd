-- The report: whether the database has the comparisons table (migration 017).
SELECT count(*) > 0 FROM duckdb_tables() WHERE table_name = 'comparisons';
