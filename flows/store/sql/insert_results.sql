-- One batch's results; runs inside the batch's transaction.
INSERT INTO case_scores BY NAME
SELECT *,
       $run_id AS run_id,
       $now AS scored_at
FROM new_scores;

INSERT INTO claim_verdicts BY NAME
SELECT * FROM new_verdicts;

INSERT INTO truths BY NAME
SELECT n.* FROM new_truths AS n
WHERE NOT EXISTS (
    SELECT 1 FROM truths AS t WHERE t.config_id = n.config_id AND t.passage_id = n.passage_id
);

INSERT INTO quarantine BY NAME
SELECT *, $run_id AS run_id, $now AS quarantined_at FROM new_quarantine
ON CONFLICT DO NOTHING;
