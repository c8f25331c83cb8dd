-- The report: the latest `faith compare` result, when the table exists and has one.
SELECT * FROM comparisons ORDER BY compared_at DESC LIMIT 1;
