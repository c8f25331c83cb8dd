-- Each scored case's stored claims, in order, with the answer they must come from: the cases
-- of one part ($part of $parts, by a hash of their key), so that no read holds every case's
-- claims at once (a million cases took 300-800 MB of DuckDB's memory in one read).
SELECT s.config_id, s.case_id, s.actual_output, list(c.claim ORDER BY c.claim_index) AS claims
FROM case_scores AS s
JOIN claim_verdicts AS c ON c.config_id = s.config_id AND c.case_id = s.case_id
WHERE s.actual_output IS NOT NULL AND hash(s.config_id, s.case_id) % $parts = $part
GROUP BY s.config_id, s.case_id, s.actual_output
ORDER BY s.config_id, s.case_id;
