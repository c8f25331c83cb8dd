-- Outputs and contexts whose case_id has no question: quarantined, so no row is lost unseen.
WITH questions AS (
    SELECT DISTINCT CAST(case_id AS VARCHAR) AS case_id
    FROM read_parquet($questions, union_by_name := true)
)
SELECT 'orphan_output' AS "check", CAST(o.case_id AS VARCHAR) AS case_id,
       'case_id' AS "column", CAST(o.case_id AS VARCHAR) AS value,
       CAST(to_json(o) AS VARCHAR) AS row_json
FROM read_parquet($outputs, union_by_name := true) AS o
WHERE NOT EXISTS (SELECT 1 FROM questions AS q WHERE q.case_id = CAST(o.case_id AS VARCHAR))
UNION ALL
SELECT 'orphan_context', CAST(c.case_id AS VARCHAR), 'case_id', CAST(c.case_id AS VARCHAR),
       CAST(to_json(c) AS VARCHAR)
FROM read_parquet($contexts, union_by_name := true) AS c
WHERE NOT EXISTS (SELECT 1 FROM questions AS q WHERE q.case_id = CAST(c.case_id AS VARCHAR));
