-- The report: the latest failing cases of the window, each with the claims that were not
-- supported and what the context lacks: claim_verdicts.context_lacks (migration 012) when the
-- database has it (written in by the report as `{lacks}`, else NULL) and the evidence sentence
-- (migration 005: `{evidence}`, else NULL). Within a day and a score, the case whose weakest
-- `no` claim the context supports least comes first, as worst_cases orders them (`{support}`:
-- v.support, from migration 005 too, else NULL).
SELECT
    c.config_id,
    c.case_id,
    CAST(c.logged_at AS DATE) AS day,
    c.score,
    c.actual_output,
    list({'claim': v.claim, 'verdict': coalesce(v.verdict, 'dropped'), 'lacks': {lacks},
          'evidence': {evidence}}
         ORDER BY v.claim_index) AS claims
FROM case_results(
    threshold := $threshold, penalize_ambiguous := $penalize_ambiguous,
    since := $since, until := $until
) AS c
JOIN claim_verdicts AS v ON v.config_id = c.config_id AND v.case_id = c.case_id
WHERE c.status = 'scored' AND NOT c.success AND v.verdict IS DISTINCT FROM 'yes'
GROUP BY ALL
ORDER BY day DESC, c.score, min({support}) FILTER (WHERE v.verdict = 'no') NULLS LAST, c.case_id
LIMIT $limit;
