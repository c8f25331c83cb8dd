-- `faith report`: the segment columns the logs carry, with how many cases carry each.
SELECT segment, sum(cases) AS cases FROM segment_columns GROUP BY segment;
