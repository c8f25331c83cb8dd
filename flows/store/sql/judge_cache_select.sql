-- The stored replies among a list of cache keys (table `judge_cache` of 001_tables).
SELECT cache_key, reply
FROM judge_cache
WHERE cache_key IN (SELECT unnest($keys::VARCHAR[]));
