"""Measures in the unit a field counts: head counts, lengths of time, money, months."""
