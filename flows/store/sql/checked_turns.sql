-- Every turn read, with the first contract check it fails (NULL: none).
WITH typed AS (
    SELECT *,
           trim(__cid_text) AS __cid,  -- a whole float id 7.0 is 7 (turns.py: _id_text)
           -- 2.4 is no turn (a cast to BIGINT would round it to 2); 2.0 is turn 2; text is
           -- read as written, digits only: '1e1' and '0x1A' are no turns (DOUBLE reads 10, 26)
           CASE WHEN regexp_full_match(trim(CAST(turn AS VARCHAR)), '[+-]?[0-9]+(\.0*)?')
               THEN TRY_CAST(TRY_CAST(trim(CAST(turn AS VARCHAR)) AS DECIMAL(38, 1)) AS BIGINT)
           END AS __turn,
           -- the common other spellings of the four roles: LangChain's `human` and `ai`,
           -- OpenAI's `developer` (o1 and later: the system prompt) and `function` (a
           -- function's result, before tool calls); any other role is quarantined
           CASE lower(trim(CAST(role AS VARCHAR)))
               WHEN 'human' THEN 'user'
               WHEN 'ai' THEN 'assistant'
               WHEN 'developer' THEN 'system'
               WHEN 'function' THEN 'tool'
               ELSE lower(trim(CAST(role AS VARCHAR)))
           END AS __role
    FROM turns
)
SELECT *,
       CASE
           WHEN __messages_bad THEN 'messages_not_a_list'
           WHEN __cid IS NULL OR __cid = '' THEN 'conversation_id_is_null'
           WHEN __turn IS NULL THEN 'turn_not_an_integer'
           WHEN __role IS NULL OR __role NOT IN ('user', 'assistant', 'tool', 'system')
               THEN 'role_not_in_vocabulary'
           WHEN row_number() OVER (PARTITION BY __cid, __turn ORDER BY __row) > 1
               THEN 'turn_repeated'
           -- a list that is no content parts ([1, 2]): not judged as its JSON text
           WHEN __content_bad THEN 'content_wrong_type'
           -- any turn's own passages are read (a user turn's are the next answer's); a chat
           -- log's conversation passages are its assistant messages' alone
           WHEN (__role = 'assistant' OR __own_passages) AND __rc_bad
               THEN 'retrieval_context_not_a_list_of_strings'
       END AS __check,
       CASE
           WHEN __messages_bad THEN 'messages'
           WHEN __cid IS NULL OR __cid = '' THEN 'conversation_id'
           WHEN __turn IS NULL OR row_number() OVER (PARTITION BY __cid, __turn ORDER BY __row) > 1
               THEN 'turn'
           WHEN __role IS NULL OR __role NOT IN ('user', 'assistant', 'tool', 'system') THEN 'role'
           WHEN __content_bad THEN 'content'
           ELSE 'retrieval_context'
       END AS __column,
       CASE
           WHEN __messages_bad THEN __messages_text
           WHEN __cid IS NULL OR __cid = '' THEN __cid_text
           WHEN __turn IS NULL OR row_number() OVER (PARTITION BY __cid, __turn ORDER BY __row) > 1
               THEN CAST(turn AS VARCHAR)
           WHEN __role IS NULL OR __role NOT IN ('user', 'assistant', 'tool', 'system')
               THEN CAST(role AS VARCHAR)
           WHEN __content_bad THEN __content_text
           ELSE __rc_text
       END AS __value
FROM typed
