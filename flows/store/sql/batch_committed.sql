-- Whether batch $batch_no of the run is committed already (batches commit in order, and each
-- adds one to `runs.batches` in its own transaction): a retried write then writes nothing.
SELECT count(*) AS committed FROM runs WHERE run_id = $run_id AND batches >= $batch_no;
