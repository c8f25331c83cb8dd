"""Read-only analysis of a scored database: queries, terminal tables, charts, the HTML report."""
