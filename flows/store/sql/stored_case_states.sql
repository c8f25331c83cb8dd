-- What is stored for each case under a config: the snapshot the Dask engine's workers
-- classify against (the same columns classify_cases.sql joins in).
SELECT case_id, content_hash AS stored_hash, status AS stored_status
FROM case_scores
WHERE config_id = $config_id;
