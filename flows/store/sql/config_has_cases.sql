-- Whether any case is stored under this metric config.
SELECT EXISTS (SELECT 1 FROM case_scores WHERE config_id = $config_id);
