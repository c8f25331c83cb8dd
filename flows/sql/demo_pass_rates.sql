-- Pass rate by day of one metric config: what `faith demo` prints.
SELECT CAST(date_trunc('day', logged_at) AS DATE) AS day,
       count(*) AS cases,
       count(*) FILTER (WHERE status = 'scored') AS scored,
       count(*) FILTER (WHERE status = 'invalid') AS invalid,
       count(*) FILTER (WHERE success) AS passed,
       round(count(*) FILTER (WHERE success) / nullif(count(*) FILTER (WHERE status = 'scored'), 0), 3) AS pass_rate,
       round(avg(score), 3) AS mean_score
FROM case_scores
WHERE config_id = $config_id
GROUP BY ALL
ORDER BY day;
