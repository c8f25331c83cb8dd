-- A run's prices (USD per million tokens, NULL when unknown) and whether it is a dry run.
UPDATE runs SET
    price_input_usd  = $price_input_usd,
    price_output_usd = $price_output_usd,
    dry_run          = $dry_run
WHERE run_id = $run_id;
