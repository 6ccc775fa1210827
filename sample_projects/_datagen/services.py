"""Generate the ``services_general_info`` table of the ticket_submission sample (KITA fig. 27).

The articles are hand-written (``service_articles_*``); this module reflows them into
plain paragraphs and gives each a ServiceNow-style knowledge-base number drawn from a
seeded ``random.Random``, so the ids look like real ones but never change.
"""

from __future__ import annotations

import random

from .service_articles_enrollment import ENROLLMENT_ARTICLES
from .service_articles_records import RECORDS_ARTICLES

SEED = 20240612
MIN_WORDS, MAX_WORDS = 150, 400


def generate(seed: int = SEED) -> list[dict]:
    """One row per article: ``{"id", "title", "text"}``, in topic order."""
    rng = random.Random(seed)
    articles = ENROLLMENT_ARTICLES + RECORDS_ARTICLES
    numbers = sorted(rng.sample(range(10000, 99999), len(articles)))
    rows = [{"id": f"KB00{number}", "title": title, "text": reflow(text)}
            for number, (title, text) in zip(numbers, articles)]
    check_guarantees(rows)
    return rows


def reflow(text: str) -> str:
    """Join source-wrapped lines into paragraphs separated by one blank line."""
    paragraphs = [" ".join(line.strip() for line in block.strip().splitlines())
                  for block in text.strip().split("\n\n")]
    return "\n\n".join(p for p in paragraphs if p)


def check_guarantees(rows: list[dict]) -> None:
    """Raise AssertionError unless there are 25-40 distinct articles of 150-400 words."""
    if not 25 <= len(rows) <= 40:
        raise AssertionError(f"services: {len(rows)} articles, expected 25-40")
    if len({row["title"] for row in rows}) != len(rows):
        raise AssertionError("services: duplicate titles")
    for row in rows:
        words = len(row["text"].split())
        if not MIN_WORDS <= words <= MAX_WORDS:
            raise AssertionError(f"services: {row['title']!r} has {words} words")
