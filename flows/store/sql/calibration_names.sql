-- The names of the stored calibrations, for an error that lists them.
SELECT name FROM calibrations ORDER BY name;
