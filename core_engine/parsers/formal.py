"""The `formal` parser: the user's turn already is formal statements.

Used by tests, by debugging and by the studio's "inject statements" box.
"""

from __future__ import annotations

from .base import ParseContext, ParseResult


class FormalParser:
    name = "formal"

    def parse(self, utterance: str, ctx: ParseContext) -> ParseResult:
        return ParseResult(text=utterance, rules=[{"rule": "formal", "text": utterance}])
