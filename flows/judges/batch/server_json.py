"""What a Batch API's JSON says of a batch: its own errors, and the input file it was made
from (its `input_file_id`, or the tag faithpipe gives it at its create)."""

from __future__ import annotations

from typing import Any

__all__ = ["SUBMISSION_TAG", "batch_errors", "made_from"]

# The metadata key a batch is tagged with: the input file it was created from.
SUBMISSION_TAG = "faithpipe_input_file"


def batch_errors(errors: Any) -> str | None:
    """The batch's own errors (why it failed validation), as one line."""
    found = errors.get("data") if isinstance(errors, dict) else None
    if not isinstance(found, list) or not found:
        return None
    messages = [str(e.get("message") or e.get("code")) for e in found if isinstance(e, dict)]
    line = "; ".join(messages[:3]) + (
        f" (and {len(messages) - 3} more)" if len(messages) > 3 else ""
    )
    return line[:500]


def made_from(batch: Any, input_file_id: str) -> bool:
    """Whether a listed batch was created from this input file."""
    if not isinstance(batch, dict):
        return False
    metadata = batch.get("metadata")
    tagged = isinstance(metadata, dict) and metadata.get(SUBMISSION_TAG) == input_file_id
    return tagged or batch.get("input_file_id") == input_file_id
