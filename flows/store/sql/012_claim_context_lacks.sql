-- faithpipe storage, version 12: what the context lacks for each `no` and `idk` claim (the
-- claim's words, figures and names found nowhere in the context), so a person can read why a
-- claim failed. The grounded judge fills it; other judges leave it NULL.
-- Plain ADD COLUMN of a core type: DuckDB replays it from the WAL with no extension.
ALTER TABLE claim_verdicts ADD COLUMN context_lacks VARCHAR[];
