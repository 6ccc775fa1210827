"""A task left for later: "let me check with my partner first and I'll ring back", "leave it for now, got to run".

People stop a task in many words besides "cancel": they put it off ("I'll finish this later"), go to ask someone
("I need to check with the venue whether hay bales are allowed first"), or drop it and say why ("forget it, my
cousin can do it for free"). Such a turn is read as a stop of the task in progress (the agent confirms when the
task holds values) when every clause of it is one of:

- a clause that puts the task off or stops it (`_PUT_OFF`, `_STOP`);
- a lead-in or a remark ("actually you know what", "bit more than I wanted to spend tbh");
- a reason that names nothing the agent has (no word of its worksheets, fields or options, no KB value, no
  date or time) and asks nothing.

and at least one clause says the user is leaving for now (`_FOR_NOW`): "let me check with my wife" alone is a
pause inside the conversation (the agent waits), "... first and I'll ring back" is not.
"""

from __future__ import annotations

import re
from typing import Callable

from ..intents import is_question, task_request

_WHO = r"(?:let\s+me|lemme|let\s+us|i'?ll|i\s+will|we'?ll|we\s+will|(?:i|we)\s+(?:need|have|ought)\s+to|" \
       r"(?:i|we)'?d\s+(?:better|best)|(?:i|we)\s+(?:should|must|better|gotta|got\s+to))"
_PUT_OFF = re.compile(
    rf"(?:{_WHO}\s+)?(?:just\s+|quickly\s+|first\s+)?(?:(?:check|talk|speak|chat|confirm|sort\s+(?:it|this|that)\s+out)"
    r"(?:\s+\w+){0,3}?\s+(?:with|to)\s+(?:my|our|the|her|him|them|his|your)\b|ask\s+(?:my|our|the|her|him|them|his)\b|"
    r"have\s+a\s+(?:word|chat)\s+with|run\s+(?:it|this|that)\s+(?:past|by)|think\s+about\s+it|"
    r"sleep\s+on\s+it|have\s+a\s+think|look\s+into\s+it|check\s+(?:my|our|the)\s+(?:diary|calendar|schedule|rota|shifts?)|"
    r"check\s+when\s+(?:i'?m|i\s+am|we'?re|we\s+are)\s+(?:free|available|off))[^,.;!?]*"
    r"|(?:(?:i'?ll|i\s+will|we'?ll|we\s+will|can\s+i|let\s+me)\s+)?(?:just\s+)?(?:come\s+back(?:\s+to\s+(?:you|this|it))?|"
    r"ring\s+(?:you\s+)?back|call\s+(?:you\s+)?back|phone\s+(?:you\s+)?back|get\s+back\s+to\s+you|pop\s+back|"
    r"(?:finish|pick\s+up|continue)\s+(?:this|it|the\s+rest)\s+(?:later|another\s+time))"
    r"(?:\s+(?:later|in\s+a\s+bit|another\s+time|when\s+[^,.;!?]+))?",
    re.I)
"""Putting the task off. "come back", "ring back" end the clause (or say only when): "we'll be back with it on the
14th" or "ring back first if the gate is locked" give a day or a note, not a leave."""
_STOP = re.compile(
    r"(?:(?:no|so|then|please)\s+)*(?:just\s+)?(?:(?:forget|scrap|drop|cancel|stop|leave|park)\s+"
    r"(?:it|this|that|the\s+whole\s+thing|everything|all\s+(?:of\s+)?(?:it|that|this))|never\s?mind|nevermind|"
    r"let'?s\s+(?:just\s+)?(?:leave|park|stop|pause)\s+(?:it|this|that|there|here)|(?:can|could)\s+we\s+(?:just\s+)?"
    r"(?:stop|leave\s+it|pause)(?:\s+(?:there|here|it))?|hold\s+off|"
    r"(?:i'?ve\s+)?(?:got|have|gotta)\s+(?:to\s+)?(?:run|go|dash)|i'?m\s+not\s+ready)"
    r"(?:\s+(?:for\s+now|for\s+the\s+moment|then|there|after\s+all|today|please|thanks|ta|sorry))*", re.I)
