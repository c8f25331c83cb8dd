INSERT INTO runs (run_id, flow, config_id, config, source, status, started_at, heartbeat_at, pid, host)
VALUES ($run_id, $flow, $config_id, $config, $source, 'running', $now, $now, $pid, $host);
