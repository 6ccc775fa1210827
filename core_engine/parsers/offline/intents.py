"""What kind of turn the user took: a question, a refusal, a change of mind, a choice, small talk.

Each recogniser returns the words that decided it (for the rule trace) or
None; none of them knows the spec. The parser (`offline.py`) decides which
field the recognised intent applies to.
"""

from __future__ import annotations

import re

from .words.values import MONTHS, ORDINALS, WEEKDAYS, WEEKDAY_ABBREVIATIONS, normalise

# ---------------------------------------------------------------- sentences

_SENTENCE_END = re.compile(r"(?<=[.!?])(?<!\b[Dd]r\.)(?<!\b[Mm]r\.)(?<!\b[Mm]s\.)(?<!\b[Mm]rs\.)(?<!\b[Ss]t\.)"
                           r"(?<!\b[Jj]r\.)(?<!\b[Ss]r\.)(?<!\bProf\.)(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bvs\.)\s+(?=\S)")
"""A sentence ends at . ! or ? and a space, but not after a title or abbreviation ("Dr. Mei Lin")."""


def sentences(text: str) -> list[str]:
    """Split on sentence ends that are followed by a space (keeps 7/5/24, $3.50 and e-mails whole)."""
    return [s.strip() for s in _SENTENCE_END.split(normalise(text)) if s.strip()]


# ---------------------------------------------------------------- questions

_QUESTION_START = re.compile(
    r"^(?:(?:so|and|also|ok|okay|but|hmm|well|then|hi|hello|hey|oh|um|uh|wait|hold\s+on|hang\s+on|sorry|by\s+the\s+way|"
    r"one\s+more\s+thing|quick\s+question|maybe|perhaps|cool|great|right|thanks|out\s+of\s+(?:interest|curiosity)|"
    r"just\s+(?:wondering|curious)|btw|random\s+question|while\s+i'?m\s+here|also\s+quickly)[,.\s]+)*"
    r"(?P<q>what|which|when|where|who|whom|whose|why|how|is\s+there|are\s+there|is\s+it|are\s+they|is\s+this|"
    r"is\s+(?:he|she|that|your)|are\s+(?:you|your|these|those)|has\s+(?:he|she|it)|was\s+(?:he|she|it)|"
    r"does|do\s+you|do\s+they|do\s+i|did|am\s+i|will\s+i|would\s+i|should\s+i|"
    r"(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:tell|give|find|show|recommend|suggest|check|list|look|"
    r"search|provide|compare|explain|help\s+me\s+find|get\s+me)|"
    r"tell\s+me|show\s+me|find\s+me|give\s+me|get\s+me|list|recommend|suggest|compare|search|look\s+up|"
    r"provide\s+me|any\s+|i'?m\s+looking\s+for|i\s+am\s+looking\s+for|looking\s+for|i\s+want\s+to\s+know|"
    r"i'?d\s+like\s+to\s+know|i\s+wonder|what's|where's|who's|how's|how\s+many|how\s+much)\b",
    re.I)


_CLEFT = re.compile(r"^(?:(?:so|and|ok|okay|but|well|oh|um|uh|actually|honestly|really)[,\s]+)*what\s+(?:i|we)(?:'d|'m)?\s+"
                    r"(?:\w+\s+){0,2}?(?:need|want|wanted|needed|like|meant|mean|after|called\s+about)\s+(?:is|was)\b"
                    r"(?![^?]*\?)", re.I)
"""A statement that begins with "what": "what I really need is the letter again" (no question mark after it)."""


def is_question(text: str) -> str | None:
    """The words that make this a question or a search request, or None."""
    body = normalise(text)
    for sentence in sentences(body) or [body]:
        if _CLEFT.match(sentence):
            continue
        m = _QUESTION_START.match(sentence)
        if m:
            return m.group("q")
        if sentence.endswith("?") and not proposal(sentence):
            return "?"
    return None


_PROPOSAL_WORDS = frozenset("""
    if poss possible possibly maybe perhaps say about around roughly approx like ish then instead so ok okay please
    i guess think reckon suppose would be good fine great works work that it is at on for by from the a an this next
    coming late early mid half quarter past to am pm o'clock oclock morning afternoon evening night lunchtime noon
    midday tomorrow tmrw today tonight weekend week first thing any time anytime day
    """.split())
_WHEN_WORDS = re.compile(r"\d|\b(?:" + "|".join([*WEEKDAYS, *WEEKDAY_ABBREVIATIONS]) + r"|morning|afternoon|evening|"
                         r"tonight|tomorrow|tmrw|today|noon|midday|weekend|first\s+thing)\b", re.I)


_CODE_TOKEN = re.compile(r"\b(?=[a-z-]*\d)[a-z0-9]+(?:[-/][a-z0-9]+)+\b|\b[a-z]{1,4}\d{3,}\b", re.I)
"""A reference typed as one token with digits: "PC-55120", "hb-2231", "ab12345"."""
_HEDGED_CODE = frozenset("uh um erm er hmm ok okay so it its it's is was that that's i think guess believe reckon "
                         "maybe probably perhaps the number ref reference".split())


def proposal(sentence: str) -> bool:
    """ "friday if poss?", "late morning, 11?", "about £250?", "whenever you open?": a value offered with a question
    mark, not a question (no question word, and nothing but the value, when it is, and hedges)."""
    if _HEDGED_NUMBER.search(normalise(sentence)):
        return True  # "its just one page, maybe 250 words??": a count offered with a doubt
    worded = _WORDED_NUMBER.match(normalise(sentence))
    if worded and not _RATE_OR_RANGE.search(worded.group(0)) and (worded.group("hedge") or len(re.findall(
            r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|"
            r"sixty|seventy|eighty|ninety|hundred|thousand|dozen|bit|odd|half)\b", worded.group(0), re.I)) >= 2):
        return True  # "maybe a hundred and twenty?", "three and a bit hours?" (not "two tickets?")
    if _HEDGED_WORDS.fullmatch(normalise(sentence)):
        return True  # "sorting i think?", "the blue one maybe?": a choice offered with a doubt
    body = re.sub(r"\b(?:whenever|when)\s+you\s+open\b", " morning ", normalise(sentence).lower())
    coded = _CODE_TOKEN.sub(" ", body)
    if coded != body and all(w in _HEDGED_CODE for w in re.findall(r"[a-z][a-z']*", coded)):
        return True  # "uh its PC-55120 i think?": a reference offered with a doubt, not a question
    if not _WHEN_WORDS.search(body):
        return False
    words = re.findall(r"[a-z][a-z']*", re.sub(r"\d+(?:st|nd|rd|th|am|pm|ish)?\b", " ", body))
    return all(w in _PROPOSAL_WORDS or w in _CALENDAR_WORDS for w in words)


