"""Parsers behind one interface: formal, offline, llm (DESIGN §5)."""

from .base import ParseContext, ParseResult, Parser
from .formal import FormalParser

__all__ = ["ParseContext", "ParseResult", "Parser", "FormalParser"]
