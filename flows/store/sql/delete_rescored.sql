-- Cases scored again (content changed, or invalid/pending before): their old rows go first.
DELETE FROM case_scores
WHERE config_id = $config_id AND case_id IN (SELECT case_id FROM rescored);
DELETE FROM claim_verdicts
WHERE config_id = $config_id AND case_id IN (SELECT case_id FROM rescored);
