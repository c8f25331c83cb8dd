-- Pass rate by day of one metric config: what `faith demo` prints (macro from 002_analysis).
SELECT CAST(period AS DATE) AS day, cases, scored, invalid, passed,
       round(pass_rate, 3) AS pass_rate,
       round(pass_rate_low, 3) AS low, round(pass_rate_high, 3) AS high,
       round(mean_score, 3) AS mean_score
FROM pass_rates(grain := 'day')
WHERE config_id = $config_id
ORDER BY day;
