-- Whether this database has the batch tables (migration 010): an older one opened read-only
-- has not been migrated yet.
SELECT count(*) > 0 FROM duckdb_tables() WHERE table_name = 'judge_batches';
