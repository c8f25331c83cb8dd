-- faithpipe storage, version 10: `--judge-mode batch`, judge items asked through an OpenAI-style
-- Batch API (files + batches). Names and columns are a public interface (README, batch mode).

-- One row a batch submitted to an endpoint: what it holds, its state as last seen, and what
-- collecting it brought into judge_cache. A batch is waited for while collected_at is NULL.
CREATE TABLE judge_batches (
    batch_id          VARCHAR PRIMARY KEY,           -- the server's id (batch_...)
    input_file_id     VARCHAR NOT NULL,              -- the uploaded JSONL of requests
    output_file_id    VARCHAR,                       -- answers, once the server has them
    error_file_id     VARCHAR,                       -- requests that failed, once known
    endpoint          VARCHAR NOT NULL,              -- host[:port] only: never a path, key or password
    model             VARCHAR NOT NULL,
    config            VARCHAR NOT NULL,              -- JSON: the judge identity the items were asked under
    state             VARCHAR NOT NULL,              -- the server's status as last seen: validating,
                                                     -- in_progress, finalizing, completed, failed,
                                                     -- expired, cancelling, cancelled; `lost` when the
                                                     -- server no longer knows it
    requests          INTEGER NOT NULL,              -- request lines (packs of items)
    items             INTEGER NOT NULL,              -- judge items asked (passages, answers, questions)
    items_answered    INTEGER,                       -- of those, answers stored in judge_cache
    items_failed      INTEGER,                       -- answered with an error or an unusable reply
    prompt_tokens     BIGINT,                        -- the answers' usage, summed
    completion_tokens BIGINT,
    submitted_at      TIMESTAMP NOT NULL,
    checked_at        TIMESTAMP,                     -- state last asked of the server
    collected_at      TIMESTAMP,                     -- finished and read; NULL: still waited for
    error             VARCHAR                        -- why the server failed it, when it says
);

-- One row an item of a submitted batch: which request line asked it, under which judge_cache
-- key, and what became of it. Items of a batch collected without an answer (expired, failed,
-- lost) are asked again by the next run.
CREATE TABLE judge_batch_items (
    batch_id       VARCHAR NOT NULL,
    custom_id      VARCHAR NOT NULL,                 -- the request line's id in the batch
    position       INTEGER NOT NULL,                 -- the item's place in that line's pack (from 0)
    stage          VARCHAR NOT NULL,                 -- truths | claims | verdicts | reasons
    item           VARCHAR NOT NULL,                 -- JSON: the item as it enters the cache key
    cache_key      VARCHAR NOT NULL,                 -- judge_cache.cache_key its answer is stored under
    error          VARCHAR,                          -- the reply error that left it unanswered
    error_reported BOOLEAN NOT NULL DEFAULT false,   -- that error already made its case invalid once
    PRIMARY KEY (batch_id, custom_id, position)
);
