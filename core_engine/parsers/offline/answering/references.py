"""References shaped like the example a field's description gives ("Your account number, like BL-482913").

The example is the developer's statement of what a value of the field looks like: a token of that shape in the
turn is the field's value wherever it stands ("account number is BL-302211"), and a number of another shape
("the meter says 04512") is not (a wrong value is worse than none: the agent asks again).
"""

from __future__ import annotations

import re

from ....spec.model import Field

_DESCRIBED_REFERENCE = re.compile(r"\b(?P<letters>[A-Z]{1,6})(?P<sep>[-/]?)(?P<digits>\d{3,})\b")
"""An example reference in a field's texts: "Your order number, like HK-1234"."""
_TOKEN = re.compile(r"(?<![\w-])[A-Za-z]{0,6}(?:[-/]|\s(?=\d))?\d{3,}(?![\w-])")
_EXAMPLE = re.compile(r"\b(?:like|e\.g\.?|such as|for example|for instance)[\s:]+([A-Z0-9]+(?:[ -][A-Z0-9]+)*)(?![\w-])")
"""A written example of another shape: "The number plate, like KT19 WRX" (capitals and digits in runs)."""
_RUN = re.compile(r"[A-Z]+|\d+|[ -]")


def _example_layouts(f: Field) -> list[str]:
    """The examples of a field's texts that mix letters and digits in runs the letters-then-digits shape does not
    describe ("KT19 WRX", "AB-12-CD"): their shape is the runs' kinds and lengths, whatever the letters. A token
    of that shape is the value ("it's WP15 RTY" is all of it, not "WP15"); one of another shape is not turned
    away for it ("CS 161" for "for example CS 106A" is still a course code)."""
    return [ex for text in (f.description, *f.examples) for ex in _EXAMPLE.findall(text)
            if re.search(r"[A-Z]", ex) and re.search(r"\d", ex) and not _DESCRIBED_REFERENCE.fullmatch(ex)]


def _layout_pattern(example: str) -> re.Pattern[str]:
    parts = [rf"[A-Za-z]{{{len(r)}}}" if r.isalpha() else rf"\d{{{len(r)}}}" if r.isdigit() else r"[\s-]?"
             for r in _RUN.findall(example)]
    return re.compile(r"(?<![\w-])" + "".join(parts) + r"(?![\w-])")


def _as_example(example: str, typed: str) -> str:
    """ "gf21zpu" written like "KT19 WRX": "GF21 ZPU"."""
    chars, out = iter(c for c in typed.upper() if c.isalnum()), []
    for r in _RUN.findall(example):
        out.append(r if not r.isalnum() else "".join(next(chars) for _ in r))
    return "".join(out)


def reference_shapes(f: Field) -> list[re.Pattern[str]]:
    """The shapes of the example references a field's description and examples give: the same letters, the
    same separator (or none) and about as many digits ("HK-1234" fits "HK-4471", "hk4471", "HK-447" and "HK-44712", not "HK-44"); a single
    letter stands for any letter ("C-214" fits "B-117")."""
    return [re.compile(rf"(?P<letters>{_prefix(m.group('letters'))})(?:{re.escape(m.group('sep'))}|\s)?"
                       rf"(?P<digits>\d{{{_digit_counts(m.group('letters'), len(m.group('digits')))}}})", re.I)
            for text in (f.description, *f.examples) for m in _DESCRIBED_REFERENCE.finditer(text)]


def _digit_counts(letters: str, n: int) -> str:
    """How many digits a value may have: after the business's own prefix ("KH" of "like KH-1234") a digit fewer or up
    to two more (writers of examples round them: "KH-20931" is a reference of that business); after a letter that
    stands for any letter, exactly as many (the shape is all there is to go on)."""
    if len(letters) >= 2 and not _placeholder(letters):
        return f"{max(3, n - 1)},{n + 2}"
    return str(n)


def _prefix(letters: str) -> str:
    """The example's letters as a shape: two or more are the business's own prefix, kept ("JB" of "JB-20417");
    one letter is a block or row that changes from value to value ("C" of "Your unit number, like C-214": "B-117"
    and "a-009" are unit numbers too)."""
    if len(letters) == 1 or _placeholder(letters):
        return f"[A-Za-z]{{{len(letters)}}}"
    return re.escape(letters)


def _placeholder(letters: str) -> bool:
    """Letters that stand for any letters, as writers of examples put them: the alphabet from A ("AB" of
    "like AB1234567", "ABC") or one letter repeated ("XX-1234"): a reference of another prefix ("HT7712004" for "like AB1234567")
    fits them."""
    up = letters.upper()
    return up == "ABCDEFGH"[:len(up)] or len(set(up)) == 1


