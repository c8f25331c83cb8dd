-- Every cached answer faithpipe's checks can read (table judge_cache, item since 018).
SELECT cache_key, schema_name, reply, item
FROM judge_cache
ORDER BY cache_key;
