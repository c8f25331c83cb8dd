-- Each incoming case with its content hash, for a config with nothing stored before this run:
-- no stored row to compare with, so no scan of case_scores (see classify_cases.sql).
SELECT i.case_id,
       md5(to_json({'input': i.input, 'actual_output': i.actual_output,
                    'retrieval_context': i.retrieval_context})) AS content_hash,
       NULL::VARCHAR AS stored_hash,
       NULL::VARCHAR AS stored_status
FROM incoming AS i;
