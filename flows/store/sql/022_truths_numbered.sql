-- faithpipe storage, version 22: every stored passage's truths numbered from 0, so a batch finds
-- a passage stored by its truth 0 (insert_results.sql). Before, a judge's null truth was dropped
-- after numbering: a passage whose first truth was null began at 1, and would be stored again.
UPDATE truths SET truth_index = r.renumbered
FROM (
    SELECT config_id, passage_id, truth_index,
           row_number() OVER (PARTITION BY config_id, passage_id ORDER BY truth_index) - 1
               AS renumbered
    FROM truths
    WHERE (config_id, passage_id) IN (
        SELECT config_id, passage_id FROM truths GROUP BY ALL HAVING min(truth_index) > 0
    )
) AS r
WHERE truths.config_id = r.config_id AND truths.passage_id = r.passage_id
  AND truths.truth_index = r.truth_index;
