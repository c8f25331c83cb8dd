-- `faith report`: rows quarantined by the day they were first quarantined and the check they
-- failed, the latest days first (issue 22: a source that drifted shows in the report).
SELECT CAST(quarantined_at AS DATE) AS day, "check", count(DISTINCT row_key) AS "rows"
FROM quarantine
WHERE ($since IS NULL OR CAST(quarantined_at AS DATE) >= $since)
  AND ($until IS NULL OR CAST(quarantined_at AS DATE) <= $until)
GROUP BY ALL
ORDER BY day DESC, "rows" DESC, "check"
LIMIT $limit;
