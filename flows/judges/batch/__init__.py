"""The Batch API (`--judge-mode batch`): request and result files, creating a batch exactly
once, refreshing its state, and the batch judge that asks through it."""
