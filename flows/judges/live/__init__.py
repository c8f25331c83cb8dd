"""The judge that answers now: OpenAIJudge, what it asks (tasks, packing), its asking (cache
first, packs concurrently, one re-ask), and the dry run that prices it without calling."""
