-- Add a warning to a run, after any it already has.
UPDATE runs SET
    warning = CASE WHEN coalesce(warning, '') = '' THEN $warning ELSE warning || '; ' || $warning END
WHERE run_id = $run_id;
