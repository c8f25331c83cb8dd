-- `faith report`: the claims judged `no` most often, with passages (macro from 002_analysis).
SELECT * FROM contradicted_claims(n := $n, since := $since, until := $until);
