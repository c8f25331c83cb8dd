-- A submitted batch and its items, in one transaction (tables of 010_judge_batches).
INSERT INTO judge_batches (
    batch_id, input_file_id, endpoint, model, config, state, requests, items, submitted_at
)
VALUES (
    $batch_id, $input_file_id, $endpoint, $model, $config, $state, $requests,
    len($cache_key::VARCHAR[]), $submitted_at
);

INSERT INTO judge_batch_items BY NAME
SELECT $batch_id AS batch_id, unnest($custom_id::VARCHAR[]) AS custom_id,
       unnest($position::INTEGER[]) AS position, unnest($stage::VARCHAR[]) AS stage,
       unnest($item::VARCHAR[]) AS item, unnest($cache_key::VARCHAR[]) AS cache_key;
