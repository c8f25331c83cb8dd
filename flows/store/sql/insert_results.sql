-- One batch's results; runs inside the batch's transaction.
INSERT INTO case_scores BY NAME
SELECT *,
       $run_id AS run_id,
       $now AS scored_at
FROM new_scores;

INSERT INTO claim_verdicts BY NAME
SELECT * FROM new_verdicts;

-- A passage's truths are stored once per config. Only the batch's passages are looked up, by
-- their first truth (numbered from 0 without gaps, metric._truth_frame): hashing every stored
-- truth instead cost each batch more than the one before, 7.0 CPU-s against 2.35 for the
-- seventh batch of 750,000 RAG passages (bench/truths_insert.py).
INSERT INTO truths BY NAME
SELECT n.* FROM new_truths AS n
WHERE NOT EXISTS (
    SELECT 1
    FROM (
        SELECT t.config_id, t.passage_id FROM truths AS t
        WHERE t.truth_index = 0 AND t.passage_id IN (SELECT passage_id FROM new_truths)
    ) AS s
    WHERE s.config_id = n.config_id AND s.passage_id = n.passage_id
);

INSERT INTO quarantine BY NAME
SELECT *, $run_id AS run_id, $now AS quarantined_at FROM new_quarantine
ON CONFLICT DO NOTHING;
