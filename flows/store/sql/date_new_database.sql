-- A database copied from the process's template (database_template.py): its migrations dated
-- now, as if it had been made in place. In UTC, as every table's times: DuckDB's now() cast
-- to TIMESTAMP is the machine's local time.
UPDATE schema_migrations SET applied_at = now() AT TIME ZONE 'UTC';
