"""Typed parts of a short answer: street addresses, colour words, words of one option's description."""
