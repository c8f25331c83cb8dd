-- A batch already recorded with this input file: under the placeholder a new upload of it
-- would be recorded under, or made from a file of that id at the same endpoint. A server
-- that gives one id to two uploads makes them impossible to tell apart.
SELECT batch_id
FROM judge_batches
WHERE batch_id = $placeholder OR (input_file_id = $input_file_id AND endpoint = $endpoint)
ORDER BY submitted_at
LIMIT 1;
