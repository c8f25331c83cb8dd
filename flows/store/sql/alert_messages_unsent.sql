-- The webhook messages not delivered yet, of every night, oldest first.
SELECT run_id, position, message
FROM alert_messages
WHERE sent_at IS NULL
ORDER BY raised_at, run_id, position;
