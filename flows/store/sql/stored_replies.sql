-- The judge replies stored for one model: the snapshot the Dask engine's workers ask first.
SELECT cache_key, reply
FROM judge_cache
WHERE model = $model;
