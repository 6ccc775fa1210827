"""The template response generator: deterministic words for every act.

Asks use the field's description and enum options, confirmations restate the
values, reports render rows and API results readably. No LLM, no randomness:
the same acts and state always give the same text.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from ..spec.model import Field, Spec, inside_sentence, parse_type, past_field, snake_case
from ..dialogue.state import DialogueState, KBRecord, TaskRecord, ref_target
from .rows import NAME_KEYS, money_text, render_row as _render_row

ROW_NAME_KEYS = (*NAME_KEYS, "id")


class TemplateResponder:
    name = "template"

    def respond(self, acts: list[dict[str, Any]], state: DialogueState, spec: Spec,
                utterance: str = "") -> str:
        parts = [self.render(act, state, spec) for act in acts]
        text = "\n\n".join(p for p in parts if p)
        return text or "Is there anything else I can help you with?"

    # ------------------------------------------------------------ acts
    def render(self, act: dict[str, Any], state: DialogueState, spec: Spec) -> str:
        kind = act["act"]
        if kind == "say":
            return str(act["text"])
        if kind == "ask":
            return self.ask(act, state, spec)
        if kind == "confirm":
            f = _field(spec, act["worksheet"], act["field"])
            return f"Just to confirm: {_label(f, act['field'])} is {render_value(act['value'])}. Is that right?"
        if kind == "report":
            return self.report(act, state, spec)
        if kind == "propose":
            return self.proposal(act, spec)
        return ""

    def proposal(self, act: dict[str, Any], spec: Spec) -> str:
        """"Would you like a table reservation at a restaurant (Gondar Kitchen)?": the worksheet's description when it
        is a noun phrase, else its name as a verb phrase; one value by itself, several with their labels."""
        given = {k: v for k, v in act["values"].items() if v not in (None, "", [])}
        if len(given) == 1:
            values = render_value(next(iter(given.values())))
        else:
            values = "; ".join(f"{_short(_label(_field(spec, act['worksheet'], k), k))}: {render_value(v)}"
                               for k, v in given.items())
        ws = spec.worksheet(act["worksheet"])
        description = (ws.description or "").strip().rstrip(".") if ws else ""
        if re.match(r"(?:a|an)\s", description, re.I) and len(description.split()) <= 12:
            head = f"Would you like {description[:1].lower()}{description[1:]}"
        else:
            head = f"Would you like to {_title(act['worksheet'])}"
        return head + (f" ({values})?" if values else "?")

    def ask(self, act: dict[str, Any], state: DialogueState, spec: Spec) -> str:
        f = _field(spec, act["worksheet"], act["field"])
        record = state.get(act["var"])
        if f is None:
            return f"Could you tell me the {act['field'].replace('_', ' ')}?"
        base = parse_type(f.type).base
        if act.get("more"):  # a list field with items: the user ends it by saying that is all
            return f"Anything else to add to {_label(f, f.name)}? If that's all, just say so."
        if isinstance(record, TaskRecord):
            pending = ref_target(record.values.get(f.name))
            kb = state.get(pending) if pending else None
            if isinstance(kb, KBRecord) and kb.result:
                label = _label(f, f.name)
                if _is_wh_clause(label):  # "which dentist you would like to see": ask it, do not wrap it
                    return f"{_sentence(_direct(label))}? Reply with the number or name of one of the results."
                return f"Which one would you like for {_with_article(label)}? Reply with its number or name."
        if base == "confirm":
            ending = "Shall I go ahead and submit this?"
            if act.get("missing") and isinstance(record, TaskRecord):  # a required field was refused
                names = " and ".join(_short(_label(_field(spec, record.worksheet, n), n)) for n in act["missing"])
                ending = f"I can't submit this without {names}. You can give it now, or tell me to stop."
            return self.summary(record, state, spec, hidden=act.get("inactive") or ()) + "\n\n" + ending
        label = _label(f, f.name)
        if _is_direct_question(label):
            question = f"{_sentence(label)}?"
        elif label.split(" ", 1)[0].lower() in _INDEFINITES:  # "anything else we should know": not "the anything"
            question = f"Is there {label[:1].lower() + label[1:]}?"
        elif _is_wh_clause(label) and _direct(label) != label:  # "what you would like to do" -> "What would you ...?"
            question = f"{_sentence(_direct(label))}?"
        else:
            question = f"Could you tell me {_with_article(label)}?"
        if base == "Enum" and f.enum_values:
            question += " The options are: " + ", ".join(e.value for e in f.enum_values) + "."
        elif base in ("bool",):
            said = label if f.description else f.name.replace("_", " ")
            question = (f"Could you tell me {said[:1].lower() + said[1:]}? (yes or no)"
                        if said.split(" ", 1)[0].lower() in ("whether", "if") else f"{_sentence(said)}? (yes or no)")
        elif base == "date":
            question += f" (for example, {_date_example(f)})"
        elif base == "time":
            question += " (for example 7 pm)"
        return _which_record(record, state, spec) + question

    def summary(self, record: Any, state: DialogueState, spec: Spec, hidden: Any = ()) -> str:
        """The values to be submitted; `hidden` (the ask act's `inactive`: `var.field` of fields whose predicate
        is false now) are left out, as the API is not sent them."""
        if not isinstance(record, TaskRecord):
            return "Here is what I have."
        lines = ["Before I submit, please check the details:"]
        lines += _summary_lines(record, state, spec, indent="", hidden=frozenset(hidden))
        return "\n".join(lines)

    def report(self, act: dict[str, Any], state: DialogueState, spec: Spec) -> str:
        if act["kind"] == "api":
            result = act.get("result")
            head = "Here is what I found:" if _LOOKUP.match(str(act.get("api") or "")) \
                else "All done! Your request went through."
            outputs = act.get("outputs")
            if outputs:  # the worksheet's output fields say what the user should hear
                ws_name = getattr(state.get(act["var"]), "worksheet", "")
                details = "\n".join(f"- {_cap(_short(_label(_field(spec, ws_name, k), k)))}: {money_text(k, v) or render_value(v)}"
                                    for k, v in outputs.items())
                return f"{head}\n{details}"
            if isinstance(result, dict):
                details = "\n".join(f"- {_cap(k.replace('_', ' '))}: {money_text(k, v) or render_value(v)}"
                                    for k, v in result.items())
                return f"{head}\n{details}"
            return f"{head} Result: {render_value(result)}"
        rows = act.get("result") or []
        query = act.get("query") or ""
        if act.get("error"):
            return f"I couldn't look up \"{query}\": {act['error']}"
        if not rows:
            note = f" {act['note']}" if act.get("note") else ""
            return f"I couldn't find anything for \"{query}\".{note}"
        note = f" {act['note']}" if act.get("note") else ""  # words no row has, left out: said, not hidden
        if len(rows) == 1:
            return f"Here is what I found for \"{query}\":{note}\n" + render_row(rows[0], None, query, single=True)
        body = "\n".join(render_row(r, i, query) for i, r in enumerate(rows, start=1))
        return f"Here is what I found for \"{query}\":{note}\n{body}"


def _summary_lines(record: TaskRecord, state: DialogueState, spec: Spec, indent: str,
                   hidden: frozenset[str] = frozenset()) -> list[str]:
    ws = spec.worksheet(record.worksheet)
    out: list[str] = []
    if ws is None:
        return out
    for f in ws.fields:
        if f.name not in record.values or parse_type(f.type).base == "confirm" or f"{record.var}.{f.name}" in hidden:
            continue
        value = record.values[f.name]
        target = ref_target(value)
        child = state.get(target) if target else None
        items = [state.get(ref_target(v)) for v in value] if isinstance(value, list) and value \
            and all(ref_target(v) for v in value) else []
        if isinstance(child, TaskRecord):
            out.append(f"{indent}- {_cap(_short(_label(f, f.name)))}:")
            out += _summary_lines(child, state, spec, indent + "  ", hidden)
        elif items and all(isinstance(item, TaskRecord) for item in items):  # a list of records: each by its values
            out.append(f"{indent}- {_cap(_short(_label(f, f.name)))}:")
            for i, item in enumerate(items, start=1):
                said = [line.strip()[2:] for line in _summary_lines(item, state, spec, indent="", hidden=hidden)
                        if line.startswith("- ") and not line.endswith(":")]
                out.append(f"{indent}  {i}. {'; '.join(said) or '(nothing given yet)'}")
        else:
            out.append(f"{indent}- {_cap(_short(_label(f, f.name)))}: {money_text(f.name, value) or render_value(value)}")
    return out


def render_row(row: dict[str, Any], numbered: int | None, question: str = "", single: bool = False) -> str:
    return _render_row(row, numbered, render_value, question, single=single)


def render_value(value: Any) -> str:
    if value is None:
        return "(not given)"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value == "NA":
        return "(declined to give)"
    if isinstance(value, list):
        return ", ".join(render_value(v) for v in value)
    if isinstance(value, dict):
        if "$ref" in value:
            return value["$ref"]
        for key in ROW_NAME_KEYS:
            if key in value and value[key]:
                return render_value(value[key])
        return "; ".join(f"{k.replace('_', ' ')}: {render_value(v)}" for k, v in value.items())
    if isinstance(value, str):
        try:
            if len(value) == 10 and value[4] == "-":
                d = dt.date.fromisoformat(value)
                return f"{d.strftime('%B')} {d.day}, {d.year}"
            if len(value) == 5 and value[2] == ":":
                t = dt.time.fromisoformat(value)
                suffix = "AM" if t.hour < 12 else "PM"
                hour = t.hour % 12 or 12
                return f"{hour}:{t.minute:02d} {suffix}" if t.minute else f"{hour} {suffix}"
        except ValueError:
            pass
    return str(value)


def _field(spec: Spec, worksheet: str, name: str) -> Field | None:
    ws = spec.worksheet(worksheet)
    return ws.field(name) if ws else None


def _cap(text: str) -> str:
    """The first letter upper case, the rest as written: str.capitalize() would print "like WR-4821" as "like wr-4821"."""
    return text[:1].upper() + text[1:]


def _label(f: Field | None, name: str) -> str:
    if f is not None and f.description:
        return inside_sentence(_second_person(f.description.strip().rstrip(".?")))
    return name.replace("_", " ")


_LOOKUP = re.compile(r"(?:get|check|look|lookup|find|track|search|fetch|show|list|query|read)(?:_|$|[A-Z])|.*status$", re.I)
"""An API whose name starts with a verb of looking up reports what it found, not "your request went through"."""
_EXAMPLE = re.compile(r"\s*(?:[,;(]\s*|\s-\s)(?:like|e\.?\s?g\.?|for\s+example|such\s+as|for\s+instance)\b.*$", re.I)


def _short(label: str) -> str:
    """A label for the summary, without the example its description gives ("The booking reference, like
    DS-20931" -> "The booking reference"): beside the user's own value the example only confuses."""
    return _EXAMPLE.sub("", label) or label


_IRREGULAR = {"has": "have", "is": "are", "was": "were", "does": "do"}
_OF_THE_USER = re.compile(r"\bthe ([a-z]+(?: [a-z]+)?) of the user\b", re.I)
_THE_USER = re.compile(r"\bthe user(?:'s\b|\s+([a-z]+))?", re.I)


def _second_person(text: str) -> str:
    """Descriptions written about "the user" are said to the user: "the task the user wants to do" ->
    "the task you want to do", "the user's email" -> "your email"."""
    def swap(m: re.Match) -> str:
        if m.group(0).lower().endswith("'s"):
            return "your"
        word = m.group(1)
        if word is None:
            return "you"
        low = word.lower()
        if low in _IRREGULAR:
            return f"you {_IRREGULAR[low]}"
        if low.endswith("s") and not low.endswith("ss") and len(low) > 3:
            return f"you {word[:-1]}"
        return f"you {word}"
    text = _OF_THE_USER.sub(lambda m: f"your {m.group(1)}", text)  # "the name of the user" -> "your name"
    return _THE_USER.sub(swap, text)




_WH = ("what", "which", "when", "where", "who", "whom", "whose", "why", "how")
_DETERMINERS = ("the", "a", "an", "your", "any", "some", "my", "our", "their", "his", "her", "its", "if", "whether",
                *_WH)


def _which_record(record: Any, state: DialogueState, spec: Spec) -> str:
    """"Now for the address we deliver to (your new home). ": a record whose parent holds two of its kind (a
    collection and a delivery address) is named when its first question is asked; both were asked in the same
    words, so the user could not tell the agent had moved on to the other one (a blind-set writer's note)."""
    if not isinstance(record, TaskRecord) or not record.parent or not record.parent_field:
        return ""
    if any(v not in (None, "", []) for v in record.values.values()):
        return ""
    parent = state.get(record.parent)
    ws = spec.worksheet(parent.worksheet) if isinstance(parent, TaskRecord) else None
    if ws is None or sum(parse_type(g.type).worksheet == record.worksheet for g in ws.fields) < 2:
        return ""
    held = ws.field(record.parent_field)
    if held is None:
        return ""
    return f"Now for {_with_article(_label(held, held.name))}. "


_INDEFINITES = ("anything", "something", "anyone", "someone", "anybody", "somebody", "anywhere", "somewhere")


def _with_article(label: str) -> str:
    """"promo code" -> "the promo code"; a description that starts with its own determiner or a wh-word keeps
    it, lowercased mid-sentence ("A promotion code, if you have one" -> "a promotion code, ...")."""
    first, _, rest = label.partition(" ")
    if first.lower() in _DETERMINERS:
        return f"{first.lower()} {rest}" if rest else first.lower()
    if first.lower().endswith("ly") and rest.split(" ", 1)[0].lower() in _DETERMINERS:  # "Roughly what it is worth"
        return f"{first.lower()} {rest}"
    return f"the {label}"


_AUX = ("would", "do", "does", "did", "is", "are", "was", "were", "can", "could", "should", "will", "shall",
        "may", "might", "have", "has")


_SUBJECTS = ("you", "i", "we", "they", "it", "this", "there")


def _is_direct_question(label: str) -> bool:
    """A description already phrased as a question ("what would you like to do today", "do you have a
    preference"): asked as it is, since "Could you tell me what would you like..." is not English."""
    words = label.lower().split()
    if not words:
        return False
    if words[0] in _AUX and len(words) > 1 and words[1] in _SUBJECTS:
        return True
    if words[0] in _WH and len(words) > 2 and words[1] in _SUBJECTS and words[2] in _AUX:
        return False  # "what you would like to do": a clause, not a question (see _direct)
    return words[0] in _WH and any(w in _AUX for w in words[1:3])


def _is_wh_clause(label: str) -> bool:
    return label.lower().split(" ", 1)[0] in _WH


def _direct(label: str) -> str:
    """"which dentist you would like to see" -> "which dentist would you like to see" (a direct question)."""
    if _is_direct_question(label):
        return label
    words = label.split()
    for i in range(1, len(words) - 1):
        if words[i].lower() in ("you", "i", "we") and words[i + 1].lower() in _AUX:
            return " ".join(words[:i] + [words[i + 1], words[i]] + words[i + 2:])
    return label


def _sentence(text: str) -> str:
    text = text.strip().rstrip(".?")
    return text[:1].upper() + text[1:]


def _title(name: str) -> str:
    return snake_case(name).replace("_", " ")


def _date_example(f: Field) -> str:
    """An example of the date asked, in words (a fixed date would soon be in the past): a birth date with its year,
    another past date back from today, else a date to come."""
    if re.search(r"\b(?:birth|born|dob)\b", f"{f.name.replace('_', ' ')} {f.description}", re.I):
        return "14 March 1990"
    return "last Monday or 3 March" if past_field(f) else "next Friday or 14 March"
