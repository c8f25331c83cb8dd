-- 1 when the database has the nightly views (migration 003), else 0.
SELECT count(*) FROM duckdb_views() WHERE view_name = 'judge_agreement';
