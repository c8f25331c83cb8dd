-- Whether the database holds any conversation's turn (migration 016 and a conversation_id).
SELECT EXISTS (SELECT 1 FROM duckdb_views() WHERE view_name = 'conversation_scores')
   AND EXISTS (SELECT 1 FROM case_scores
               WHERE json_extract_string(segments, '$.conversation_id') IS NOT NULL)
