-- The macros and views were just made from the sql/analysis.sql text of this SHA-256 (dated
-- in UTC, as every table's times: now()::TIMESTAMP is the machine's local time).
DELETE FROM analysis_definitions;
INSERT INTO analysis_definitions VALUES ($sha256, now() AT TIME ZONE 'UTC');
