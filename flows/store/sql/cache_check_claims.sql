-- Each scored case's stored claims, in order, with the answer they must come from.
SELECT s.config_id, s.case_id, s.actual_output, list(c.claim ORDER BY c.claim_index) AS claims
FROM case_scores AS s
JOIN claim_verdicts AS c ON c.config_id = s.config_id AND c.case_id = s.case_id
WHERE s.actual_output IS NOT NULL
GROUP BY s.config_id, s.case_id, s.actual_output
ORDER BY s.config_id, s.case_id;
