-- ... and its macros' and views' definitions (a database of migration 011 on).
UPDATE analysis_definitions SET defined_at = now()::TIMESTAMP;
