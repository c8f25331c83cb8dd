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
           -- function's result, before tool calls), support platforms' `bot` and Gemini's
           -- `model` (the answer's author); any other role is quarantined (`agent`: a human
           -- support agent's turn is no answer of the bot's)
           CASE lower(trim(CAST(role AS VARCHAR)))
               WHEN 'human' THEN 'user'
               WHEN 'ai' THEN 'assistant'
               WHEN 'bot' THEN 'assistant'
               WHEN 'model' THEN 'assistant'
               WHEN 'developer' THEN 'system'
               WHEN 'function' THEN 'tool'
               ELSE lower(trim(CAST(role AS VARCHAR)))
           END AS __role
    FROM turns
),
-- the first check a turn fails but turn_repeated: a copy that breaks the contract is
-- quarantined for that and does not count as a copy, as in a cases table (a broken copy
-- read first, then a corrected one, was quarantined twice: the turn was never scored)
broken AS (
    SELECT *,
           CASE
               -- its text past the size limits, cut before it was read (turn_sizes.py)
               WHEN __too_large IS NOT NULL THEN __too_large
               WHEN __messages_bad THEN 'messages_not_a_list'
               WHEN __cid IS NULL OR __cid = '' THEN 'conversation_id_is_null'
               WHEN __turn IS NULL THEN 'turn_not_an_integer'
               WHEN __role IS NULL OR __role NOT IN ('user', 'assistant', 'tool', 'system')
                   THEN 'role_not_in_vocabulary'
               -- a list that is no content parts ([1, 2]): not judged as its JSON text
               WHEN __content_bad THEN 'content_wrong_type'
               -- any turn's own passages are read (a user turn's are the next answer's); a
               -- chat log's conversation passages are its assistant messages' alone
               WHEN (__role = 'assistant' OR __own_passages) AND __rc_bad
                   THEN 'retrieval_context_not_a_list_of_strings'
           END AS __broken
    FROM typed
),
-- the same conversation and turn twice: the first sound copy read is kept; a copy that says
-- what it says (its role, content and passages, as a case's content hash covers its texts
-- alone) is told apart from one that says something else, as a cases table tells exact
-- copies from conflicts: a night's export holding yesterday's turns again, its time an
-- "updated at" of the conversation's, is no drift, and the quarantine share leaves it out
-- (flows/run/alarms.py)
checked AS (
    SELECT * EXCLUDE (__broken, __said),
           CASE
               WHEN __broken IS NOT NULL THEN __broken
               WHEN row_number() OVER copies > 1
                   THEN CASE WHEN __said IS NOT DISTINCT FROM first_value(__said) OVER copies
                             THEN 'turn_repeated_exact_copy' ELSE 'turn_repeated' END
           END AS __check
    FROM (SELECT *, {'role': __role, 'content': content, 'passages': retrieval_context} AS __said
          FROM broken)
    WINDOW copies AS (PARTITION BY __cid, __turn, __broken IS NULL ORDER BY __row)
)
SELECT *,
       CASE WHEN __check = __too_large THEN __too_large_column ELSE CASE __check
           WHEN 'messages_not_a_list' THEN 'messages'
           WHEN 'conversation_id_is_null' THEN 'conversation_id'
           WHEN 'turn_not_an_integer' THEN 'turn'
           WHEN 'turn_repeated' THEN 'turn'
           WHEN 'turn_repeated_exact_copy' THEN 'turn'
           WHEN 'role_not_in_vocabulary' THEN 'role'
           WHEN 'content_wrong_type' THEN 'content'
           ELSE 'retrieval_context'
       END END AS __column,
       CASE WHEN __check = __too_large THEN __too_large_value ELSE CASE __check
           WHEN 'messages_not_a_list' THEN __messages_text
           WHEN 'conversation_id_is_null' THEN __cid_text
           WHEN 'turn_not_an_integer' THEN CAST(turn AS VARCHAR)
           WHEN 'turn_repeated' THEN CAST(turn AS VARCHAR)
           WHEN 'turn_repeated_exact_copy' THEN CAST(turn AS VARCHAR)
           WHEN 'role_not_in_vocabulary' THEN CAST(role AS VARCHAR)
           WHEN 'content_wrong_type' THEN __content_text
           ELSE __rc_text
       END END AS __value
FROM checked
