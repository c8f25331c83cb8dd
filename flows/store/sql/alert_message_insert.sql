-- A night's webhook message, not delivered yet (alert_messages.py).
INSERT INTO alert_messages (run_id, position, kind, message, raised_at)
VALUES ($run_id, $position, $kind, $message, $raised_at);
