-- The SHA-256 of the sql/analysis.sql text the macros and views were last made from.
SELECT max(sha256) FROM analysis_definitions;