_CALENDAR_WORDS = frozenset([*WEEKDAYS, *WEEKDAY_ABBREVIATIONS, *MONTHS])
_HEDGED_WORDS = re.compile(r"\W*(?!(?:what|which|who|when|where|why|how|is|are|do|does|can|could|will|would)\b)[a-z][\w'-]*"
                           r"(?:\s+[\w'-]+){0,2}\s*,?\s+(?:i\s+think|i\s+guess|i\s+reckon|maybe|probably|perhaps)\s*\?+",
                           re.I)
"""One to three words and a doubt, with a question mark: "sorting i think?" offers a value, it asks nothing."""
_HEDGED_NUMBER = re.compile(r"(?:^|[,;]\s*|\s-\s)(?:(?:so|ok|okay|um|erm|hmm)[,\s]+)?(?:maybe|probably|prob|about|around|roughly|"
                            r"approx(?:imately)?|like|say|perhaps|i\s+think|i\s+guess|i'?d\s+say)\s+(?:about\s+|around\s+)?"
                            r"[£$€]?\d[\d,.]*(?:ish)?(?:\s+[a-z]+){0,2}\s*\?+\s*$", re.I)
"""A number offered with a hedge and a question mark: "maybe 250 words?", "about 40?", "say 45?"."""
_NUMBER_WORD = (r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|"
                r"fifty|sixty|seventy|eighty|ninety|hundred|thousand|dozen|couple|half|and|bit|odd)")
_RATE_OR_RANGE = re.compile(r"\b(?:a|an|per|each)\s+(?:day|night|week|month|year|hour|visit|session|head|person|go)\b|"
                            r"\b(?:pounds?|quid|dollars?|euros?|bucks|p|pence)\b|[£$€]|\bor\b(?!\s+so\b)|\bto\b|-", re.I)
"""A price, a rate or a range asked about ("fifteen pounds a visit?", "twenty five a day?", "one or two?"): a
question, or no one count."""
_WORDED_NUMBER = re.compile(r"^\W*(?:(?:so|ok|okay|um|erm|hmm|oh)[,\s]+)*(?P<hedge>(?:maybe|probably|prob|about|around|roughly|"
                            r"approx(?:imately)?|like|say|perhaps|i\s+think|i\s+guess|i'?d\s+say)\s+)?"
                            rf"(?:{_NUMBER_WORD}\s+)*(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                            r"fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|dozen|"
                            rf"\d[\d,.]*[a-z]{{0,3}})(?:\s+{_NUMBER_WORD})*(?:\s+[a-z]+){{0,3}}?\s*\?+\s*$", re.I)
"""A count offered in words or with its unit, with a question mark and at most a few words after it: "maybe a
hundred and twenty?", "three and a bit hours?", "so maybe 40m all in?"."""


_TASK_REQUEST = re.compile(
    r"^(?:(?:so|and|also|ok|okay|hi|hello|hey|please)(?:\s+there)?[,\s]+)*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?"
    r"(?:help\s+me\s+)?(?:book|reserve|enroll|register|sign\s+me\s+up|submit|file|open|cancel|"
    r"get\s+me\s+a\s+(?:table|reservation|booking))\b|(?:can|could|may)\s+(?:i|we)\s+(?:please\s+)?(?:get|have|book|"
    r"make|arrange|schedule|reserve)\s+(?:a|an|my|our|me|us)\b(?!.*\b(?:if|whether|when|what|which|how)\b)|"
    # "can i get my golf booked in for ...", "could we book ...": the user asks to have the task done
    r"(?:can|could|may)\s+(?:i|we)\s+(?:please\s+)?(?:book|reserve|order|buy|"
    r"(?:get|have)\s+(?:[\w']+\s+){1,4}?(?:booked|reserved|done|sorted)\b)|"
    # "could someone come out and have a look at it?", "can you lot fix that?": a visit or a repair asked for
    r"(?:can|could|would)\s+(?:some(?:one|body)|you(?:\s+(?:lot|guys|all))?|one\s+of\s+(?:you|your\s+\w+)|"
    r"(?:an?|the|your)\s+(?:engineer|technician|tech|fitter|plumber|electrician|tuner|mechanic|cleaner|inspector))\s+"
    r"(?:please\s+)?(?:come\b(?!\s+(?:to\s+the\s+phone|back\b))|(?:pop|call)\s+(?:out|round|over|around|by|in)|fix|repair|mend|sort\s+(?:it|this|that)\s+out|"
    r"take\s+a\s+look\s+at|have\s+a\s+look\s+at)\b)", re.I)
_HEDGED_NEED = re.compile(r"^(?:(?:hi|hello|hey|hiya|morning|afternoon|evening)(?:\s+there)?[,!\s]+)*i\s+(?:think|guess)\s+"
                          r"(?:i|we)\s+(?:need|want)\s+(?:a|an|my|our|some|to\s+(?:book|get|have|order|make|arrange|"
                          r"request|reserve))\b(?!.*\b(?:if|whether|when|what|which|how|who|where)\b)", re.I)
"""A need said with a hedge and a question mark ("hello, I think I need a certified copy of my birth certificate?"):
a request, not a question; "So I need a customs form?" or "I need an apron for the class?" ask whether."""


def task_request(sentence: str) -> bool:
    """ "Can you book me a French restaurant?", "can I get a removal booked for the 12th?": a request to do the task,
    phrased as a question; also its last clause ("our upright has sticky keys, could someone come out?")."""
    said = normalise(sentence)
    if _TASK_REQUEST.match(said) is not None or _HEDGED_NEED.match(said) is not None:
        return True
    last = re.split(r",\s*", said)[-1]
    return last != said and is_question(sentence) and _TASK_REQUEST.match(last) is not None


