-- The checks of the rows a run quarantined for the first time, most frequent first:
-- `quarantine.run_id` is the first run that quarantined a row; the checks in $excluding are
-- left out, and so are the rows quarantined again as read before, in another file (a
-- re-delivered broken row: run_new_quarantine.sql).
WITH mine AS (
    SELECT row_key, any_value(row_json) AS row_json FROM quarantine
    WHERE run_id = $run_id
    GROUP BY row_key
),
before AS (
    SELECT DISTINCT m.row_json FROM mine AS m
    JOIN quarantine AS q ON q.row_json = m.row_json AND q.run_id <> $run_id
),
new_rows AS (
    SELECT row_key FROM mine
    WHERE row_json NOT IN (SELECT row_json FROM before)
    QUALIFY row_number() OVER (PARTITION BY row_json ORDER BY row_key) = 1
)
SELECT "check", count(DISTINCT row_key) AS "rows" FROM quarantine
WHERE run_id = $run_id AND NOT list_contains(CAST($excluding AS VARCHAR[]), "check")
  AND row_key IN (SELECT row_key FROM new_rows)
GROUP BY "check"
ORDER BY "rows" DESC, "check"
LIMIT $limit;
