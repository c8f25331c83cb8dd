-- A webhook message delivered.
UPDATE alert_messages SET sent_at = $sent_at WHERE run_id = $run_id AND position = $position;
