-- `faith report`: input rows quarantined in the window (each once, whatever it failed), and
-- the (day, check) pairs the by-day table would list.
SELECT
    count(DISTINCT row_key) AS "rows",
    count(DISTINCT (CAST(quarantined_at AS DATE), "check")) AS pairs
FROM quarantine
WHERE ($since IS NULL OR CAST(quarantined_at AS DATE) >= $since)
  AND ($until IS NULL OR CAST(quarantined_at AS DATE) <= $until);
