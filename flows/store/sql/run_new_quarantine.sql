-- Rows a run quarantined for the first time: `quarantine` keeps the first run that
-- quarantined a row (its key is the row as read), so a row read again adds nothing. Beside
-- them, how many of those were exact copies of rows read beside them ($copies: the checks of
-- re-delivered rows, which are no drift).
SELECT count(DISTINCT row_key),
       count(DISTINCT row_key) FILTER (WHERE list_contains(CAST($copies AS VARCHAR[]), "check"))
FROM quarantine WHERE run_id = $run_id;
