-- faithpipe storage, version 21: a calibration's refitted judge weights (docs/calibration.md).
-- Plain ALTER TABLE of a core type: replayed from the WAL with no extension.

-- JSON object of the grounded judge's feature weights `faith calibrate` refitted on the
-- labels ({"intercept": -1.9, "cov_all": 0.64, ...}); NULL: the rules version's own weights
-- (fitted with --cutoffs-only, on fewer than 100 labels, or before version 21).
ALTER TABLE calibrations ADD COLUMN weights VARCHAR;
