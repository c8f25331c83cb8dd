-- A chat log (one conversation a row, OpenAI `messages`) as a table of turns: one row a
-- message, numbered from 1 in the order logged. Content given as parts keeps their text; a
-- message's own logged_at wins over the conversation's.
-- `messages` given as JSON text (a CSV cell, a Parquet string) is read as the list it holds; a
-- conversation whose `messages` is null or no list of objects is one row of its own, which
-- checked_turns.sql quarantines as messages_not_a_list (unnest would drop it without a word).
WITH chats_json AS (
    SELECT *,
           CASE WHEN json_type(to_json(messages)) = 'VARCHAR'
               THEN TRY_CAST(to_json(messages) ->> '$' AS JSON)
               ELSE to_json(messages)
           END AS __given
    FROM chats
),
chats_listed AS (
    SELECT * EXCLUDE (__given),
           -- a null message is no object (json_type gives NULL); an empty list has no messages
           CASE WHEN json_type(__given) = 'ARRAY'
                AND coalesce(list_bool_and(list_transform(
                        from_json(__given, '["JSON"]'),
                        lambda m: coalesce(json_type(m) = 'OBJECT', false))), true)
               THEN from_json(__given, '["JSON"]')
           END AS __messages
    FROM chats_json
),
messages AS (
    SELECT * EXCLUDE (messages, __messages),
           generate_subscripts(__messages, 1) AS turn,
           unnest(__messages) AS __m,
           false AS __messages_bad,
           CAST(NULL AS VARCHAR) AS __messages_text
    FROM chats_listed
    WHERE __messages IS NOT NULL
    UNION ALL BY NAME
    SELECT * EXCLUDE (messages, __messages),
           CAST(NULL AS BIGINT) AS turn,
           CAST(NULL AS JSON) AS __m,
           true AS __messages_bad,
           coalesce(to_json(messages) ->> '$', CAST(to_json(messages) AS VARCHAR))
               AS __messages_text
    FROM chats_listed
    WHERE __messages IS NULL
),
-- LangChain's own message dicts: `type` (`human`, `ai`, `system`, `tool`) where OpenAI has
-- `role` (a message's model_dump()), and messages_to_dict()'s `{type, data: {content, ...}}`
-- (what its chat histories store) with the message's fields under `data`; the role's other
-- spellings are read by checked_turns.sql
langchain AS (
    SELECT * REPLACE (
               -- ->> : a JSON log's messages arrive with every key any of them has, null
               CASE WHEN (__m ->> 'role') IS NULL AND (__m ->> 'content') IS NULL
                         AND json_type(__m -> 'data') = 'OBJECT'
                   THEN json_merge_patch(json_object('type', __m -> 'type'), __m -> 'data')
                   ELSE __m
               END AS __m)
    FROM messages
),
-- the log's `retrieval_context` column (the conversation's passages) as JSON, as a message's
-- are: a list as its JSON; text (a CSV cell) as the JSON it holds, else as DuckDB's own list
-- syntax (`[a, 'b, c']`), else as a JSON string (one string is no list: quarantined)
conversation AS (
    SELECT * EXCLUDE (retrieval_context),
           CASE json_type(to_json(retrieval_context))
               WHEN 'NULL' THEN NULL
               WHEN 'VARCHAR' THEN coalesce(
                   TRY_CAST(to_json(retrieval_context) ->> '$' AS JSON),
                   to_json(TRY_CAST(to_json(retrieval_context) ->> '$' AS VARCHAR[])),
                   to_json(retrieval_context))
               ELSE to_json(retrieval_context)
           END AS __given_passages
    FROM langchain
),
-- Anthropic's Messages API: a tool's results arrive as `tool_result` parts of a user message
-- (read as a tool message of their texts: a result's content is text or text parts) and an
-- assistant's call as a `tool_use` part (read as tool_calls are); without this the results
-- added no text, and the answer after them was judged without them
-- Gemini's (Vertex AI's) likewise: a `functionResponse` part (`function_response` as its
-- Python SDK dumps it) is a tool's result, read as its `response`'s JSON text, and a
-- `functionCall` part a tool call; their parts are a message's `parts` where it has no content
anthropic AS (
    SELECT *,
           CASE WHEN json_type(__m -> 'content') = 'ARRAY'
               THEN from_json(__m -> 'content', '["JSON"]')
               WHEN coalesce(json_type(__m -> 'content'), 'NULL') = 'NULL'
                    AND json_type(__m -> 'parts') = 'ARRAY'
               THEN from_json(__m -> 'parts', '["JSON"]') END AS __parts
    FROM conversation
),
anthropic_parts AS (
    SELECT *,
           (lower(trim(coalesce(__m ->> 'role', __m ->> 'type'))) = 'user'
               AND coalesce(list_bool_or(list_transform(__parts,
                   lambda p: coalesce(p ->> 'type' = 'tool_result', false))), false))
           OR coalesce(list_bool_or(list_transform(__parts, lambda p: coalesce(json_type(
                   coalesce(p -> 'functionResponse', p -> 'function_response')) = 'OBJECT',
                   false))), false)
               AS __tool_results,
           coalesce(list_bool_or(list_transform(__parts,
               lambda p: coalesce(p ->> 'type' = 'tool_use', false)
                   OR coalesce(json_type(coalesce(p -> 'functionCall', p -> 'function_call'))
                               = 'OBJECT', false))), false) AS __tool_uses
    FROM anthropic
)
SELECT * EXCLUDE (__m, logged_at, __given_passages, __parts, __tool_results, __tool_uses,
                  __conversation_too_large, __conversation_answer),
       coalesce(__m ->> 'logged_at', CAST(logged_at AS VARCHAR)) AS logged_at,
       -- developer and function as system and tool here too (checked_turns.sql reads every
       -- spelling): a quarantined message's row, its quarantine key, is as it was before
       CASE WHEN __tool_results THEN 'tool' ELSE
       CASE lower(trim(coalesce(__m ->> 'role', __m ->> 'type')))
           WHEN 'developer' THEN 'system'
           WHEN 'function' THEN 'tool'
           ELSE coalesce(__m ->> 'role', __m ->> 'type')
       END END AS role,
       -- content as given (JSON), read as text by turns.py (json_values.content_as_text): parts
       -- their text, another value its JSON text, as a cases table reads an answer 42 as "42"
       -- (a tool result logged as the object it returned was dropped without a word).
       -- An OpenAI refusal is `content: null` beside `refusal`: what the bot said, its answer
       -- (quarantined as a blank one, actual_output_is_null, before)
       CASE WHEN __tool_results
           THEN to_json(list_filter(list_transform(__parts, lambda p:
               CASE WHEN json_type(p) = 'VARCHAR' THEN p ->> '$'
                    WHEN json_type(coalesce(p -> 'functionResponse', p -> 'function_response'))
                         = 'OBJECT'
                    THEN CAST(coalesce(p -> 'functionResponse', p -> 'function_response')
                              -> 'response' AS VARCHAR)
                    WHEN coalesce(p ->> 'type', '') <> 'tool_result' THEN p ->> 'text'
                    WHEN json_type(p -> 'content') = 'ARRAY'
                    THEN array_to_string(list_transform(from_json(p -> 'content', '["JSON"]'),
                                                        lambda q: q ->> 'text'), chr(10))
                    ELSE p ->> 'content' END), lambda t: t IS NOT NULL))
           WHEN coalesce(json_type(__m -> 'content'), 'NULL') = 'NULL'
                 AND json_type(__m -> 'refusal') = 'VARCHAR'
           THEN __m -> 'refusal'
           -- Gemini's (and Vertex AI's) messages hold their text in `parts` ([{text}]), no
           -- content: read as content parts are (every answer was a blank one before); parts
           -- cut to their size limit (message_text_sizes.py) are the text of their start
           WHEN coalesce(json_type(__m -> 'content'), 'NULL') = 'NULL'
                 AND coalesce(json_type(__m -> 'parts'), 'NULL') <> 'NULL'
           THEN __m -> 'parts'
           ELSE __m -> 'content'
       END AS content,
       -- a message's own passages, else the conversation's (every assistant message's that
       -- has none); the message's were a segment `retrieval_context_1` beside the column, and
       -- its turn judged without them
       (SELECT CASE WHEN json_type(p) <> 'NULL' THEN p END
        FROM (SELECT coalesce(CASE WHEN json_type(__m -> 'retrieval_context') <> 'NULL'
                                  THEN __m -> 'retrieval_context' END,
                              __given_passages) AS p)) AS retrieval_context,
       -- whether they are the message's own: a user, system or tool message's own passages
       -- are the next answer's (read_turns.sql), the conversation's are not theirs
       coalesce(json_type(__m -> 'retrieval_context') <> 'NULL', false) AS __own_passages,
       -- a call: `tool_calls`, or a `function_call` as before tool calls (the `function`
       -- result read as a tool's); a blank one ending the log was quarantined as a blank answer
       coalesce(json_array_length(__m -> 'tool_calls'), 0) > 0
           OR coalesce(json_type(__m -> 'function_call') = 'OBJECT', false)
           OR __tool_uses AS __tool_calls,
       -- a message cut to the size limits before it was read (turn_sizes.py): quarantined;
       -- so is an answer read with the conversation's passages, when they were cut
       coalesce(__m ->> '__too_large', CASE WHEN __conversation_answer
           THEN 'retrieval_context_too_large' END) AS __too_large,
       coalesce(__m ->> '__too_large_column', CASE WHEN __conversation_answer
           THEN 'retrieval_context' END) AS __too_large_column,
       coalesce(__m ->> '__too_large_value', CASE WHEN __conversation_answer
           THEN __conversation_too_large END) AS __too_large_value
FROM (SELECT *,
             __conversation_too_large IS NOT NULL
                 AND coalesce(json_type(__m -> 'retrieval_context'), 'NULL') = 'NULL'
                 AND lower(trim(coalesce(__m ->> 'role', __m ->> 'type'))) IN ('assistant', 'ai', 'bot', 'model')
                 AS __conversation_answer
      FROM anthropic_parts)
