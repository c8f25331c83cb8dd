-- 1 when the database has the analysis macros (migration 002), else 0.
SELECT count(*) FROM duckdb_functions() WHERE function_name = 'pass_rates';
