-- faithpipe storage, version 18: what a small or sloppy model needs remembered (issue 27).
-- Names and columns are a public interface (docs/small-models.md).

-- The item each cached answer was asked for (the JSON its cache key hashes: a passage's text
-- and truths limit, an answer's text, a question's claims and truths), so `faith cache check`
-- can hold every stored answer to its own item. NULL for answers cached before version 18.
ALTER TABLE judge_cache ADD COLUMN item VARCHAR;

-- The judge mode (`packed` or `per-item`) `faith judge-check` found an endpoint and model can
-- use, and the latency it measured; `faith score` and `faith nightly` use it unless
-- --judge-mode is given.
CREATE TABLE judge_modes (
    endpoint_key     VARCHAR NOT NULL,            -- sha256 of the base URL without credentials
    model            VARCHAR NOT NULL,
    judge_mode       VARCHAR NOT NULL,            -- packed | per-item
    seconds_per_call DOUBLE,                      -- median latency of the check's calls
    slowest_call     DOUBLE,                      -- its slowest call, in seconds
    concurrency      INTEGER NOT NULL,            -- calls the check sent at once
    checked_at       TIMESTAMP NOT NULL,
    PRIMARY KEY (endpoint_key, model)
);
