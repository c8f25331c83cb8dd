-- `faith compare`: the compare_scores macro of 017_comparisons, bound.
SELECT * FROM compare_scores(
    a_config := $a_config, b_config := $b_config, segment := $segment, a := $a, b := $b,
    since := $since, until := $until, a_since := $a_since, a_until := $a_until,
    b_since := $b_since, b_until := $b_until,
    threshold := $threshold, penalize_ambiguous := $penalize_ambiguous
);
