-- Dated in UTC, as every table's times (the column's default, current_timestamp, is the
-- machine's local time once stored as TIMESTAMP).
INSERT INTO schema_migrations (version, name, applied_at)
VALUES ($version, $name, now() AT TIME ZONE 'UTC');
