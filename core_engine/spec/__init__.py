"""The worksheet specification: the pydantic model, lookups by name, typed values, safe parsing."""
