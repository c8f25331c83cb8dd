-- Drop cached answers `faith cache check --drop` found not to be their item's.
DELETE FROM judge_cache WHERE cache_key IN (SELECT unnest($keys::VARCHAR[]));
