-- The three-table form joined to the wide form: one row a question; contexts in position order.
-- `key=value` folders are read by the wide form's rule (flows/read/three_tables.py), from each
-- row's questions and outputs file, not by DuckDB's (which reads them above the source too,
-- typed, and gives a key both tables are partitioned by twice).
-- A passage row read twice (an overlapping export holding yesterday's rows again) is one
-- passage, and passages at one position are ordered by their text: a case's content is the same
-- whatever the files and row order it is read from, so it is not scored again. A position an
-- export typed as text ("10") is ordered as its number, not as text ("10" before "2").
WITH passages AS (
    SELECT DISTINCT CAST(case_id AS VARCHAR) AS case_id, position, text
    FROM read_parquet($contexts, union_by_name := true, hive_partitioning := false)
),
contexts AS (
    SELECT case_id,
           list(
               text ORDER BY TRY_CAST(CAST(position AS VARCHAR) AS DOUBLE), position, text
           ) AS retrieval_context
    FROM passages
    GROUP BY ALL
),
outputs AS (
    SELECT * REPLACE (CAST(case_id AS VARCHAR) AS case_id)
    FROM read_parquet(
        $outputs, union_by_name := true, hive_partitioning := false,
        filename := '__faithpipe_outputs_file'
    )
),
questions AS (
    SELECT * REPLACE (CAST(case_id AS VARCHAR) AS case_id)
    FROM read_parquet(
        $questions, union_by_name := true, hive_partitioning := false,
        filename := '__faithpipe_questions_file'
    )
)
-- A question with no context rows read nothing: an empty list, judged invalid as in the wide form.
-- The list keeps the passages' type: passages that are no text (`text` typed a number) are
-- quarantined as in the wide form, not a binder error stopping the run.
SELECT q.*, o.* EXCLUDE (case_id),
       coalesce(c.retrieval_context, []) AS retrieval_context
FROM questions AS q
LEFT JOIN outputs AS o USING (case_id)
LEFT JOIN contexts AS c USING (case_id)
