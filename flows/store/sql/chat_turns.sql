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
)
SELECT * EXCLUDE (__m, logged_at),
       coalesce(__m ->> 'logged_at', CAST(logged_at AS VARCHAR)) AS logged_at,
       -- OpenAI's own roles for a system message and a tool result, beside `system` and `tool`:
       -- `developer` (o1 and later models), `function` (before tool calls)
       CASE lower(trim(__m ->> 'role'))
           WHEN 'developer' THEN 'system'
           WHEN 'function' THEN 'tool'
           ELSE __m ->> 'role'
       END AS role,
       -- content as given (JSON), read as text by turns.py (json_values.content_as_text): parts
       -- their text, another value its JSON text, as a cases table reads an answer 42 as "42"
       -- (a tool result logged as the object it returned was dropped without a word).
       __m -> 'content' AS content,
       CASE WHEN json_type(__m -> 'retrieval_context') <> 'NULL'
           THEN __m -> 'retrieval_context' END AS retrieval_context,
       coalesce(json_array_length(__m -> 'tool_calls'), 0) > 0 AS __tool_calls
FROM messages
