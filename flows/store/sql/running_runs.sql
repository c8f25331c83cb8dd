-- Runs still marked running, with what tells whether their process is alive.
SELECT run_id, pid, host, started_at, coalesce(heartbeat_at, started_at) AS heartbeat_at
FROM runs
WHERE status = 'running'
ORDER BY started_at;
