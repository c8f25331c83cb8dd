-- The report: what names each metric config (its settings and its latest run's stored config).
SELECT config_id, threshold, penalize_ambiguous_claims, strict_mode, config
FROM metric_configs;