def asks_to(sentence: str, verbs: set[str]) -> bool:
    """ "can you hold it for me?", "could I put two aside?": a request, phrased as a question, to do what one of
    `verbs` says (the caller's verbs: the first words of a task option and of its description, from the spec)."""
    if not verbs:
        return False
    for clause in re.split(r"[,;:]\s*|\s+-\s+", normalise(sentence)):  # "Puncture on my Brompton, can I bring it in?"
        m = _ASKS_TO.match(clause)
        if m is not None and m.group(1).lower() in verbs:
            return True
    return False


_ASKS_TO = re.compile(r"^(?:(?:so|and|also|ok|okay|hi|hello|hey|please|great|lovely|perfect|cool|nice|then)[,!\s]+)*"
                      r"(?:can|could|would|will|may)\s+(?:you|i|we)\s+(?:please\s+)?(?:just\s+)?([a-z]+)\b", re.I)


def question_sentences(text: str) -> list[str]:
    return [s for s in sentences(text) if is_question(s)]


_LEAD_INS = re.compile(
    r"^(?:(?:so|and|also|ok|okay|but|hmm|well|then|hi|hello|hey|please|oh|um|uh|wait|hold\s+on|one\s+more\s+thing|"
    r"quick\s+question|sorry|by\s+the\s+way|actually)[,\s]+)*"
    r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:tell\s+me|give\s+me|find\s+me|show\s+me|get\s+me|"
    r"recommend|suggest|find|show|list|search\s+for|look\s+for|look\s+up|provide\s+me\s+with|provide\s+me|"
    r"help\s+me\s+find|check)\s*(?:more\s+)?(?:about\s+)?|tell\s+me(?:\s+more)?(?:\s+about)?|"
    r"show\s+me|find\s+me|give\s+me|get\s+me|provide\s+me\s+(?:with\s+)?|"
    r"i'?m\s+looking\s+for|i\s+am\s+looking\s+for|looking\s+for|i\s+want\s+to\s+know|i'?d\s+like\s+to\s+know|"
    r"i\s+wonder|recommend|suggest|search\s+for|look\s+up|please|do\s+you\s+(?:know|have)(?:\s+of)?(?:\s+any)?|"
    r"are\s+there\s+any\b|is\s+there\s+(?:an?|any)\b|what\s+about|how\s+about|"
    r"what\s+(?:can|could)\s+you\s+tell\s+me\s+about|what\s+do\s+you\s+know\s+about)\s*"
    r"(?:(?:some\s+|more\s+)?(?:details|information|info|options|recommendations|suggestions|ideas)\s+"
    r"(?:about|on|for)\s+)?", re.I)
_SEARCH_LEAD = re.compile(
    r"^(?:hi|hello|hey|good\s+(?:morning|afternoon|evening))(?:\s+there)?[,.!\s]+|"  # "hey there, looking to book ..."
    r"^(?:(?:i'?m|i\s+am|we'?re|we\s+are)\s+)?(?:looking|hoping|trying|wanting)\s+to\s+|"
    r"^(?:(?:some|a\s+few|a\s+couple\s+of)\s+)?(?:options|recommendations|suggestions|ideas|details|information|"
    r"info)\s+(?:for|about|on|of)\s+|"
    r"^(?:(?:i|we)(?:\s+would|'d)(?:\s+also|\s+really)?\s+(?:like|love)|(?:i|we)(?:\s+also)?\s+(?:want|need|wanna)|"
    r"let'?s(?:\s+also)?|please|also)(?:\s+to)?\s+|"
    r"^(?:i|we)\s+(?:really\s+)?(?:like|love|enjoy)\s+|^(?:i'?m|i\s+am|we'?re|we\s+are)\s+(?:really\s+)?"
    r"interested\s+in\s+|"
    r"^(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:help\s+me\s+)?(?=book|reserve|find|get)|"
    r"^(?:book|reserve|find|get|try|make|take|learn|study)(?:\s+(?:me|us))?\s+|"
    r"^(?:a\s+|the\s+)?(?:table|reservation|booking|spot)\b\s*|"
    r"^(?:some|any|an?|the|another|one\s+more)\s+|^(?:at|in|for|on|with)\s+(?=\S)", re.I)


def clean_question(text: str) -> str:
    """The question without politeness and lead-ins, e.g. "Can you tell me X?" -> "X?"."""
    body = _INTERJECTION.sub("", normalise(text)).strip() or normalise(text)
    stripped = _LEAD_INS.sub("", body, count=1).strip()
    return stripped if len(stripped) >= 3 else body


_INTERJECTION = re.compile(r"^(?:(?:oh|um|uh|hmm|wait|hold\s+on|one\s+more\s+thing|quick\s+question|sorry|"
                           r"by\s+the\s+way|ok|okay|so|also|and|well|hi|hello|hey|good\s+(?:morning|afternoon|evening)"
                           r")(?:\s+there)?[,!.\s]+)+", re.I)


def search_phrase(text: str) -> str:
    """What is being searched for: "Can you give me options for pizza in SF" -> "pizza in SF"."""
    body = clean_question(text).rstrip("?.! ")
    for _ in range(8):
        new = _SEARCH_LEAD.sub("", body, count=1).strip()
        if new == body or len(new) < 3:
            break
        body = new
    return body.strip(" ,")


_SELF_QUESTION = re.compile(
    r"(?:^|(?<=[.!?,;]\s)|(?<=\.\.))\s*(?:(?:wait|hmm+|oh|um+|erm)[,\s]+)?"
    r"(?:did\s+i\s+(?:just\s+)?(?:say|put|write|type|mean|give\s+you)\b[^?.!]{0,40}|or\s+[\w' -]{1,25}|"
    r"was\s+it\s+[\w' -]{1,25})\?+\s*", re.I)


def without_self_questions(text: str) -> str:
    """The turn without the questions the user asks themselves on the way to an answer ("medium normally.. or small?
    no, go with medium", "wait did i say 10? half 10 is better"): what follows them settles it. Kept when nothing
    but another question follows."""
    out = text
    for m in reversed(list(_SELF_QUESTION.finditer(text))):
        after = text[m.end():]
        if after.strip(" .,!") and not after.rstrip().endswith("?") and not is_question(after) and (m.start() > 0 or after):
            out = out[:m.start()] + (" " if m.start() > 0 else "") + out[m.end():]
    return out.strip() or text


