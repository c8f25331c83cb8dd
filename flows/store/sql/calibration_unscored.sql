-- Of labelled ids that no config scored, how many the database holds as invalid, pending or
-- quarantined rows: `faith calibrate` names them, since scoring again does not make them scored.
WITH missing AS (
    SELECT DISTINCT unnest($case_ids::VARCHAR[]) AS case_id
)
SELECT
    (SELECT count(DISTINCT c.case_id) FROM case_scores AS c JOIN missing USING (case_id)
        WHERE c.status = 'invalid') AS invalid,
    (SELECT count(DISTINCT c.case_id) FROM case_scores AS c JOIN missing USING (case_id)
        WHERE c.status = 'pending') AS pending,
    (SELECT count(DISTINCT q.case_id) FROM quarantine AS q JOIN missing USING (case_id))
        AS quarantined;
