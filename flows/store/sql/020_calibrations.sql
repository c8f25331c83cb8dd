-- faithpipe storage, version 20: named calibrations of the offline judge (`faith calibrate`),
-- used by `faith score --calibration NAME`. Names and columns are a public interface
-- (docs/calibration.md). Plain CREATE TABLE of core types: replayed from the WAL with no extension.

-- One row a calibration: the cut-offs fitted to a team's labels and how well they agreed.
CREATE TABLE calibrations (
    name                      VARCHAR PRIMARY KEY,
    judge_kind                VARCHAR NOT NULL,      -- the judge it calibrates: grounded
    judge_model               VARCHAR NOT NULL,      -- its rules version, e.g. grounded-v1
    supported                 DOUBLE NOT NULL,       -- support at or above which a claim is yes
    silent                    DOUBLE NOT NULL,       -- coverage below which a claim is idk
    threshold                 DOUBLE NOT NULL,       -- the case threshold fitted with them
    penalize_ambiguous_claims BOOLEAN NOT NULL,      -- the score the threshold was fitted on
    labels                    INTEGER NOT NULL,      -- labelled cases fitted on
    positives                 INTEGER NOT NULL,      -- of them, labelled 1 (faithful)
    claims_labelled           INTEGER NOT NULL,      -- claims with a label of their own (0: none)
    folds                     INTEGER NOT NULL,      -- k of the cross-validation
    seed                      INTEGER NOT NULL,      -- of the folds and the bootstrap
    labels_hash               VARCHAR NOT NULL,      -- md5 of the sorted labels (case_id, label, claim_labels)
    agreement                 VARCHAR NOT NULL,      -- JSON: the cross-validated agreement table
    created_at                TIMESTAMP NOT NULL
);
