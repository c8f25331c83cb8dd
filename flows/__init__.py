"""faithpipe's I/O and orchestration: sources, the DuckDB store, the runs and the CLI."""

from flows.allocator import keep_freed_pages

# Before anything imports polars: its allocator reads the setting once, when it loads.
keep_freed_pages()
