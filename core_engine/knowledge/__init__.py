"""The knowledge stage of a turn: `answer(...)` to read-only SQL over the project's KB (offline and LLM parsers)."""
