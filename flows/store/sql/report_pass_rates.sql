-- `faith report`: pass rates by period in the window (macro from 002_analysis).
SELECT * FROM pass_rates(
    grain := $grain,
    threshold := $threshold, penalize_ambiguous := $penalize_ambiguous,
    since := $since, until := $until
);
