-- Whether the database has the compare macros (analysis.sql, from migration 017 on): one an
-- older faithpipe made and nothing opened for writing since has not.
SELECT count(*) > 0 FROM duckdb_functions() WHERE function_name = 'compare_pass_rates';
