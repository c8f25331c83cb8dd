-- Map legacy passage ids to version-independent ones (`key_map`: old_id, new_id), in one
-- transaction. A legacy passage that a later run also stored under its new id keeps the
-- later copy.
DELETE FROM truths
WHERE passage_id IN (SELECT old_id FROM key_map)
  AND EXISTS (
      SELECT 1 FROM truths AS n, key_map AS m
      WHERE m.old_id = truths.passage_id AND n.passage_id = m.new_id
        AND n.config_id = truths.config_id
  );

UPDATE truths SET passage_id = m.new_id
FROM key_map AS m
WHERE truths.passage_id = m.old_id;

-- Each case's passage list with its legacy ids mapped, in order: unnested and rebuilt by a
-- join, since a per-row lookup in one large map took time that grew with ids x cases.
CREATE TEMP TABLE rekeyed_lists AS
WITH items AS (
    SELECT config_id, case_id, unnest(passage_ids) AS id,
           generate_subscripts(passage_ids, 1) AS pos
    FROM case_scores
),
touched AS (
    SELECT DISTINCT i.config_id, i.case_id
    FROM items AS i JOIN key_map AS m ON i.id = m.old_id
)
SELECT i.config_id, i.case_id, list(coalesce(m.new_id, i.id) ORDER BY i.pos) AS passage_ids
FROM items AS i
JOIN touched AS t ON t.config_id = i.config_id AND t.case_id = i.case_id
LEFT JOIN key_map AS m ON i.id = m.old_id
GROUP BY i.config_id, i.case_id;

UPDATE case_scores SET passage_ids = r.passage_ids
FROM rekeyed_lists AS r
WHERE case_scores.config_id = r.config_id AND case_scores.case_id = r.case_id;

DROP TABLE rekeyed_lists;

DELETE FROM legacy_passage_keys
WHERE passage_id IN (SELECT old_id FROM key_map);
