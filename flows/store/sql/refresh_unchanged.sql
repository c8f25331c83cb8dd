-- Cases skipped as already scored (same content) whose log row now gives another time or other
-- segments (an export re-sent with its clock or app_version corrected): the stored row takes
-- them, so pass rates by day and segment read the log as it is now. No judge call: the
-- verdicts depend on the content alone.
UPDATE case_scores AS s
SET logged_at = u.logged_at, segments = u.segments
FROM unchanged AS u
WHERE s.config_id = $config_id
  AND s.case_id = u.case_id
  AND (s.logged_at IS DISTINCT FROM u.logged_at OR s.segments::VARCHAR IS DISTINCT FROM u.segments);
