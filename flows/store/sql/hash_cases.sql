-- Each incoming case with its content hash: the MD5 of its content's JSON. Stored in
-- case_scores.content_hash, so it must never change (README › Stable keys).
SELECT i.case_id,
       md5(to_json({'input': i.input, 'actual_output': i.actual_output,
                    'retrieval_context': i.retrieval_context})) AS content_hash
FROM incoming AS i;
