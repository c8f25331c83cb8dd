-- faithpipe storage, version 25: how many of a run's invalid cases were invalid before with
-- the same content (tried again, as every invalid case is). --max-invalid-share leaves them
-- out, unless the run judged nothing else: a day the retriever was down (its cases invalid
-- for good) made every later night exit 8; 0 for the runs stored before.
ALTER TABLE runs ADD COLUMN rows_invalid_again BIGINT NOT NULL DEFAULT 0;
