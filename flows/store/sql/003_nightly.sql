-- faithpipe nightly, version 3: the judge-drift watch. Names and columns are a public interface.

-- One row a run's check of its judge on the golden set (data/golden.parquet): the same judge
-- and metric config as the run, compared item by item with the expected verdicts.
CREATE TABLE judge_checks (
    run_id        VARCHAR PRIMARY KEY,
    config_id     VARCHAR NOT NULL,
    golden        VARCHAR NOT NULL,              -- path of the golden set
    golden_hash   VARCHAR NOT NULL,              -- md5 of its cases and expected verdicts
    checked_at    TIMESTAMP NOT NULL,
    cases         INTEGER NOT NULL,
    cases_invalid INTEGER NOT NULL,              -- the judge could not handle them
    cases_pending INTEGER NOT NULL,              -- left unjudged (judge call budget spent)
    items         INTEGER NOT NULL,              -- expected verdicts compared (see README.md, judge-drift watch)
    agreed        INTEGER NOT NULL,
    agreement     DOUBLE,                        -- agreed / items; NULL when items = 0
    floor         DOUBLE NOT NULL,
    passed        BOOLEAN,                       -- agreement >= floor; NULL when cases are pending
    seconds       DOUBLE NOT NULL
);

-- One row a compared item: an expected verdict and the judge's, or a claim the judge found in
-- an answer expected to have none (expected NULL: agreed unless judged yes or no).
CREATE TABLE judge_check_verdicts (
    run_id      VARCHAR NOT NULL,
    case_id     VARCHAR NOT NULL,
    claim_index INTEGER,                         -- NULL: no claim on either side
    claim       VARCHAR,                         -- as the judge extracted it
    expected    VARCHAR,                         -- yes | no | idk; NULL = no claim expected
    verdict     VARCHAR,                         -- the judge's; NULL = none (missing, dropped)
    agreed      BOOLEAN NOT NULL
);

-- Agreement over time, per metric config: one row a check, with the change since the previous
-- check of the same config on the same golden set, and the run's status and warning.
CREATE VIEW judge_agreement AS
SELECT
    c.config_id,
    CAST(c.checked_at AS DATE) AS day,
    c.checked_at,
    c.run_id,
    r.flow,
    r.status AS run_status,
    c.golden_hash,
    c.cases,
    c.items,
    c.agreed,
    c.agreement,
    c.agreement - lag(c.agreement) OVER (
        PARTITION BY c.config_id, c.golden_hash ORDER BY c.checked_at
    ) AS change,
    c.floor,
    c.passed,
    r.warning
FROM judge_checks AS c
LEFT JOIN runs AS r USING (run_id)
ORDER BY c.config_id, c.checked_at;
