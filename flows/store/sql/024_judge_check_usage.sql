-- faithpipe storage, version 24: what each nightly judge check asked an LLM judge. The check
-- asks the golden set afresh every night (never from judge_cache, which would hide a model
-- changed behind its name), so it is a recurring cost; 0 for the offline judges and for the
-- checks stored before.
ALTER TABLE judge_checks ADD COLUMN judge_calls BIGINT NOT NULL DEFAULT 0;
ALTER TABLE judge_checks ADD COLUMN prompt_tokens BIGINT NOT NULL DEFAULT 0;
ALTER TABLE judge_checks ADD COLUMN completion_tokens BIGINT NOT NULL DEFAULT 0;
