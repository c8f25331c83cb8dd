-- What an answer cached before migration 018 may have been asked for: the models, templates
-- and claims schemas of rows without an item, and every stored case's answer.
SELECT DISTINCT c.model, c.prompt_version, c.schema_name, s.actual_output
FROM judge_cache AS c, case_scores AS s
WHERE c.item IS NULL AND c.schema_name LIKE '%Claims' AND s.actual_output IS NOT NULL;
