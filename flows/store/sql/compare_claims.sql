-- `faith compare`: claims (by text) whose failures (verdict no, idk or dropped) per 100 compared
-- cases of each side changed most; compared_a / compared_b hold each side's case ids.
WITH a AS (
    SELECT v.claim, count(*) AS judged, count(*) FILTER (WHERE v.verdict IS DISTINCT FROM 'yes') AS failed
    FROM claim_verdicts AS v SEMI JOIN compared_a AS c ON v.case_id = c.case_id
    WHERE v.config_id = $a_config
    GROUP BY v.claim
),
b AS (
    SELECT v.claim, count(*) AS judged, count(*) FILTER (WHERE v.verdict IS DISTINCT FROM 'yes') AS failed
    FROM claim_verdicts AS v SEMI JOIN compared_b AS c ON v.case_id = c.case_id
    WHERE v.config_id = $b_config
    GROUP BY v.claim
),
changes AS (
    SELECT
        coalesce(a.claim, b.claim) AS claim,
        coalesce(a.failed, 0) AS failed_a,
        coalesce(b.failed, 0) AS failed_b,
        coalesce(b.failed, 0) * 100.0 / $n_b - coalesce(a.failed, 0) * 100.0 / $n_a AS change
    FROM a FULL JOIN b ON a.claim = b.claim
)
SELECT * FROM changes
WHERE change <> 0
ORDER BY abs(change) DESC, claim
LIMIT $limit;
