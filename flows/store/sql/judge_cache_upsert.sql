-- Write a buffer of replies, one list per column; a key stored before is replaced.
INSERT OR REPLACE INTO judge_cache BY NAME
SELECT unnest($cache_key::VARCHAR[]) AS cache_key, unnest($kind::VARCHAR[]) AS kind,
       unnest($model::VARCHAR[]) AS model, unnest($prompt_version::VARCHAR[]) AS prompt_version,
       unnest($schema_name::VARCHAR[]) AS schema_name, unnest($reply::VARCHAR[]) AS reply,
       unnest($prompt_tokens::INTEGER[]) AS prompt_tokens,
       unnest($completion_tokens::INTEGER[]) AS completion_tokens,
       unnest($created_at::TIMESTAMP[]) AS created_at, unnest($item::VARCHAR[]) AS item;
