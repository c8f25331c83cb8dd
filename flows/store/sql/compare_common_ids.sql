-- `faith compare`: of two configs compared case by case that share no case of one content,
-- how many case ids both sides score all the same: cases re-delivered with another content
-- (answer, question or passages) and scored under one config only, which are no pair.
SELECT count(*) AS ids
FROM (
    SELECT DISTINCT c.case_id FROM compare_cases(
        a_config := $a_config, b_config := $a_config, segment := $segment, a := $a, b := $b,
        since := $since, until := $until, a_since := $a_since, a_until := $a_until,
        b_since := $b_since, b_until := $b_until
    ) AS c WHERE c.a_success IS NOT NULL
) AS x
JOIN (
    SELECT DISTINCT c.case_id FROM compare_cases(
        a_config := $b_config, b_config := $b_config, segment := $segment, a := $a, b := $b,
        since := $since, until := $until, a_since := $a_since, a_until := $a_until,
        b_since := $b_since, b_until := $b_until
    ) AS c WHERE c.b_success IS NOT NULL
) AS y USING (case_id);
