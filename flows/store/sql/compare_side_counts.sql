-- `faith compare`: the scored cases each side selects on its own (its config, segment value
-- and days), paired or not, so a side that selects none is refused by name. Each side is read
-- as an unpaired comparison of its config with itself (compare_cases of 017_comparisons).
SELECT
    (SELECT count(c.a_success) FROM compare_cases(
        a_config := $a_config, b_config := $a_config, segment := $segment, a := $a, b := $b,
        since := $since, until := $until, a_since := $a_since, a_until := $a_until,
        b_since := $b_since, b_until := $b_until
    ) AS c) AS n_a,
    (SELECT count(c.b_success) FROM compare_cases(
        a_config := $b_config, b_config := $b_config, segment := $segment, a := $a, b := $b,
        since := $since, until := $until, a_since := $a_since, a_until := $a_until,
        b_since := $b_since, b_until := $b_until
    ) AS c) AS n_b;
