"""Reading sources: resolving a path or glob, streaming bounded batches, duplicated case_ids."""
