-- The report: each stored calibration's cut-offs, to name the config that ran with them.
SELECT name, judge_model, supported, silent FROM calibrations ORDER BY name;
