-- Rows a run quarantined for the first time: `quarantine` keeps the first run that
-- quarantined a row (its key is the row as read), so a row read again adds nothing. Beside
-- them, how many of those were re-delivered: exact copies of rows read beside them ($copies:
-- the checks of re-delivered rows), or a row quarantined again as it was read before, in
-- another file (an overlapping export holding yesterday's broken rows again: its key is new,
-- as its file is, yet it is no new row; counted, a steady 7% of broken rows was 13% of the
-- night's new rows, and exit 11 every night from the second). Neither is drift.
WITH mine AS (
    SELECT row_key, any_value(row_json) AS row_json,
           bool_or(list_contains(CAST($copies AS VARCHAR[]), "check")) AS copy
    FROM quarantine WHERE run_id = $run_id
    GROUP BY row_key
),
-- the rows as read that an earlier run quarantined too (the join is built on the run's own)
before AS (
    SELECT DISTINCT m.row_json FROM mine AS m
    JOIN quarantine AS q ON q.row_json = m.row_json AND q.run_id <> $run_id
    WHERE NOT m.copy
),
ranked AS (
    SELECT copy,
           row_number() OVER (PARTITION BY row_json ORDER BY row_key) > 1
               OR row_json IN (SELECT row_json FROM before) AS again
    FROM mine
)
SELECT count(*), count(*) FILTER (WHERE copy OR again) FROM ranked;
