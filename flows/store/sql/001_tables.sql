-- faithpipe storage, version 1. Table and column names are a public interface (README).

-- One row a run of `faith score` / `faith nightly`: what it was asked, what it did, how long.
CREATE TABLE runs (
    run_id              VARCHAR PRIMARY KEY,
    flow                VARCHAR NOT NULL,            -- score | nightly
    config_id           VARCHAR NOT NULL,
    config              VARCHAR NOT NULL,            -- JSON: judge identity + metric settings
    source              VARCHAR NOT NULL,
    status              VARCHAR NOT NULL,            -- running | completed | failed | superseded
    started_at          TIMESTAMP NOT NULL,
    heartbeat_at        TIMESTAMP,
    finished_at         TIMESTAMP,
    pid                 INTEGER,
    host                VARCHAR,
    batches             BIGINT NOT NULL DEFAULT 0,
    rows_in             BIGINT NOT NULL DEFAULT 0,   -- = scored + invalid + pending + quarantined
    rows_scored         BIGINT NOT NULL DEFAULT 0,   -- ending scored: newly + already
    rows_newly_scored   BIGINT NOT NULL DEFAULT 0,
    rows_already_scored BIGINT NOT NULL DEFAULT 0,   -- same config, same content: skipped
    rows_invalid        BIGINT NOT NULL DEFAULT 0,
    rows_pending        BIGINT NOT NULL DEFAULT 0,   -- left for the next run (judge caps)
    rows_quarantined    BIGINT NOT NULL DEFAULT 0,
    rows_replaced       BIGINT NOT NULL DEFAULT 0,   -- re-delivered with changed content
    rows_passed         BIGINT NOT NULL DEFAULT 0,   -- of the newly scored
    judge_calls         BIGINT NOT NULL DEFAULT 0,
    judge_cached        BIGINT NOT NULL DEFAULT 0,
    judge_failed        BIGINT NOT NULL DEFAULT 0,
    prompt_tokens       BIGINT NOT NULL DEFAULT 0,
    completion_tokens   BIGINT NOT NULL DEFAULT 0,
    seconds_read        DOUBLE NOT NULL DEFAULT 0,
    seconds_validate    DOUBLE NOT NULL DEFAULT 0,
    seconds_score       DOUBLE NOT NULL DEFAULT 0,
    seconds_write       DOUBLE NOT NULL DEFAULT 0,
    seconds_total       DOUBLE,
    error               VARCHAR,
    warning             VARCHAR
);

-- One row a case and metric config: the verdict counts every view recomputes from.
CREATE TABLE case_scores (
    config_id                 VARCHAR NOT NULL,
    case_id                   VARCHAR NOT NULL,
    run_id                    VARCHAR NOT NULL,
    content_hash              VARCHAR NOT NULL,      -- md5 of input, answer and contexts
    logged_at                 TIMESTAMP,
    input                     VARCHAR,
    actual_output             VARCHAR,
    n_truths                  INTEGER,
    n_claims                  INTEGER,
    n_yes                     INTEGER,
    n_no                      INTEGER,
    n_idk                     INTEGER,
    n_dropped                 INTEGER,               -- verdicts outside yes/no/idk
    score                     DOUBLE,
    threshold                 DOUBLE,
    penalize_ambiguous_claims BOOLEAN,
    strict_mode               BOOLEAN,
    success                   BOOLEAN,
    no_claims                 BOOLEAN,
    status                    VARCHAR NOT NULL,      -- scored | invalid | pending
    error                     VARCHAR,
    reason                    VARCHAR,
    passage_ids               UBIGINT[],             -- the case's passages, in order (truths.passage_id)
    segments                  MAP(VARCHAR, VARCHAR), -- extra input columns: app_version, model, ...
    judge_calls               DOUBLE NOT NULL DEFAULT 0,   -- its share of the calls made
    prompt_tokens             INTEGER NOT NULL DEFAULT 0,
    completion_tokens         INTEGER NOT NULL DEFAULT 0,
    scored_at                 TIMESTAMP NOT NULL
    -- One row per (config_id, case_id): each batch deletes what it re-scores and inserts in
    -- one transaction. Not a PRIMARY KEY: its index is rewritten at every checkpoint and made
    -- writes several times slower as the table grew (bench/pipeline.py).
);

-- One row a claim of a scored case.
CREATE TABLE claim_verdicts (
    config_id   VARCHAR NOT NULL,
    case_id     VARCHAR NOT NULL,
    claim_index INTEGER NOT NULL,
    claim       VARCHAR NOT NULL,
    verdict     VARCHAR,                               -- yes | no | idk; NULL = dropped
    reason      VARCHAR
);

-- One row a truth of a distinct passage (shared by every case that cites the passage).
CREATE TABLE truths (
    config_id   VARCHAR NOT NULL,
    passage_id  UBIGINT NOT NULL,
    truth_index INTEGER NOT NULL,
    truth       VARCHAR NOT NULL
);

-- One row an input row and failed check; the whole row is kept, nothing is lost.
CREATE TABLE quarantine (
    row_key        VARCHAR NOT NULL,                   -- md5 of the row as read
    "check"        VARCHAR NOT NULL,
    run_id         VARCHAR NOT NULL,                   -- first run that quarantined it
    case_id        VARCHAR,
    "column"       VARCHAR,
    value          VARCHAR,
    source_file    VARCHAR,
    row_json       VARCHAR NOT NULL,
    quarantined_at TIMESTAMP NOT NULL,
    PRIMARY KEY (row_key, "check")
);

-- One row a judge call ever made: a re-run of the same prompt costs nothing.
CREATE TABLE judge_cache (
    cache_key         VARCHAR PRIMARY KEY,             -- hash of model, template, prompt, params
    kind              VARCHAR NOT NULL,
    model             VARCHAR NOT NULL,
    prompt_version    VARCHAR NOT NULL,
    schema_name       VARCHAR NOT NULL,
    reply             VARCHAR NOT NULL,                -- the reply's JSON text
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    created_at        TIMESTAMP NOT NULL
);
