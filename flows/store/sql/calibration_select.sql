-- One named calibration, or none.
SELECT * FROM calibrations WHERE name = $name;
