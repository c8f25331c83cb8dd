"""One scoring run: validate, classify, score and write each batch, with progress and the
judge's accounting. No argparse, no Prefect."""