_FOR_NOW = re.compile(r"\b(?:first|later|back|for\s+now|for\s+the\s+moment|another\s+time|tomorrow|before\s+(?:i|we)\s+"
                      r"(?:commit|book|go\s+ahead|pay|decide|confirm)|(?:got|have|gotta)\s+(?:to\s+)?(?:run|go|dash)|"
                      r"(?:leave|park|forget|scrap|drop|cancel|stop)\s+(?:it|this|that|there|here|the\s+whole|everything)|"
                      r"never\s?mind|nevermind|hold\s+off|not\s+(?:right\s+)?now|sleep\s+on\s+it|think\s+about\s+it|"
                      r"have\s+a\s+think|stop\s+there)\b", re.I)
_FILLER = re.compile(r"(?:(?:oh|ok|okay|actually|sorry|no|nah|wait|hmm+|hm|um+|uh|ugh|ah|well|so|right|yeah|yes|"
                     r"honestly|tbh|you\s+know\s+what|on\s+second\s+thought|thinking\s+about\s+it|thanks|thank\s+you|"
                     r"ta|cheers|and|but|then|though|anyway|sorry\s+about\s+that)\W*)*", re.I)
_STAYING = re.compile(r"\W*(?:hang\s+on|hold\s+on|one\s+sec|just\s+a\s+sec|wait\s+a\s+(?:sec|minute|moment)|"
                      r"give\s+me\s+a\s+(?:sec|second|minute|moment)|bear\s+with\s+me)\b", re.I)
"""A turn that starts by asking the agent to wait ("hang on, let me check with my husband first"): the user stays."""
HOLD_BACK = re.compile(
    r"^\W*(?:(?:hmm+|ok(?:ay)?|so|actually|nah|no|oh|wait)[,.!\s]+)*hold\s+off\b(?!\s+on\b)|"
    r"\b(?:let\s+me|i\s+(?:need|have|want|ought)\s+to|i'?ll\s+(?:need\s+to|have\s+to)?|i\s+must|i\s+should|"
    r"(?:i'?ve\s+)?got\s+to|gotta)\s*(?:check|ask|talk|speak|run\s+it\s+(?:past|by))\s+(?:with\s+|to\s+)?"
    r"(?:my|the|our|his|her)\s+[a-z]+\s+first\b(?![^.!?]*\b(?:go\s+ahead|it'?s\s+fine|book\s+it|do\s+it)\b)|"
    r"^\W*(?:(?:nah|no|ok(?:ay)?|hmm+|actually|oh)[,.!\s]+)*(?:actually\s+)?leave\s+it(?:\s+(?:for\s+now|for\s+the\s+moment|"
    r"there))?(?=\s*(?:$|[.!]|,\s*(?:we'?ll|i'?ll|we\s+will|i\s+will|thanks|cheers)\b(?![^.!?]*\b(?:cancel|don'?t\s+want)\b)))",
    re.I)
"""A summary held back to ask someone or left for now ("hold off, I need to check with the owner first", "nah actually
leave it"): a no to the confirmation. "Leave it as it is" agrees, and is not this."""
_SOFT_NO = re.compile(r"\b(?:hold\s+off|not\s+(?:right\s+)?now|maybe\s+later|another\s+time)\b", re.I)
_AGREEING = re.compile(r"\W*(?:yes|yeah|yep|yup|ok|okay|sure|go\s+ahead|go\s+on|please\s+do|do\s+it)\b", re.I)
_CLAUSES = re.compile(r"\s*(?:[,.;!]+|\s-+\s|\b(?:and|so|but|then|because|cos|coz|as)\b)\s*", re.I)


def leaves_task(text: str, names_nothing: Callable[[str], bool], *, yes_no_asked: bool = False) -> bool:
    """The whole turn stops or puts off the task in progress (see the module docstring). `names_nothing` says
    that a reason clause names nothing of the agent's; `yes_no_asked`, that the agent's question wants a yes or no."""
    if "?" in text or not _FOR_NOW.search(text) or _STAYING.match(text) or \
            (yes_no_asked and (_AGREEING.match(text) or _SOFT_NO.search(text))):
        return False  # "yes cancel it" to "shall I cancel your booking?" agrees, "no, hold off" to the summary is a no;
        # "hang on, let me check" stays
    clauses = [c.strip() for c in _CLAUSES.split(text) if c and c.strip(" ,.;!-")]
    said_it = False
    for clause in clauses:
        body = clause[_FILLER.match(clause).end():].strip() if _FILLER.match(clause) else clause
        if not body:
            continue
        if _PUT_OFF.fullmatch(body) or _STOP.fullmatch(body):
            said_it = True
            continue
        if is_question(body) or task_request(body) or not names_nothing(body):
            return False
    return said_it
