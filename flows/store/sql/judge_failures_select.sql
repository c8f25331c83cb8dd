-- Which of these judge items failed in an earlier run (table judge_failures of 008).
SELECT cache_key FROM judge_failures WHERE cache_key IN (SELECT unnest($keys::VARCHAR[]));