# ---------------------------------------------------------------- refusals

_REFUSAL = re.compile(
    r"\b(?:i\s+)?(?:do\s+not|don't|dont|didn't|did\s+not)\s+(?:know|remember|recall|have)\b(?!\s+to\b)|"
    r"\b(?:can't|cannot|can\s+not|couldn't|never)\s+(?:remember|recall)\b|\bno\s+idea\b|\bforgot\b|(?<!before\si\s)(?<!lest\si\s)(?<!don't\s)(?<!not\sto\s)\bforget\b|"
    r"\bno\s+clue\b|\bnot\s+a\s+clue\b|\bhaven'?t\s+(?:got\s+)?(?:a|the\s+(?:faintest|foggiest))\s+(?:clue|idea)\b|"
    r"\bnot\s+sure\b|"
    # the thing is not at hand: "I can't find it anywhere", "I never set up a PIN", "I lost it"
    # ("can't find my credits", "I never received my refund", "I lost my card" describe a problem: not these)
    r"\b(?:can't|cannot|can\s+not|couldn't)\s+find\s+(?:it|them|mine)\b|"
    r"\bnever\s+(?:set\s+up|set|had|created|made|got|chose|picked|been\s+given)\s+(?:a|an|one|it|any)\b|"
    # someone else never gave one: "they never gave me a number", "the school didn't send us one"
    r"\b(?:never|didn'?t|did\s+not)\s+(?:gave|give|given|sent|send|issued|issue)\s+(?:me|us)\s+(?:a|an|one|it|any)\b|"
    r"\blost\s+(?:it|them)\b|\bno\s+longer\s+have\s+(?:it|them|one|that)\b|\bhaven't\s+got\s+(?:it|one|them)\b|"
    # not at hand: "not got it on me", "haven't got my card or any statements with me", "I've forgotten it"
    r"\bforgotten\s+(?:it|them|that|my|the|what)\b|\b(?:not|haven'?t|havent)\s+got\s+(?:it|one|them|that)\b|"
    r"\b(?:not|haven'?t|havent)\s+got\s+[^.;!?]{0,40}?\b(?:with|on)\s+me\b|"
    r"\b(?:wouldn'?t|would\s+not)\s+know\s+(?:that|it|this|them)\b",
    re.I)
_EXPLICIT_REFUSAL = re.compile(
    r"\b(?:i'?d|i\s+would)\s+rather\s+not\b|\brather\s+not\b|\bprefer\s+not\b|"
    r"\bnot\s+(?:going\s+to|gonna)\s+(?:say|tell|share|give)\b|\bwon'?t\s+(?:say|tell|share|give)\b|"
    r"\b(?:can't|cannot|can\s+not)\s+(?:say|tell|share)\b|"
    r"\b(?:don't|do\s+not|dont)\s+(?:really\s+|particularly\s+)?(?:want|wish|like)\s+to\s+(?:say|share|tell|give|answer|"
    r"provide|disclose|reveal)\b|"
    # a habit of not giving it: "I don't give my birthday out online", "we never share that", "I don't give out my number"
    r"\b(?:don't|do\s+not|dont|never)\s+(?:give\s+out|hand\s+out|share|disclose|reveal|"
    r"(?:give|hand)\s+(?:that|it|this|those|them|(?:my|our)\s+[a-z]+(?:\s+[a-z]+)?)\s+out)\b|"
    r"\bnone\s+of\s+your\s+business\b|"
    # "I won't answer that either": no answer given, in so many words, by the user, about the question
    r"\bi\s+(?:won'?t|will\s+not|(?:am|'m)\s+not\s+(?:going\s+to|gonna))\s+answer\s+(?:that|this|it)\b|"
    r"\bi'?m\s+not\s+answering\s+(?:that|this|it)\b|"
    r"\b(?:not|never)\s+(?:giving|sharing|telling|saying|revealing|disclosing)\s+(?:that|it|this|them|you|out|my)\b|"
    # "I'm not typing my PIN in here": a verb of writing it down, with the user's own thing as its object
    r"\b(?:not|never)\s+(?:typing|entering|putting|sending|writing|posting|handing\s+over)\s+(?:my|our|that|this)\b|"
    # "I'm not comfortable giving out secret words", "I'm not willing to share that"
    r"\bnot\s+(?:comfortable|happy|willing)\s+(?:with\s+)?(?:to\s+)?(?:giv|shar|say|tell|answer|provid|disclos|"
    r"reveal)\w*\b|"
    r"^(?:skip|pass|skip\s+(?:it|this|that)|next)[.!]*$", re.I)


_WAITING = re.compile(r"\b(?:hang\s+on|hold\s+on|one\s+(?:sec|second|moment|min(?:ute)?)|just\s+a\s+(?:sec|second|"
                      r"moment|min(?:ute)?)|give\s+me\s+a\s+(?:sec|second|moment|min(?:ute)?)|let\s+me\s+(?:check|"
                      r"look|find|get|dig)|i'?ll\s+(?:check|look|find)(?:\s+it)?)\b", re.I)
"""Words of a user who goes to look for the answer ("hang on", "let me check")."""


def waiting(text: str) -> bool:
    """The user goes to look for the answer ("hang on a sec", "let me check")."""
    return _WAITING.search(text) is not None


_ASKED_OF_THINGS = re.compile(r"^\W*(?:(?:and|so|also|ok|okay|btw)[,\s]+)*(?:which|what|whose|how\s+many)\b", re.I)


_NO_PARTICULAR = re.compile(r"\W*(?:(?:um+|erm|hmm+|well|oh|no|nah|not\s+really)[\s,.!]+)?no\s+(?:particular|specific|set|"
                            r"fixed)\s+(?:date|day|time|deadline)(?:\s+(?:yet|really|in\s+mind|thanks|tbh))*\W*", re.I)
"""A whole turn saying there is no such date or time: "no particular date"; "tuesday, no set time" gives the day."""
ANONYMOUS = re.compile(r"\b(?:rather|prefer\s+to|like\s+to|want\s+to|wish\s+to)\s+(?:stay|remain|be|keep\s+it)\s+"
                       r"anonymous\b|^\W*anonymous(?:ly)?(?:\s+(?:please|pls|if\s+(?:possible|that'?s\s+ok)))?\W*$", re.I)
