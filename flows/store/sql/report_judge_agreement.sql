-- `faith report`: each nightly judge check in the window (view from 003_nightly).
SELECT config_id, checked_at, agreement, floor, passed
FROM judge_agreement
WHERE ($since IS NULL OR day >= $since) AND ($until IS NULL OR day <= $until)
ORDER BY config_id, checked_at;
