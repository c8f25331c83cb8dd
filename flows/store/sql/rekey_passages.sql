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

UPDATE case_scores SET passage_ids = list_transform(case_scores.passage_ids, lambda x: coalesce(k.ids[x], x))
FROM (SELECT map(list(old_id), list(new_id)) AS ids, list(old_id) AS olds FROM key_map) AS k
WHERE list_has_any(case_scores.passage_ids, k.olds);

DELETE FROM legacy_passage_keys
WHERE passage_id IN (SELECT old_id FROM key_map);
