-- The report: whether claim_verdicts has evidence (migration 005; a database made before it
-- and only read since, as the report reads, has none).
SELECT count(*) > 0 FROM duckdb_columns()
WHERE table_name = 'claim_verdicts' AND column_name = 'evidence';
