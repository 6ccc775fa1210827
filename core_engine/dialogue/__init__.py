"""The formal dialogue state, the formal statement language and the interpreter that applies it."""
