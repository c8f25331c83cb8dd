-- `faith report`: scored cases per config and score bin (macro from 002_analysis).
SELECT * FROM score_histogram(
    bins := $bins,
    threshold := $threshold, penalize_ambiguous := $penalize_ambiguous,
    since := $since, until := $until
);