"""A name withheld: "id rather stay anonymous" (read only for a name asked: "I'd rather be anonymous, the GP was rude"
to the comments is a comment)."""


def refusal(text: str) -> tuple[str, bool] | None:
    """(the words of a refusal, whether it is explicit) for "I don't know my account number", "I'd rather not say".

    "Don't know" counts only near the start of a sentence, so "so I don't have to take..." is not one.
    """
    if _NO_PARTICULAR.fullmatch(normalise(text).strip()):
        return text.strip(), False
    for sentence in sentences(text) or [normalise(text)]:
        for pattern, explicit in ((_EXPLICIT_REFUSAL, True), (_REFUSAL, False)):
            if not explicit and _WAITING.search(text):
                continue  # "I don't know it offhand, hang on a sec": the user goes to look, nothing is refused
            m = pattern.search(sentence)
            if m and m.start() > 0 and _ASKED_OF_THINGS.match(sentence):
                continue  # "which rooms dont have a screen": a question about things, no refusal
            if m and len(re.findall(r"[\w']+", sentence[: m.start()])) <= 4:
                return m.group(0), explicit
    return None


_CLAUSE_START = re.compile(r"(?:[,;]|\b(?:but|though|although|however|and)\b)\s*", re.I)
_ABOUT_IT = re.compile(r"^\s*(?:what|which|where|whether|if)\b", re.I)
_ADVERBS = r"(?:(?:honestly|really|just|genuinely|actually|simply|tbh)\s+)*"
_DOUBTER = re.compile(rf"{_ADVERBS}(?:(?:i'?ve|i\s+have|i|we|i'?m)\s+)?{_ADVERBS}(?:got\s+)?", re.I)
_IT_NAMED = re.compile(r"\s*(?:it|that|this|them|the\s+(?:new|old|right|current)\s+one|"
                       r"(?:the|my|our|his|her|their)\s+(?:new\s+|old\s+|current\s+)?(?P<noun>[a-z]+))"
                       r"(?:\s+(?:off\s+by\s+heart|by\s+heart|off\s*hand|off\s+the\s+top\s+of\s+my\s+head|either|"
                       r"any\s*more|now|at\s+all|tbh|sorry))*\s*(?:$|[,.;!]|\s+(?:but|and|so|though|lol)\b)", re.I)
"""What a doubt is about when it names the thing asked by a pronoun or its own noun ("I don't know it off by heart",
"don't know the number", "can't remember the new one")."""


def late_refusal(text: str, f: Any) -> str | None:
    """ "Her GP said they'd sent a referral over last week but I've no idea what the number is": a doubt at the
    start of a later clause, about the thing the field asked names ("what the number is" to the referral voucher
    number). `refusal` only reads a doubt near the start of a sentence, where a story before it is no risk."""
    from .words.match import STOPWORDS, stem  # late: keeps this module light
    asked = {stem(w) for w in re.findall(r"[a-z]+", f"{f.name.replace('_', ' ')} {f.description}".lower())} - STOPWORDS
    for m in _CLAUSE_START.finditer(text):
        clause = text[m.end():]
        found = _REFUSAL.match(clause) or _DOUBTER.match(clause)
        lead = found.end() if found and found.re is not _REFUSAL else 0
        doubt = _REFUSAL.match(clause, lead)
        if doubt is None:
            continue
        after = clause[doubt.end():]
        if _ABOUT_IT.match(after) and {stem(w) for w in re.findall(r"[a-z]+", after.lower())} & asked:
            return doubt.group(0)
        named = _IT_NAMED.match(after) if re.match(r"(?:i\s+)?(?:do\s+not|don'?t|dont|can'?t|cannot|can\s+not|couldn'?t)\s",
                                                   doubt.group(0), re.I) else None
        if named is None or (named.group("noun") is not None and stem(named.group("noun")) not in asked):
            continue
        before = text[:m.start()]
        if not re.search(r"\d", before) and not re.search(r"\b[A-Z][a-z'’-]+\s+[A-Z][a-z'’-]+", before):
            return doubt.group(0)  # "it's on a letter at home, I don't know it off by heart"; no value given before
    return None


_PLEA = re.compile(r"^(?:(?:so|and|please|hi|hello|hey)[,\s]+)*(?:(?:can|could|would|will)\s+you|are\s+you\s+able\s+to|"
                   r"is\s+it\s+possible\s+to)\s+(?:please\s+)?(?:(?:help|assist)(?:\s+me)?(?:\s+(?:with|on)\s+"
                   r"(?:this|that|it|my\s+\w+))?|(?:check|look|sort|see\s+to|follow\s+up)(?:\s+(?:on|into|out|up\s+on))?"
                   r"\s+(?:this|that|it))(?:\s+(?:for\s+me|please))*\s*[?.!]*$|"
                   r"^(?:please\s+)?help(?:\s+me)?(?:\s+please)?[.!?]*$|"
                   r"^i\s+need\s+(?:some\s+)?help(?:\s+please)?[.!?]*$", re.I)


_REQUEST_ONLY = re.compile(
    r"^(?:(?:hi|hello|hey|so|yes|ok|okay)[,!.\s]+)*(?:i\s+(?:need|want|would\s+like)|i\s*'d\s+like|i'?m\s+(?:calling|writing|"
    r"here)|i\s+am\s+(?:calling|writing|here))\s+(?:to|about)\s+(?:report|file|make|submit|open|start|raise|log)?"
    r"[^.!?]{0,40}[.!?]*$", re.I)


_VAGUE_TROUBLE = re.compile(
    r"^(?:(?:hi|hello|hey|so|yes|ok|okay|um|well)[,!.\s]+)*(?:i\s+(?:have|'?ve\s+got|got|am\s+having|need\s+help\s+with)|"
    r"i'?m\s+having|there'?s|there\s+is|we\s+have)\s+(?:a|an|some|one)?\s*(?:small\s+|little\s+|big\s+)?"
    r"(?:problem|issue|trouble|question|concern)s?\s+(?:with|about|regarding|on)\s+(?:my|the|our|an?)\s+[\w'-]+"
    r"(?:\s+[\w'-]+)?[.!]*$|"
    r"^(?:(?:hi|hello|hey|so|um|well)[,!.\s]+)*something(?:'?s|\s+is)\s+(?:wrong|not\s+right|off|up)\s+with\s+"
    r"(?:my|the|our)\s+[\w'-]+(?:\s+[\w'-]+)?[.!]*$", re.I)


