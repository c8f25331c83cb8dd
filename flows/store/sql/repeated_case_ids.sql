-- case_ids read more than once (NULL too, as one id); `case_ids` streams one table's ids.
SELECT case_id FROM case_ids GROUP BY case_id HAVING count(*) > 1;
