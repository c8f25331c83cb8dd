-- ... and its macros' and views' definitions (a database of migration 011 on), in UTC.
UPDATE analysis_definitions SET defined_at = now() AT TIME ZONE 'UTC';
