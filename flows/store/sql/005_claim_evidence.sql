-- faithpipe storage, version 5: each claim's evidence, so a failed case can be read in SQL
-- without re-running the judge. Judges that give none (lexical, prompt, LLM) leave them NULL.
-- Plain ADD COLUMN of core types: DuckDB replays it from the WAL with no extension.
ALTER TABLE claim_verdicts ADD COLUMN support DOUBLE;   -- share of the claim the context covers, 0-1
ALTER TABLE claim_verdicts ADD COLUMN evidence VARCHAR; -- the context sentence that supports or contradicts it
