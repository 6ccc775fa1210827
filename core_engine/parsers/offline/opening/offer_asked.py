"""An offer asked beside values of one's own: "Do you do adult group lessons for snowboarding? we're 3 mates,
intermediate-ish" asks for the task the question names, not the KB (docs/offline_parser.md, session 32)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..intents import is_question
from ..words.semantic import option_words_task, semantic_task
from .tasks import describe_task

if TYPE_CHECKING:
    from ..parser import TurnReader


def offer_asked_for_oneself(reader: "TurnReader", questions: list[str], told: str) -> bool:
    """ "Do you do adult group lessons for snowboarding? we're 3 mates, intermediate-ish": a question whether
    the agent offers something, beside sentences that give values of the task it names (or say the user wants
    it: "Want to bring the family this weekend"), asks for that task, not the KB. The task is read from the
    question with the sentences; it is kept only when the sentences added word values to it, tell the group's
    size or say a wish ("ours is a bit on the wide side lol" beside "do you do berths for catamarans?" stays a
    question)."""
    if len(questions) != 1 or not _OFFER_ASKED.match(questions[0]) or is_question(told) \
            or _TERMS_ASKED.search(questions[0]):
        return False  # "is there a cancellation fee? our booking is for 8": the terms, asked of the KB
    asked = _OFFER_ASKED.sub("", questions[0]).strip(" ?!.")  # "do you do" asks whether; no word of the task

    def opens(text: str) -> bool:
        return describe_task(reader, text) or semantic_task(reader, text) or option_words_task(reader, text)
    lines, rules = len(reader.lines), len(reader.rules)
    alone = opens(asked)
    given = _values_given(reader.lines[lines:])
    chosen = [line for line in reader.lines[lines:] if line.startswith("main.")]
    del reader.lines[lines:], reader.rules[rules:]
    if not alone:
        return False
    if opens(f"{asked} {told}") and all(line in reader.lines[lines:] for line in chosen):  # the task asked about:
        # "covered in dust. Do you do after builders cleans?" must not become a complaint
        added = _values_given(reader.lines[lines:]) - given
        # a word value (an option, a name, a day) the sentences added, or a count of the group said as one
        # ("we're 3 mates", "a pack of about 20"); a number of something else ("my dog is 12", "the last
        # one was 20 quid") is no reason to open the task
        if any(not re.fullmatch(r"-?\d+(?:\.\d+)?", v) for v in added) or _WISH.search(told) \
                or _GROUP_TOLD.search(told):
            return True
    del reader.lines[lines:], reader.rules[rules:]
    return False


_OFFER_ASKED = re.compile(r"^\W*(?:(?:hi|hello|hiya|hey|ok|okay|so|and|also|just\s+wondering|quick\s+question)(?:\s+there)?"
                          r"[,!.\s]+)*(?:do\s+(?:you|u)\s+(?:guys\s+)?(?:do|offer|run|provide|have|take|organi[sz]e)|"
                          r"have\s+you\s+got|(?:is|are)\s+there\s+(?:still\s+)?(?:any|an?|some)?)\b", re.I)
"""A question whether the agent offers something: "do you do visits for cubs?", "is there still a grant ...?"."""
_WISH = re.compile(r"(?:\b(?:i'?d|i\s+would|we'?d|we\s+would|id|wed)\s+(?:like|love)\s+to\b|^\W*(?:i|we)?\s*(?:want|wanna|"
                   r"need|hoping|looking)\s+to\b)(?!\s+(?:know|ask|check|find\s+out|see\s+if|understand|hear))|\b(?:i|we)\s+(?:want|need)\s+to\s+(?:book|bring|come|go|do|get)\b", re.I)
"""The user says they want it ("id like to go", "Want to bring the family this weekend")."""
_GROUP_TOLD = re.compile(r"\b(?:we'?re|we\s+are|there'?(?:ll|d)?\s+be|there\s+(?:will|would)\s+be|(?:a|our)\s+(?:group|"
                         r"party|pack|team|class|family)\s+of)\s+(?:about\s+|around\s+|roughly\s+)?(?:\d+|two|three|four|"
                         r"five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty)\b", re.I)
"""The size of the user's group, told ("we're 3 mates", "a pack of about 20", "there'll be 12 of us")."""
_TERMS_ASKED = re.compile(r"\b(?:fee|fees|cost|costs|price|prices|charge|charges|penalty|deposit|refund|policy|rules?|"
                          r"limit|minimum|maximum|too\s+late|notice)\b", re.I)
"""A question about the terms of a task ("is there a cancellation fee?"), not a request for it."""


def _values_given(lines: list[str]) -> set[str]:
    """The values statements give (a constructor's arguments each), as their texts."""
    out = set()
    for line in lines:
        m = re.match(r"\w+ = [A-Z]\w*\((.*)\)$", line)
        if m:
            out |= {v.strip('"') for v in re.findall(r'(?:^|, )\w+=("[^"]*"|[^,()]+)', m.group(1))}
        elif not line.startswith("main."):
            out.add(line.split(" = ", 1)[-1].strip('"'))
    return out
