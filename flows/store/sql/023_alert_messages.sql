-- faithpipe storage, version 23: the messages `faith nightly` sends its --alert-webhook, each
-- kept until it is delivered: a night stopped after its results were committed, or a webhook
-- that failed, leaves them here and the next night sends them, marked late (docs/report.md).
-- Never the webhook's URL: a secret. Plain CREATE TABLE of core types: replayed from the WAL
-- with no extension.
CREATE TABLE alert_messages (
    run_id    VARCHAR NOT NULL,    -- the nightly run whose warning it tells
    position  INTEGER NOT NULL,    -- its place among that night's messages
    kind      VARCHAR NOT NULL,    -- pass_rate_drop, judge_drift, invalid_share, quarantine_share
    message   VARCHAR NOT NULL,    -- JSON: the message as it is POSTed (text and figures)
    raised_at TIMESTAMP NOT NULL,  -- UTC
    sent_at   TIMESTAMP,           -- UTC; NULL: not delivered yet
    PRIMARY KEY (run_id, position)
);
