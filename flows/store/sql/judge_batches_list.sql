-- `faith batches`: the newest submitted batches, their state and what collecting them brought
-- (`tokens`: prompt + completion tokens of its answers; the split, for `cost_usd`, is dropped
-- from the listing by `faith batches`).
SELECT batch_id, state, collected_at IS NULL AS waiting, model, requests, items,
       items_answered AS answered, items_failed AS failed,
       strftime(submitted_at, '%Y-%m-%d %H:%M') AS submitted,
       CASE
           WHEN date_diff('minute', submitted_at, $now) >= 1440
               THEN printf('%dd %02dh', date_diff('minute', submitted_at, $now) // 1440,
                           date_diff('minute', submitted_at, $now) % 1440 // 60)
           ELSE printf('%dh %02dm', date_diff('minute', submitted_at, $now) // 60,
                       date_diff('minute', submitted_at, $now) % 60)
       END AS age,
       strftime(collected_at, '%Y-%m-%d %H:%M') AS collected,
       prompt_tokens + completion_tokens AS tokens, prompt_tokens, completion_tokens, error
FROM judge_batches
ORDER BY submitted_at DESC, batch_id DESC
LIMIT $limit;
