-- The joined rows past one a question: a question whose case_id has n outputs is n rows of the
-- join (their copies resolved as the rows stream by), so a run's count of rows in says so.
WITH outputs AS (
    SELECT CAST(case_id AS VARCHAR) AS case_id, count(*) AS n
    FROM read_parquet($outputs, union_by_name := true, hive_partitioning := false)
    GROUP BY ALL
    HAVING count(*) > 1
)
SELECT coalesce(sum(o.n - 1), 0)
FROM read_parquet($questions, union_by_name := true, hive_partitioning := false) AS q
JOIN outputs AS o ON CAST(q.case_id AS VARCHAR) = o.case_id
