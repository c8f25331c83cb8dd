-- The macros and views were just made from the sql/analysis.sql text of this SHA-256.
DELETE FROM analysis_definitions;
INSERT INTO analysis_definitions VALUES ($sha256, now()::TIMESTAMP);
