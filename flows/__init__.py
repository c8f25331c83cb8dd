"""faithpipe's I/O and orchestration, one room a job (README.md, Architecture).

Importing it changes nothing in the process: the entry points (`flows.cli.main`, the bench
scripts) set the allocator and Prefect environment.
"""
