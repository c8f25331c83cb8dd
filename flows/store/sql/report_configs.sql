-- `faith report`: each metric config, its settings and when its cases were logged.
SELECT config_id, judge, threshold, penalize_ambiguous_claims, strict_mode, cases,
       first_logged_at, last_logged_at
FROM metric_configs;
