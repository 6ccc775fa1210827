"""Words as people type them, read as the words they stand for: "id like", "dont", "wanna", "can u", "my pin's 4417".

The rules read the restored text; the (restored, as typed) pairs let a value keep the user's own spelling
(`TurnReader.emit` puts it back in the statements).
"""

from __future__ import annotations

import re

_BARE_CONTRACTIONS = re.compile(
    r"\b(?:(?P<id>id)(?=\s+(?:like|love|prefer|rather|want|need|be)\b)|(?P<im>im)(?=\s+[a-z])|"
    r"(?P<neg>dont|doesnt|didnt|cant|couldnt|wouldnt|shouldnt|isnt|arent|wasnt|werent|havent|hasnt|wont)|"
    r"(?P<wh>whats|hows|wheres|whos))\b", re.I)


_LABEL_IS = re.compile(r"\b((?:my|the|our|your)\s+[a-z]+)'s(?=\s+\d)", re.I)


def restore_apostrophes(text: str) -> tuple[str, list[tuple[str, str]]]:
    """Contractions typed without their apostrophe, where the bare word means nothing else: "id like" -> "i'd like",
    "im" -> "i'm", "dont" -> "don't", "whats" -> "what's" ("its", "thats", "ill", "were" are words of their own).
    Spoken forms are spelled out too ("wanna" -> "want to", "dunno" -> "don't know").
    Returns the text for the rules to read and the (restored, as typed) pairs, so values keep the user's spelling."""
    pairs: list[tuple[str, str]] = []

    def fix(m: re.Match) -> str:
        w = m.group(0)
        new = w[0] + "'" + w[1:] if m.group("id") or m.group("im") else w[:-1] + "'" + w[-1]  # "dont" -> "don't"
        pairs.append((new, w))
        return new
    def labelled(m: re.Match) -> str:  # "my pin's 4417": the label and its number, "is" contracted
        pairs.append((f"{m.group(1)} is", m.group(0)))
        return f"{m.group(1)} is"
    def spoken(m: re.Match) -> str:  # "wanna" -> "want to"
        new = _SPOKEN[m.group(0).lower()]
        new = new[0].upper() + new[1:] if m.group(0)[0].isupper() else new
        pairs.append((new, m.group(0)))
        return new
    def greeting(m: re.Match) -> str:  # "hiya", "heyy", "howdy" -> "hi"
        pairs.append(("hi", m.group(0)))
        return "hi"
    text = _LABEL_IS.sub(labelled, text)
    text = _SPOKEN_RE.sub(spoken, text)
    text = _GREETING_FORMS.sub(greeting, text)
    return _BARE_CONTRACTIONS.sub(fix, text), pairs


_SPOKEN = {"wanna": "want to", "gonna": "going to", "gotta": "got to", "lemme": "let me", "gimme": "give me",
           "dunno": "don't know", "pls": "please", "plz": "please", "u": "you", "ur": "your", "gr8": "great",
           "thx": "thanks", "thanx": "thanks", "tmrw": "tomorrow", "tmr": "tomorrow",
           "2moro": "tomorrow", "2day": "today", "b4": "before", "l8r": "later"}
_SPOKEN_RE = re.compile(r"\b(?:(?i:wanna|gonna|gotta|lemme|gimme|dunno|pls|plz|gr8|thx|thanx|tmrw|tmr|2moro|2day|b4|"
                        r"l8r)|u|ur)\b(?![.'-]\w)")
"""("u" and "ur" only in lower case, as texted: "can u get me a table"; "U.S." and codes are left alone.)"""

_GREETING_FORMS = re.compile(r"(?i:^(?:hiya+|heya+|hii+|hey{2,}|hell?o{2,}|helo|hullo|hallo|howdy|hey\s+ya|hi\s+ya|"
                             r"g'?day|greetings|yo)(?=[\s,.!]|$))")
"""A greeting as people type it at the start of a turn ("hiya", "heyy", "hullo") is read as "hi", the greeting
every rule knows; a value later in the turn is never touched."""
