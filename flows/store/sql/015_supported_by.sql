-- faithpipe storage, version 15: which kind of context supported each supported claim, so a
-- conversation's turn that repeats what was said earlier reads as such (docs/conversations.md).
-- 'passage': the case's own passages or tool results; 'conversation': only earlier turns of
-- the conversation; NULL: not a yes, or not known (a judge that names no evidence).
-- Plain ADD COLUMN of a core type: DuckDB replays it from the WAL with no extension.
ALTER TABLE claim_verdicts ADD COLUMN supported_by VARCHAR;
