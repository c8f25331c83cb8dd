-- The report: whether the database has the calibrations table (migration 020).
SELECT count(*) > 0 FROM duckdb_tables() WHERE table_name = 'calibrations';
