"""LLM access: the OpenAI-compatible client and its fakes, per-component options, prompts, token counts."""
