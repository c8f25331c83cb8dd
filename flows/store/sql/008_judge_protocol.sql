-- faithpipe storage, version 8: what an LLM endpoint accepts, remembered across runs.
-- Names and columns are a public interface (README, Judging with an LLM).

-- The structured-output request an endpoint and model answered: json_schema, json_object or
-- text (JSON asked for in the prompt only). A run starts there instead of negotiating again;
-- a refusal of the remembered mode steps down and replaces the row.
CREATE TABLE judge_formats (
    endpoint_key    VARCHAR NOT NULL,            -- sha256 of the base URL without credentials (never the URL)
    model           VARCHAR NOT NULL,
    response_format VARCHAR NOT NULL,            -- json_schema | json_object | text
    checked_at      TIMESTAMP NOT NULL,
    PRIMARY KEY (endpoint_key, model)
);

-- Judge items (cache keys of judge_cache) whose last call ended in an error: under a call
-- cap they wait behind items never tried, so the same failures do not spend every night's cap.
CREATE TABLE judge_failures (
    cache_key  VARCHAR PRIMARY KEY,
    failures   INTEGER NOT NULL,
    last_error VARCHAR NOT NULL,
    failed_at  TIMESTAMP NOT NULL
);

-- `faith judge-check` and the nightly preflight: the seed's three examples through each stage.
CREATE TABLE judge_preflights (
    endpoint_key    VARCHAR NOT NULL,
    model           VARCHAR NOT NULL,
    judge           VARCHAR NOT NULL,            -- JSON of the judge identity (kind, model, template, mode)
    checked_at      TIMESTAMP NOT NULL,
    usable          BOOLEAN NOT NULL,
    response_format VARCHAR,                     -- the mode that worked; NULL when none did
    calls           INTEGER NOT NULL,
    seconds         DOUBLE NOT NULL,
    scores          VARCHAR NOT NULL,            -- JSON: example -> score (NULL when invalid)
    problem         VARCHAR                      -- why the judge cannot be used; NULL when usable
);

-- The mode each run's LLM judge asked with, and how many of its calls' token counts are
-- estimates (servers that send no `usage`); NULL / 0 for judges that make no calls.
ALTER TABLE runs ADD COLUMN judge_response_format VARCHAR;
ALTER TABLE runs ADD COLUMN judge_tokens_estimated BIGINT NOT NULL DEFAULT 0;
