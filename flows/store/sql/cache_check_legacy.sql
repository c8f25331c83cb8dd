-- What an answer cached before migration 018 may have been asked for: the models, templates
-- and claims schemas of rows without an item (all rows of a database not upgraded past 018,
-- whose judge_cache has no item column), and every stored case's answer. Each side is made
-- distinct before they are paired: the pairing of every such row with every case grew as
-- their product (10,000 of each: 100 million rows, 3 s; a million cases, hours).
WITH kinds AS (
    SELECT DISTINCT c.model, c.prompt_version, c.schema_name
    FROM (SELECT * FROM judge_cache UNION ALL BY NAME SELECT NULL::VARCHAR AS item WHERE false) AS c
    WHERE c.item IS NULL AND c.schema_name LIKE '%Claims'
),
answers AS (
    SELECT DISTINCT s.actual_output FROM case_scores AS s WHERE s.actual_output IS NOT NULL
)
SELECT k.model, k.prompt_version, k.schema_name, a.actual_output
FROM kinds AS k, answers AS a
