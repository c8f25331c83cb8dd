-- What an answer cached before migration 018 may have been asked for: the models, templates
-- and claims schemas of rows without an item (all rows of a database not upgraded past 018,
-- whose judge_cache has no item column), and every stored case's answer.
SELECT DISTINCT c.model, c.prompt_version, c.schema_name, s.actual_output
FROM (SELECT * FROM judge_cache UNION ALL BY NAME SELECT NULL::VARCHAR AS item WHERE false) AS c,
     case_scores AS s
WHERE c.item IS NULL AND c.schema_name LIKE '%Claims' AND s.actual_output IS NOT NULL;
