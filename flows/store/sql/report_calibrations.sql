-- The report: each stored calibration's cut-offs and refitted weights, to name the config that
-- ran with them. Every column: a database read before migration 021 has no `weights`.
SELECT * FROM calibrations ORDER BY name;