def _separator(f: Field) -> str:
    m = next((m for text in (f.description, *f.examples) for m in _DESCRIBED_REFERENCE.finditer(text)), None)
    return m.group("sep") if m else ""


def laid_out(f: Field, text: str) -> str | None:
    """The one token of `text` of the layout of the field's written example ("WB5512 Q" for "like WB2291 K")."""
    fits = {_as_example(example, m.group(0)) for example in _example_layouts(f)
            for m in _layout_pattern(example).finditer(text)}
    return fits.pop() if len(fits) == 1 else None


def shaped_reference(f: Field, text: str) -> str | None:
    """The one token of `text` that fits the shape of the field's example reference, as typed; None when the
    field shows no example, or when no token or several different ones fit."""
    shapes = reference_shapes(f)
    fits = set()
    for example in _example_layouts(f):  # "it's WP15 RTY" for "like KT19 WRX": the whole layout first
        fits |= {_as_example(example, m.group(0)) for m in _layout_pattern(example).finditer(text)}
    if len(fits) == 1:
        return fits.pop()
    fits = set()
    exact = set()
    lengths = {len(m.group("digits")) for text in (f.description, *f.examples) for m in _DESCRIBED_REFERENCE.finditer(text)}
    for token in (m.group(0) for m in _TOKEN.finditer(text)):
        for shape in shapes:
            m = shape.fullmatch(token)
            if m:  # a business's reference as typed, letters in capitals ("bk2290" for "like BK-2041" is "BK2290",
                # "kfb 31877" is "KFB 31877": people write one as they see it, the example only says what one looks
                # like); a block and number laid out as the example is ("f122" for "like C-214" is "F-122")
                sep = _separator(f) if len(m.group("letters")) == 1 else token[m.end("letters"):m.start("digits")]
                typed = f"{m.group('letters').upper()}{sep}{m.group('digits')}"
                fits.add(typed)
                if len(m.group("digits")) in lengths:
                    exact.add(typed)
    if len(fits) > 1 and len(exact) == 1:
        fits = exact  # "cl-40117.. no sorry CL-401177" for "like CL-208815": the one of the example's length
    if not fits and any(_SUBJECT_CODE.fullmatch(ex) for ex in _example_layouts(f)):
        fits = {f"{m.group(1).upper()} {m.group(2).upper()}" for m in _TYPED_SUBJECT_CODE.finditer(text)
                if m.group(1).lower() not in _NOT_SUBJECTS and (m.group(1).isupper() or m.end(1) == m.start(2)
                                                                or _LEADS_CODE.fullmatch(text[:m.start()]))}
        # "bio 22. it says ...", "econ 210", "econ101" for "for example ECON 101B"; not "it's 4 rooms not 3"
    return fits.pop() if len(fits) == 1 else None


_SUBJECT_CODE = re.compile(r"[A-Z]{2,8} \d{1,4}[A-Z]{0,2}")
"""An example of a subject's letters, a space and a number ("ECON 101B"): the letters and the number's length vary."""
_TYPED_SUBJECT_CODE = re.compile(r"(?<![\w-])([A-Za-z]{2,4})\s?((?!(?:19|20)\d\d\b)\d{1,4}[A-Za-z]{0,2})(?![\w-])")
"""Two to four letters and a number that is no year ("bio 22", "econ101"); "semester 2", "GCSE 2019" are not."""
_LEADS_CODE = re.compile(r"\W*(?:(?:it'?s|its|it\s+is|the\s+(?:code|course|module)\s+is|code|ok|so|um|er)[\s,:]+)*",
                         re.I)
"""What may come before a code typed in lower case with a space: nothing but a lead-in ("it's econ 210")."""
_NOT_SUBJECTS = frozenset("""at is on in to for the and my me no of by or am pm it we us its was be about around
    after before till until from with than under over jan feb mar apr may jun jul aug sep sept oct nov dec
    january february march april june july august september october november december mon tue wed thu fri sat sun
    room floor year years age aged grade level page step stage week weeks day days hour hours unit units number
    ok okay so um er just only also term gate seat part flat unit block type size pack lot plan tier set row bay
    zone area line bus door desk box team step plot pin code ref tel mob no nr num top""".split())
"""Words before a number that make no code: prepositions, months and days, and counted things ("year 2")."""


def off_shape(f: Field, value: str) -> bool:
    """True when the field shows an example reference and `value` fits none of its shapes, not even as the
    example's digits without its letters ("04512" for "like BL-482913")."""
    shapes = reference_shapes(f)
    if not shapes or any(s.fullmatch(value) for s in shapes):
        return False
    digits = {len(m.group("digits")) for text in (f.description, *f.examples)
              for m in _DESCRIBED_REFERENCE.finditer(text)}
    return not (value.isdigit() and len(value) in digits)
