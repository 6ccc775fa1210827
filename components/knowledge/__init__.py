"""The Knowledge page: imports, column types, derived worksheets, the read-only SQL console."""