def request_only(sentence: str) -> bool:
    """ "I need to report fraud": says which task, not what happened (too short to be the story itself).
    "I have a problem with my card" names the thing, not what is wrong with it: not the story either."""
    said = normalise(sentence)
    return _REQUEST_ONLY.match(said) is not None or _VAGUE_TROUBLE.match(said) is not None


def plea(text: str) -> bool:
    """ "Can you help me with this?", "can you check on it?": asks for help, not for information."""
    return _PLEA.match(normalise(text)) is not None


# ---------------------------------------------------------------- same as before

_REFERENT = (r"(?P<what>previous(?:\s+one)?|last(?:\s+(?:one|time))?|before|earlier|other(?:\s+one)?|"
             r"first(?:\s+one)?|\"[^\"]+\"|'[^']+'|[\w ]{1,30}?)")
_SAME_AS = re.compile(r"\b(?:the\s+)?same\s+(?:(?P<field>(?!as\b)[\w' ]{1,30}?)\s+)?as\s+"
                      r"(?:the\s+|for\s+the\s+|that\s+(?:of|for)\s+|the\s+one\s+for\s+|for\s+|in\s+the\s+|with\s+the\s+)?"
                      + _REFERENT + r"(?=[.!?,]|$)|"
                      r"^(?:(?:and|also|just|oh)[,\s]+)*(?:the\s+)?same(?:\s+(?P<field2>(?!again\b|thing\b|one\b|please\b)"
                      r"[\w' ]{1,30}?))?(?:\s+(?:one|again|thing))?(?:\s+please)?"
                      r"(?:,?\s+(?:too|as\s+well|again))?[.!]*$", re.I)


def same_as(text: str) -> tuple[str, str, str] | None:
    """(matched words, what it refers to, field words) for "same as the previous one", "same time as before".

    What it refers to is "previous", "first" or a quoted name; the field words ("time") say which
    field to copy when it is not the one just asked.
    """
    m = _SAME_AS.search(normalise(text))
    if not m:
        return None
    what = (m.group("what") or "previous").strip().strip("\"'")
    generic = re.match(r"^(previous|last|before|earlier|other|first)(\s+(?:one|time))?$", what, re.I)
    field = (m.group("field") or m.group("field2") or "").strip()
    return m.group(0), ("previous" if generic and not what.lower().startswith("first") else
                        "first" if generic else what), field


# ---------------------------------------------------------------- changes of mind, special requests

_CHANGE = re.compile(r"\b(?:change|changing|update|switch|modify|correct|(?<!\bcant\s)(?<!n't\s)(?<!\bcannot\s)(?<!\bwont\s)"
                     r"(?<!\bcouldnt\s)make\s+it|make\s+that|instead|actually|"
                     r"rather|move\s+it|move\s+the|push\s+it|can\s+we\s+do|can\s+i\s+do|let's\s+do|should\s+be|"
                     r"not\s+\w+\s+but|i\s+meant|i\s+mean|sorry|on\s+second\s+thoughts?|changed?\s+my\s+mind|"
                     r"(?:let'?s|we'?ll|i'?ll)\s+(?:go\s+with|take|have)|"
                     r"(?:would|will|'d|'ll)\s+(?:be|work|suit\s+(?:us|me))\s+better|(?:works|suits\s+(?:us|me))\s+better|"
                     r"(?:would|'d)\s+(?:be|work)\s+best|"
                     r"(?<=[a-z0-9]\s)then(?=\s*(?:$|[,.!;]))|(?<![a-z']\s)go\s+(?:with|for)(?=\s+\d))\b", re.I)
"""(The last two: "ok a hack then", "private then, I'd be nervous in a group": a choice settled on after a thought;
"45 or 46... go with 46": a number settled on. "go with the dunlop" is left to the rules that choose a row.)"""


def change_marker(text: str) -> str | None:
    """The words that mark a change: the first of the last sentence that has any ("hmm actually we're away
    saturday. make it mon 15/7": the change is said after the reason; "I meant the 26th, sorry, the friday after": one
    sentence, its first marker)."""
    body = normalise(text)
    found = list(_CHANGE.finditer(body))
    if not found:
        return None
    ends = [m.end() for m in re.finditer(r"[.!?]+\s+", body)]
    last = [m for m in found if not any(m.start() < e <= found[-1].start() for e in ends)]
    return last[0].group(0)


_CHANGE_TO = re.compile(r"\b(?:change|update|set|switch|make|correct|modify)\s+(?P<what>[\w' /-]{1,60}?)\s+"
                        r"(?:to|as|into|=)\s+(?P<value>.+?)[.!?]*$", re.I)


_IS_NOW = re.compile(r"\b(?:my|the|our|its|their)\s+(?P<what>[\w' /-]{1,40}?)\s+(?:is|was|should\s+be|needs\s+to\s+be)"
                     r"\s+(?:actually\s+|really\s+|now\s+)?(?P<value>[^,;]+?)[.!?]*$", re.I)


def change_to(text: str) -> tuple[str, str] | None:
    """("the grade type for CS 224N", "credit/no credit") from "change the grade type for CS 224N to ...".

    With a change marker, "sorry, the course is CS 229M" names the field and its new value too.
    """
    body = normalise(text)
    m = _CHANGE_TO.search(body)
    if m:
        return m.group("what"), m.group("value")
    m = _IS_NOW.search(body) if change_marker(body) else None
    return (m.group("what"), m.group("value")) if m else None


_REQUEST = re.compile(
    r"^(?:(?:and|also|oh|please)[,\s]+)*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:also\s+)?"
    r"(?:tell|let)\s+them(?:\s+know)?(?:\s+that)?|(?:please\s+)?(?:tell|let)\s+them(?:\s+know)?(?:\s+that)?|"
    r"(?:please\s+)?(?:add\s+a\s+note|note|mention|make\s+sure)(?:\s+that)?|"
    r"(?:can|could)\s+you\s+(?:please\s+)?(?:add\s+a\s+note|note|mention|make\s+sure|ask\s+them|request)"
    r"(?:\s+that)?|(?:i'?d|we'?d|i\s+would|we\s+would)\s+like\s+to\s+request|special\s+request\s*:?)\s+", re.I)
