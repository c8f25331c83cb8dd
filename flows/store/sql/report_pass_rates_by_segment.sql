-- `faith report`: pass rates by value of one segment column (macro from 002_analysis).
SELECT * FROM pass_rates_by_segment(
    $segment, grain := $grain,
    threshold := $threshold, penalize_ambiguous := $penalize_ambiguous,
    since := $since, until := $until
);
