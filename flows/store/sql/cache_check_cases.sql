-- How many cases `faith cache check` holds to their stored claims: how many parts it reads.
SELECT count(*) FROM case_scores WHERE actual_output IS NOT NULL;
