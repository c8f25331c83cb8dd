-- How many batches are still waited for at each endpoint other than this one, most first
-- (`faith batches --refresh` given another endpoint's --base-url says where they are).
SELECT endpoint, count(*) AS batches
FROM judge_batches
WHERE collected_at IS NULL AND endpoint <> $endpoint
GROUP BY endpoint
ORDER BY batches DESC, endpoint;