_WE_REQUEST = re.compile(r"^(?:(?:and|also|oh|please)[,\s]+)*(?:can|could|may)\s+we\s+(?:please\s+)?(?P<what>.+)$",
                         re.I)


def special_request(text: str, *, reasons: bool = True) -> tuple[str, str] | None:
    """(trigger words, the request) for "can you tell them it's my birthday" or "can we sit outside"; with
    `reasons`, also a need with its reason ("one of us uses a wheelchair so we need step-free access")."""
    body = normalise(text).rstrip("?.! ")
    m = _REQUEST.match(body)
    if m and body[m.end():].strip():
        return m.group(0).strip(), body[m.end():].strip()
    m = _WE_REQUEST.match(body)
    if m:
        return body[: m.start("what")].strip(), f"we would like to {m.group('what').strip()}"
    m = _OCCASION.match(body)
    if m:  # "it's our anniversary": the occasion is what the place should know
        return m.group(0), body
    m = _WE_NEED.match(body)
    if m:  # "oh and we'll need a high chair for the baby": the thing needed
        return body[: m.start("what")].strip(), m.group("what").strip()
    m = _NEED_BECAUSE.match(body) if reasons else None
    if m:  # "one of us uses a wheelchair so we need step-free access": the need with its reason
        return m.group("need").strip(), body
    return None


_ADDENDUM = re.compile(r"^(?P<cue>(?:(?:oh|and|also)[,.!\s]+)*(?:fyi|btw|by\s+the\s+way|just\s+so\s+you\s+know|"
                       r"oh\s+and|one\s+more\s+thing|ps|p\.s\.?)[,:.!\s]+)(?P<what>[a-z].{5,})$|"
                       r"^(?:(?:oh|and|also)[,\s]+)*(?P<what2>[a-z].{5,}?)[,\s]+(?P<cue2>btw|fyi)$", re.I)


def addendum(text: str) -> tuple[str, str] | None:
    """(cue, what is told) for a remark added to an answer: "oh and im allergic to latex", "fyi it started after a
    gig in january", "parking's a nightmare btw". None for a question ("oh and can I get a pump out?")."""
    body = normalise(text).rstrip(".! ")
    m = _ADDENDUM.match(body)
    if not m or "?" in body:
        return None
    what = (m.group("what") or m.group("what2")).strip(" ,")
    if is_question(what) or _INTERROGATIVE_START.match(what):
        return None
    return (m.group("cue") or m.group("cue2")).strip(" ,.:!"), what


_INTERROGATIVE_START = re.compile(r"^(?:can|could|would|will|shall|should|is|are|do|does|did|what|which|when|where|who|"
                                  r"why|how)\b", re.I)


_NEED_BECAUSE = re.compile(r"^(?P<why>[^\d?]{8,}?)[,\s]+(?P<need>so\s+(?:we|i)(?:'ll|\s+will|'d|\s+would)?\s+"
                           r"(?:also\s+)?(?:need|require))\s+(?!(?:it|them|this|that|to)\b)(?P<what>[^\d?]+)$", re.I)
"""A reason and the thing it needs, in one sentence with no number (a number is an answer, not a request); "..., so
I need it to graduate" says why, and needs nothing of the place."""


_WE_NEED = re.compile(r"^(?:(?:and|also|oh|please|great|ok|okay|perfect|btw|by\s+the\s+way)[,.!\s]+)*(?:we|i)"
                      r"(?:'ll|\s+will|'d|\s+would)?\s+(?:also\s+)?(?:need|require)\s+"
                      r"(?P<what>(?:an?|some|the)\s+.+)$", re.I)


_OCCASION = re.compile(r"^(?:(?:oh|and|also|btw|by\s+the\s+way)[,\s]+)*(?:it'?s|its|it\s+is)\s+(?:our|my|his|her|"
                       r"their)\s+(?:\w+'s\s+)?(?:\d+\w*\s+)?(?:birthday|anniversary|honeymoon|graduation|"
                       r"retirement|engagement|celebration)\b.*$", re.I)


# ---------------------------------------------------------------- choosing a reported row

_CHOICE = re.compile(r"\b(?:the\s+)?(?P<ord>" + "|".join(sorted(ORDINALS, key=len, reverse=True)) +
                     r"|last)\b(?:\s+[a-z]+)?|"
                     r"\b(?:number|option|no\.?|#)\s*(?P<num>\d{1,2})\b|"
                     r"^(?:the\s+)?(?P<bare>\d{1,2})(?:\s+please)?[.!]*$",
                     re.I)


_NOT_A_CHOICE = re.compile(r"\w+\s+(?:time|times|thing|things|of\s+all|off)\b", re.I)
"""An ordinal before these is no row: "for the first time", "first thing", "first of all", "first off"."""


def _adverbial(said: str, m: re.Match[str]) -> bool:
    """ "I'll decide with my wife first", "for the first time", "first of all": an ordinal that chooses no row."""
    if not m.group("ord"):
        return False
    at = m.start("ord")
    return bool(_NOT_A_CHOICE.match(said[at:])) or (
        not re.match(r"the\s", m.group(0), re.I) and re.match(r"\w+\s*(?:[,.;!?]|$)", said[at:]) is not None
        and len(re.findall(r"[a-z']+", said[:m.start()], re.I)) >= 2)


def choice_index(text: str, n_rows: int) -> tuple[int, str] | None:
    """(0-based row index, matched words) for "2", "the second one", "option 3", "the last one"."""
    said = normalise(text)
    m = next((m for m in _CHOICE.finditer(said) if not _adverbial(said, m)), None)
    if not m:
        return None
    if m.group("ord"):
        word = m.group("ord").lower()
        index = n_rows - 1 if word == "last" else ORDINALS[word] - 1
    else:
        index = int(m.group("num") or m.group("bare")) - 1
    return (index, m.group(0)) if 0 <= index < n_rows else None


# ---------------------------------------------------------------- small talk

