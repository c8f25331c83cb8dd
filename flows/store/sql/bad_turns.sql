-- Turns that break the turns contract, as quarantine rows: no conversation id, a turn that
-- is not an integer, a role outside user/assistant/tool/system, a turn logged twice (the
-- first copy read is kept), content that is a list but no content parts, an assistant turn
-- (or a turn with passages of its own) whose passages are not a list of strings, a
-- chat log's conversation whose messages are no list of message objects.
SELECT __check AS "check",
       -- a turn with no number (a chat log whose messages are no list) keeps its conversation;
       -- id and turn as a scored turn's case is named (7:2 for an id 7.0 and a turn 2.0 or
       -- ' 2 '), a turn that is no integer as written
       coalesce(nullif(__cid, ''), __cid_text)
           || coalesce(':' || coalesce(CAST(__turn AS VARCHAR), CAST(turn AS VARCHAR)), '')
           AS case_id,
       __column AS "column",
       __value AS value,
       __json AS row_json,
       -- the turn's own file (turns.py reads each row's file as __faithpipe_file)
       __faithpipe_file AS source_file
FROM checked_turns
WHERE __check IS NOT NULL
ORDER BY __row
