-- faithpipe storage, version 11: the analysis macros and views have one live definition,
-- sql/analysis.sql, which the store (re)creates when it opens a database for writing. This
-- row says which text of that file they were last made from (its SHA-256), so an open that
-- finds them current recreates nothing.
CREATE TABLE analysis_definitions (
    sha256 VARCHAR NOT NULL,
    defined_at TIMESTAMP NOT NULL
);
