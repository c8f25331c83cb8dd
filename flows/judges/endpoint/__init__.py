"""Talking to an OpenAI-compatible endpoint: the HTTP conversation with deadlines, the adaptive
in-flight limit, the requests/tokens-per-minute window, the event loop thread, usage counts."""
