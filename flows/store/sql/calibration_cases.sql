-- The content of labelled cases for `faith calibrate`: each case's answer and, as its context,
-- the truths stored with its passages under the config that last scored it (an offline
-- judge's config first: its truths are its passages' sentences, what the offline judges read;
-- and one without a truths limit first: a limited config stored only its passages' first
-- sentences, and cut-offs fitted on those would be applied to whole passages).
-- `whole_passages`: whether the picked config's truths are the whole passages (false: only an
-- LLM judge or a truths limit scored the case, and `faith calibrate` says so). `fold_group`:
-- what keeps cases in one cross-validation fold, the case's conversation (its segment
-- `conversation_id`), else its content (copies of one answer to one question under two ids).
WITH labelled AS (
    SELECT DISTINCT unnest($case_ids::VARCHAR[]) AS case_id
),
ranked AS (
    SELECT
        c.case_id,
        c.config_id,
        c.input,
        c.actual_output,
        c.passage_ids,
        coalesce(
            'conversation ' || (c.segments ->> 'conversation_id'), 'content ' || c.content_hash
        ) AS fold_group,
        coalesce(json_extract_string(r.config, '$.judge.kind') IN ('grounded', 'lexical'), false)
            AND coalesce(json_extract(r.config, '$.truths_extraction_limit') = 'null'::JSON, true)
            AS whole_passages,
        row_number() OVER (
            PARTITION BY c.case_id
            ORDER BY
                coalesce(json_extract_string(r.config, '$.judge.kind') IN ('grounded', 'lexical'), false) DESC,
                coalesce(json_extract(r.config, '$.truths_extraction_limit') = 'null'::JSON, true) DESC,
                c.scored_at DESC,
                c.config_id
        ) AS pick
    FROM case_scores AS c
    JOIN labelled USING (case_id)
    LEFT JOIN runs AS r USING (run_id)
    WHERE c.status = 'scored'
),
picked AS (
    SELECT * EXCLUDE (pick) FROM ranked WHERE pick = 1
),
passages AS (
    SELECT
        case_id,
        config_id,
        unnest(passage_ids) AS passage_id,
        generate_subscripts(passage_ids, 1) AS position
    FROM picked
)
SELECT
    p.case_id,
    p.input,
    p.actual_output,
    coalesce(
        list(t.truth ORDER BY s.position, t.truth_index) FILTER (WHERE t.truth IS NOT NULL),
        []::VARCHAR[]
    ) AS retrieval_context,
    p.whole_passages,
    p.fold_group
FROM picked AS p
LEFT JOIN passages AS s USING (case_id, config_id)
LEFT JOIN truths AS t ON t.config_id = s.config_id AND t.passage_id = s.passage_id
GROUP BY p.case_id, p.input, p.actual_output, p.whole_passages, p.fold_group
ORDER BY p.case_id;
