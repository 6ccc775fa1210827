"""Sentence embeddings shared by the parsers and the knowledge parser (model loading, lexical fallback)."""
