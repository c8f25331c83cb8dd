-- Whether the cases run $run_id scored hold the segment column $segment (`faith nightly
-- --alert-segment`: a misspelt one slices nothing), the first $limit columns they do hold,
-- and how many cases the night scored.
WITH night AS (
    SELECT c.segments
    FROM case_scores AS c
    WHERE c.run_id = $run_id AND c.status = 'scored'
),
keys AS (
    SELECT DISTINCT unnest(json_keys(n.segments)) AS segment
    FROM night AS n
    WHERE n.segments IS NOT NULL
)
SELECT
    coalesce(bool_or(k.segment = CAST($segment AS VARCHAR)), false) AS found,
    coalesce(list(k.segment ORDER BY k.segment)[1:$limit], []) AS held,
    (SELECT count(*) FROM night) AS night_cases
FROM keys AS k;
