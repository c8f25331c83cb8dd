"""Prefect: the score and nightly flows, the deployment, artifacts. The only room importing
Prefect; call `prefect_env.configure_prefect_environment()` before importing its modules."""
