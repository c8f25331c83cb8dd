-- Whether the database has the cost columns of runs (migration 009).
SELECT count(*) > 0 FROM duckdb_columns() WHERE table_name = 'runs' AND column_name = 'cost_usd';
