"""Answering: which field a value belongs to, and the answers given in shapes other than the one asked."""
