-- Issue 22: the rows each run quarantined, by check (a row failing two checks counts under
-- both), so a run names its top failing checks even when an earlier run quarantined the same
-- rows first (quarantine.run_id is the first run's); and the --max-quarantine-share it was
-- checked against.
CREATE TABLE run_quarantine_checks (
    run_id  VARCHAR NOT NULL,
    "check" VARCHAR NOT NULL,
    "rows"  BIGINT NOT NULL,
    PRIMARY KEY (run_id, "check")
);
ALTER TABLE runs ADD COLUMN max_quarantine_share DOUBLE;
