"""The `offline` parser: everyday phrasing to formal statements, deterministic, no network, grounded in the spec and its KB."""
