-- `faith compare`: keep its result for the report.
INSERT INTO comparisons VALUES (
    $compared_at, $a_label, $b_label, $paired, $n_a, $n_b, $pairs, $rate_a, $rate_b, $diff,
    $ci_low, $ci_high, $p_value, $score_diff, $score_low, $score_high, $verdict, $result
);
