-- A database copied from the process's template (database_template.py): its migrations dated
-- now, as if it had been made in place.
UPDATE schema_migrations SET applied_at = current_timestamp;
