"""Judges that do I/O: the OpenAI-compatible LLM judge, its transport and rate limiter."""
