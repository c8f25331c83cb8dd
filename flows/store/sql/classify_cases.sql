-- Each incoming case with its content hash and what is already stored for it under this config.
SELECT i.case_id,
       md5(to_json({'input': i.input, 'actual_output': i.actual_output,
                    'retrieval_context': i.retrieval_context})) AS content_hash,
       s.content_hash AS stored_hash,
       s.status AS stored_status
FROM incoming AS i
LEFT JOIN case_scores AS s ON s.config_id = $config_id AND s.case_id = i.case_id;
