-- A chat log (one conversation a row, OpenAI `messages`) as a table of turns: one row a
-- message, numbered from 1 in the order logged. Content given as parts keeps their text; a
-- message's own logged_at wins over the conversation's.
WITH chats_listed AS (
    SELECT *, from_json(to_json(messages), '["JSON"]') AS __messages FROM chats
),
messages AS (
    SELECT * EXCLUDE (messages, __messages),
           generate_subscripts(__messages, 1) AS turn,
           unnest(__messages) AS __m
    FROM chats_listed
)
SELECT * EXCLUDE (__m, logged_at),
       coalesce(__m ->> 'logged_at', CAST(logged_at AS VARCHAR)) AS logged_at,
       __m ->> 'role' AS role,
       CASE json_type(__m -> 'content')
           WHEN 'VARCHAR' THEN __m ->> 'content'
           WHEN 'ARRAY' THEN array_to_string(
               list_transform(from_json(__m -> 'content', '["JSON"]'), lambda part: part ->> 'text'),
               chr(10))
       END AS content,
       CASE WHEN json_type(__m -> 'retrieval_context') <> 'NULL'
           THEN __m -> 'retrieval_context' END AS retrieval_context,
       coalesce(json_array_length(__m -> 'tool_calls'), 0) > 0 AS __tool_calls
FROM messages
