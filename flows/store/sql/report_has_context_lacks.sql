-- The report: whether claim_verdicts has context_lacks (migration 012, the judges' branch).
SELECT count(*) > 0 FROM duckdb_columns()
WHERE table_name = 'claim_verdicts' AND column_name = 'context_lacks';
