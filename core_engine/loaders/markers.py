"""Removing the reference implementation's call markers from action code.

The authors' sheets write `>say("...")` for a built-in and `@submit(...)` for an
API call. Our sandbox runs plain Python, so the marker is dropped where it starts
a statement: after indentation, after `;`, or after the `:` of a one-line
compound statement (`if self.confirm == False: >say("...")`). A scanner, not a
regex, so markers inside strings, comments and brackets are left alone.
"""

from __future__ import annotations

MARKERS = ">@"


def strip_action_markers(code: str) -> str:
    """`>say("x")` -> `say("x")`; anything that is not a statement-start marker is kept."""
    if not any(m in code for m in MARKERS):
        return code
    out: list[str] = []
    i, n = 0, len(code)
    depth = 0  # bracket nesting: a `:` inside brackets is a slice or dict, not a block
    quote = ""  # the delimiter of the string literal we are in, if any
    at_start = True  # only whitespace since the start of a statement
    while i < n:
        ch = code[i]
        if quote:
            if ch == "\\":
                out.append(code[i : i + 2])
                i += 2
                continue
            if code.startswith(quote, i):
                out.append(quote)
                i += len(quote)
                quote = ""
                continue
            if ch == "\n" and len(quote) == 1:
                quote = ""  # an unterminated one-line string ends with its line
            else:
                out.append(ch)
                i += 1
                continue
        if ch == "#":
            end = code.find("\n", i)
            end = n if end < 0 else end
            out.append(code[i:end])
            i = end
            continue
        if ch == "\\" and code.startswith("\n", i + 1):
            out.append("\\\n")  # explicit line continuation: same statement
            i += 2
            continue
        if ch == "\n":
            out.append(ch)
            i += 1
            at_start = at_start or depth == 0
            continue
        if ch in " \t\r\f":
            out.append(ch)
            i += 1
            continue
        if at_start and depth == 0 and ch in MARKERS:
            j = i + 1
            while j < n and code[j] in " \t":
                j += 1
            if j < n and (code[j].isalpha() or code[j] == "_"):
                i = j  # drop the marker and the blanks after it
                at_start = False
                continue
        if ch in "\"'":
            quote = ch * 3 if code.startswith(ch * 3, i) else ch
            out.append(quote)
            i += len(quote)
            at_start = False
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        at_start = depth == 0 and ch in ":;"
        out.append(ch)
        i += 1
    return "".join(out)
