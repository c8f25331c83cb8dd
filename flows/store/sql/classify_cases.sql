-- Each incoming case (`case_id`, `content_hash`: flows/store/content_hash.py) with what is
-- already stored for it under this config.
SELECT i.case_id,
       i.content_hash,
       s.content_hash AS stored_hash,
       s.status AS stored_status
FROM incoming AS i
LEFT JOIN case_scores AS s ON s.config_id = $config_id AND s.case_id = i.case_id;
