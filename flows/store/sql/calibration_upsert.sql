-- Store a named calibration (`faith calibrate --replace` replaces one of the same name).
INSERT OR REPLACE INTO calibrations (
    name, judge_kind, judge_model, supported, silent, threshold, penalize_ambiguous_claims,
    labels, positives, claims_labelled, folds, seed, labels_hash, agreement, created_at, weights
) VALUES (
    $name, $judge_kind, $judge_model, $supported, $silent, $threshold,
    $penalize_ambiguous_claims, $labels, $positives, $claims_labelled, $folds, $seed,
    $labels_hash, $agreement, $created_at, $weights
);