_CHAT_WORDS = frozenset("""thanks thank you so much very hello hi hey ok okay great cool awesome nice good morning
afternoon evening bye goodbye see ya cheers sounds got it alright perfect wonderful excellent that's that is all
for now no problem welcome lovely appreciate appreciated it fine have a day night bye-bye thx ty there again
helpful was really just looking browsing""".split())
_CHAT_STRONG = frozenset("thanks thank hello hi hey bye goodbye cheers cool awesome great ok okay nice thx ty "
                         "appreciate appreciated wonderful lovely perfect excellent alright morning afternoon "
                         "evening".split())


def chit_chat(text: str, *, after_answer: bool = False) -> str | None:
    """The greeting or thanks when the whole turn is small talk ("thanks", "ok great", "hello").

    After a yes or no, milder words are enough ("no thanks, just looking").
    """
    if re.search(r"\d", text):
        return None  # "ok 4": the number answers; only words are small talk
    ws = re.findall(r"[a-z'-]+", normalise(text).lower())
    if re.search(r"[\d@]", text):
        return None  # "great. 30/01/2007": a number or an address beside the small talk is the answer
    if ws and all(w in _CHAT_WORDS for w in ws) and (after_answer or any(w in _CHAT_STRONG for w in ws)):
        return normalise(text)
    if _SIGH.match(normalise(text)):
        return normalise(text)  # "ugh what a day": how the day went, no story of what happened
    return None


_SIGH = re.compile(r"^\W*(?:(?:ugh+|argh+|oh|man|phew|sigh|wow|jeez|gosh|boy|oof)\b[,.!\s]*)*(?:(?:what|such)\s+an?|"
                   r"(?:it'?s|it\s+has|it'?s\s+been|this\s+has\s+been|i'?ve\s+had)\s+(?:a|such\s+a))\s+"
                   r"(?:(?:long|rough|crazy|busy|tough|bad|hectic|awful|terrible|horrible|stressful|nightmare|"
                   r"mad|weird)\s+)?(?:day|week|morning|afternoon|evening|night|year|month|time)"
                   r"(?:\s+(?:today|already|so\s+far))?\W*$|^\W*(?:ugh+|argh+|sigh|phew|oof)\W*$", re.I)
"""A sigh about the day ("ugh what a day", "it's been a long week"): small talk, not the story of a problem."""


_CLOSING = re.compile(r"^(?:that'?s|that\s+is|this\s+is|it'?s)\s+(?:all|it|everything)(?:\s+(?:for\s+)?now)?[.!]*$|"
                      r"^nothing\s+(?:else|more)[.!]*$", re.I)


def closing(text: str) -> str | None:
    m = _CLOSING.match(normalise(text))
    return m.group(0) if m else None


_NT = r"(?:dont|doesnt|didnt|wont|cant|isnt|arent|wasnt)"  # a negation typed without its apostrophe
_DECLINE = re.compile(r"^\W*(?:no|nope|nah|nothing|none)\b[\s,.!]*(?:(?:thanks|thank\s+you)\b[\s,.!]*(?:.*(?:\b(?:not|"
                      r"no\s+need|nothing|none|" + _NT + r")|n't)\b.*)?|"
                      r"(?:.*(?:\b(?:not|no\s+need|nothing|none|" + _NT + r")|n't)\b.*)|"
                      r"(?:(?:else|really|at\s+all|for\s+now|that'?s\s+all)\b[\s,.!]*)*)$", re.I)
"""To an optional question: "no thanks", "no, it's not a gift", "nope, nothing to add", "nothing, thanks", "none"."""


_NOT_APPLICABLE = re.compile(r"^\W*(?:n\s*/\s*a|n\.a\.?|na|not\s+applicable)\W*$", re.I)
"""Typed on forms for a question that does not apply: "n/a", "N/A", "na"."""


def declines(text: str) -> bool:
    """An answer that declines an optional question (see `_DECLINE`), or says it does not apply ("n/a")."""
    return _DECLINE.match(normalise(text)) is not None or _NOT_APPLICABLE.match(text) is not None


_NEGATED_NOUN = re.compile(r"\b(?:no|not|without|(?:don'?t|do\s+not)\s+(?:have|do|use)|haven'?t\s+got)\s+"
                           r"(?:a\s+|an\s+|any\s+|my\s+)?([a-z]+(?:-[a-z]+)?)", re.I)


_NEGATED_CLAUSE = re.compile(r"\b(?:i|we|he|she|they|it)(?:\s+|'re\s+|'m\s+|'s\s+)(?:(?:don'?t|do\s+not|doesn'?t|does\s+not|"
                             r"didn'?t|aren'?t|isn'?t|am\s+not|are\s+not|is\s+not|never|not|haven'?t|have\s+not)\s+)"
                             r"(?P<rest>(?:[a-z'-]+\s+){0,4}[a-z'-]+)", re.I)
_NEW_VALUE = re.compile(r"\b(?:but|anymore|any\s+more|now|instead|these\s+days|actually|it'?s|its)\b", re.I)


def negates_described(words_of_field: set[str], text: str) -> bool:
    """ "we don't climb with a club" to an optional "The name of your club or team, if you climb with one": a short
    turn with no number in which the speaker (or whom the booking is for) says they are not or do not, and the
    negation reaches, within five words, a word of the field's name or description. An instruction ("don't feed her
    from the table"), a place ("not under the bracket") or a new value ("not with them anymore, I'm with ... now")
    is none of that."""
    from .words.match import same_word, stem  # late: as in `negates_field`

    body = normalise(text)
    if _NEW_VALUE.search(body):
        return False  # "i dont ride with wheelers anymore, im with velo leeds now": a new value, not none
    if len(body.split()) > 14 or re.search(r"\d", body) or "?" in body or any(
            w[:1].isupper() and w not in ("I", "I'm", "I've", "I'd") for w in text.split()[1:]):
        return False  # "The Not So Steady Club": a name, capitalised
    return any(same_word(stem(w), f) for m in _NEGATED_CLAUSE.finditer(body)
               for w in re.findall(r"[a-z]{3,}", m.group("rest").lower()) for f in words_of_field)


def negates_field(words_of_field: set[str], text: str) -> bool:
    """ "no flight, I live here" to an optional flight-number question: the answer negates the field's own word."""
    from .words.match import same_word, stem  # late: words.match is heavier than this module's other needs

    return any(same_word(stem(m.group(1).replace("-", "")), w) for m in _NEGATED_NOUN.finditer(normalise(text))
               for w in words_of_field)  # "I don't do email" (written "e-mail" by `normalise`)
