-- Count one more failure for each item; a list per column.
INSERT INTO judge_failures BY NAME
SELECT unnest($keys::VARCHAR[]) AS cache_key, 1 AS failures,
       unnest($errors::VARCHAR[]) AS last_error, $now::TIMESTAMP AS failed_at
ON CONFLICT (cache_key) DO UPDATE SET
    failures = judge_failures.failures + 1,
    last_error = excluded.last_error,
    failed_at = excluded.failed_at;
