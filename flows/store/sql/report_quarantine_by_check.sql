-- `faith report`: rows quarantined by the check they failed (a row failing two checks counts
-- under both), with the days it was seen on; the most frequent first.
SELECT
    "check",
    count(DISTINCT row_key) AS "rows",
    count(DISTINCT CAST(quarantined_at AS DATE)) AS days,
    min(CAST(quarantined_at AS DATE)) AS first_day,
    max(CAST(quarantined_at AS DATE)) AS last_day
FROM quarantine
WHERE ($since IS NULL OR CAST(quarantined_at AS DATE) >= $since)
  AND ($until IS NULL OR CAST(quarantined_at AS DATE) <= $until)
GROUP BY "check"
ORDER BY "rows" DESC, "check";
