"""Rules that read the user's own words by meaning, through the spec's semantic index.

They run where the lexical rules found nothing: a task described in other words ("my IB
scores never showed up"), an enum answer in other words, and conversation control that
every agent understands with no spec work (cancel, never mind, start over, switching task).
Each decision records its score and the runner-up in its trace entry; a reading that does
not clear its threshold, or does not beat a different reading by the margin, is not taken
(a wrong value is worse than none).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

from ....spec.model import Field, Worksheet, snake_case
from ....dialogue.state import TaskRecord, ref_target
from .match import (CATCH_ALL, HEDGES, STOPWORDS, Bag, content_stems, equalities, field_mention, field_stems, same_word,
                    silent_e, stem)
from ..intents import is_question, sentences, task_request
from ..opening.tasks import literal, match_worksheet, open_activated, open_worksheet, reachable
from .libvalues import find_phones
from .values import find_dates, find_emails, find_times, yes_no
from .negation import without_negated
from ..changes.leaving import HOLD_BACK, leaves_task
from ..parts.option_words import numbers_disagree
from .semantic_index import (CONTROL_MARGIN, CONTROL_THRESHOLD, ENUM_MARGIN, FIELD_DOUBT, ENUM_THRESHOLD, TASK_MARGIN,
                             TASK_THRESHOLD, Entry, Ranked, SemanticIndex, clean, words_of)

if TYPE_CHECKING:
    from ..parser import TurnReader

_LEAD = (r"^(?:(?:oh|ok(?:ay)?|actually|sorry|no|wait|hmm|hm|um|uh|ugh|argh|ah|eh|meh|geez|jeez|well|so|honestly|"
         r"right|alright|all\s+right|fine|erm|er|look|listen|"
         r"you\s+know\s+what|just|please)[,.!\s]+)*")
_CANCEL_PHRASE = (r"(?:cancel(?:\s+(?:it|that(?:\s+one)?|this(?:\s+one)?|everything|the\s+whole\s+thing))?|stop(?:\s+(?:it|this|that))?|"
                  r"never\s?mind|nevermind|forget\s+(?:it|about\s+it|that|this)|quit|abort|"
                  r"i\s+(?:don'?t|do\s+not)\s+want\s+(?:it|this|that|to\s+do\s+this)(?:\s+any\s?more)?|"
                  r"i\s+(?:don'?t|do\s+not|no\s+longer)\s+(?:want|need)\s+to\s+"
                  r"(?!(?:share|say|tell|give|provide|answer|disclose|reveal|talk|go\s+into)\b)[a-z]+(?:\s+(?:it|this|that|one))?"
                  r"(?:\s+any\s?more|\s+after\s+all)?|scrap\s+(?:it|that|this)|call\s+it\s+off|drop\s+it|"
                  r"(?:don'?t|do\s+not)\s+bother|i\s+changed\s+my\s+mind)(?:\s+(?:then|for\s+now|after\s+all))?")
_ELSEWHERE = (r"(?:[\s,.!;]+(?:i'?ll|i\s+will|i'?m\s+going\s+to|i\s+am\s+going\s+to|i'?d\s+rather|i\s+(?:can|could|might))"
              r"\s+(?:just\s+)?(?:go|call|phone|ring|come\s+back|do\s+it|try|sort\s+it|handle\s+it|deal\s+with\s+it|"
              r"visit|ask|check|email|write|pop\s+in|stop\s+by|fix|repair|figure|manage|look|sort|wait|think|leave\s+it|"
              r"decide|talk|discuss|sleep\s+on\s+it|have\s+a\s+think|keep\s+(?:it|them|mine)|"
              r"book\s+(?:it\s+)?later|try\s+again|[a-z]+\s+(?:it|them|that)\s+(?:myself|ourselves))\b[^?]{0,60})?")
"""A plan to do it another way or later after the cancel ("never mind, I'll go to the branch", "... I'll photograph it
myself when I'm in"): still a cancel."""
_ASKED_TO = r"(?:(?:can|could)\s+(?:you|u)\s+(?:please\s+|just\s+)?)?"
"""A cancel asked as a favour ("can you cancel this one"): a request, not a question to answer."""
_CANCEL = re.compile(_LEAD + _ASKED_TO + _CANCEL_PHRASE + r"(?:[\s,.!;]+" + _CANCEL_PHRASE + r")*" + _ELSEWHERE +
                     r"(?:\s*,?\s*(?:please|thanks|thank\s+you|sorry|anyway|then))?[\s.!?]*$", re.I)
# "never mind, cancel the booking": a cancel with an object naming the task (unless the agent has a cancel task)
_CANCEL_OBJECT = re.compile(_LEAD + r"(?:" + _CANCEL_PHRASE + r"[\s,.!;]+)*(?:please\s+)?(?:cancel|stop|forget\s+about)"
                            r"\s+(?:the|my|this|that|our|your)\s+(?!.*\b(?:and|instead|but|then|so|or)\b)"
                            r"[a-z][a-z'-]*(?:\s+[a-z][a-z'-]*){0,2}"
                            r"(?:\s*,?\s*(?:please|thanks|thank\s+you|sorry))?[\s.!]*$", re.I)
_RESTART = re.compile(_LEAD + r"(?:start\s+(?:over|again|from\s+scratch)|let'?s\s+start\s+(?:over|again)|restart|"
                      r"reset|begin\s+again)(?:\s*,?\s*please)?[\s.!]*$", re.I)
_SLIP = r"(?:wait|hang\s+on|hold\s+on)[,.!\s]+(?:no|sorry)|no[,.!\s]+wait"
_SLIP_CUE = re.compile(rf"\b(?:{_SLIP})\b", re.I)
"""A slip ("oh wait no", "hang on, sorry"): a switch cue only when the turn gives no value of the task in progress
("oh wait no, I need to change the pickup time to 10" corrects the booking)."""
_SWITCH = re.compile(r"\b(?:actually|instead|rather|change\s+of\s+plans?|different\s+thing|something\s+else|"
                     + _SLIP + r"|what\s+i\s+(?:really\s+|actually\s+)?(?:need|want)\s+is|"
                     r"(?:never\s?mind|forget)\s+(?:that|this|it|the\s+\w+)\s*[,.;]\s*(?=\w+\s+\w+\s+\w+))\b", re.I)
"""A change of task: "actually", "instead", "oh wait no", "what I really need is ...", "never mind that, <another
request>"."""
_LEAVING = re.compile(r"\b(?:bye|goodbye|good\s+bye|see\s+you|thanks\s+anyway|thank\s+you\s+anyway|never\s?mind)\b", re.I)
"""A goodbye said to "do you want me to stop?": the user is leaving, so the task stops."""
CONTROL_MARK = "control"
"""Key of the say act by which the agent asked "do you want to stop ...?" (read back next turn)."""


def index(reader: "TurnReader") -> SemanticIndex:
    idx = reader.view.index()
    if idx.fallback_reason and not any(r["rule"] == "semantic-fallback" for r in reader.rules):
        reader.note("semantic-fallback", "", reason=idx.fallback_reason)
    return idx


# ---------------------------------------------------------------- conversation control

def current_task(reader: "TurnReader") -> TaskRecord | None:
    """The task the user is doing: the root of the record just asked about, else the latest active root."""
    if reader.expect is not None:
        rec = reader.expect.rec
        chain = [rec, *reader.state.ancestors(rec)]
        return chain[-1]
    roots = [r for r in reader.state.tasks() if r.parent is None and r.status == "active"]
    roots.sort(key=lambda r: (r.initiator == "user", reader.state.tasks().index(r)))
    return roots[-1] if roots else None


def holds_values(reader: "TurnReader", rec: TaskRecord) -> bool:
    for key, value in rec.values.items():
        child = reader.state.get(ref_target(value) or "")
        if isinstance(child, TaskRecord):
            if holds_values(reader, child):
                return True
        elif value is not None:
            return True
    return False


_COURTESY = re.compile(r"\b(?:thanks|thank\s+you|thx|ta|cheers|please|pls|ok|okay|mate|love)\b", re.I)
"""Words of courtesy after a yes or no ("yes, thanks"): they add nothing to the answer."""


def control_rule(reader: "TurnReader", text: str) -> bool:
    """Cancel / never mind / start over (and the yes or no to "do you want to stop?")."""
    pending = next((a for a in reader.acts if a.get(CONTROL_MARK)), None)
    if pending is not None and _LEAVING.search(text) and yes_no(text) is None:
        rec = reader.state.get(pending.get("var", ""))  # "thanks anyway, bye" to "do you want me to stop?": yes
        if isinstance(rec, TaskRecord):
            _exit(reader, rec, pending[CONTROL_MARK], text, confirmed=True)
            return True
    if pending is not None:
        yn = yes_no(text)
        if yn is not None and (not _COURTESY.sub("", yn[2]).strip(" ,.!?") or _intent(reader, yn[2]) == pending[CONTROL_MARK]):
            rec = reader.state.get(pending.get("var", ""))
            if yn[0] and isinstance(rec, TaskRecord):
                _exit(reader, rec, pending[CONTROL_MARK], yn[1], confirmed=True)
            else:
                reader.note("control-kept", yn[1], reason="the user chose to go on with the task")
            return True
    if _CANCEL.match(text) and _confirming_a_cancel(reader):
        e = reader.expect
        reader.assign("confirm-yes", text, e.rec, e.field, True, confirm_field=True,
                      reason="a cancel said to the summary of a cancellation: it is confirmed")
        reader.answered = True
        return True  # "ok well cancel it anyway" to the summary of Cancel Order
    intent = _intent(reader, text)
    parts = sentences(text)
    if intent is None and len(parts) > 1 and (not is_question(parts[-1]) or _CANCEL.match(parts[-1])) and \
            not any(is_question(p) or task_request(p) for p in parts[:-1]):
        intent = _intent(reader, parts[-1])  # "oh no, I'm away that week. never mind, cancel it": the reason first
    return intent is not None and _control(reader, text, intent, {})


def _intent(reader: "TurnReader", text: str) -> str | None:
    intent = "restart" if _RESTART.match(text) else "cancel" if _CANCEL.match(text) else None
    if intent == "cancel" and _BOTHER.search(text) and _yes_no_asked(reader):
        return None  # "nah don't bother" to "shall I text you a reminder?": a no to that question, not a cancel
    if intent is None and _CANCEL_OBJECT.match(text) and not _has_cancel_task(reader):
        intent = "cancel"
    if intent is None and (m := _CANCEL_PLAN.match(text)) and plan_elsewhere(reader, m.group("plan")):
        intent = "cancel"
    if intent is None and _task_in_progress(reader) and not _no_to_flag(reader, text) \
            and leaves_task(text, lambda clause: plan_elsewhere(reader, clause), yes_no_asked=_yes_no_asked(reader)) \
            and not _answers_asked(reader, text):  # the cheap test first: most turns say nothing of leaving
        intent = "cancel"  # "let me check with my partner first and I'll ring back": the task is left for now
    if intent == "cancel" and _summary_asked(reader) and HOLD_BACK.search(text):
        return None  # "nah actually leave it for now" to the summary: a no to it, the task kept (not a cancel)
    if intent == "cancel" and _CANCEL_SAID.search(text) and (_cancel_is_an_option(reader) or _cancel_asked(reader)):
        return None  # "actually, just cancel it" while moving an appointment whose action may be Cancel: that option
        # ("never mind", "forget it", "stop" still leave the task)
    return intent


def _answers_asked(reader: "TurnReader", text: str) -> bool:
    """The turn holds a value for the typed field asked ("just me for now, I'll ring back if ...": one driver), a
    date or a time anywhere, or answers a free-text question (a note "come back later if the gate's locked"): then
    it is no leave, whatever else it says."""
    e = reader.expect
    if find_dates(text, reader.today) or find_times(text):
        return True
    if e is None or e.act != "ask":
        return False
    kind = reader.view.kind_of(e.field)
    if kind == "str":
        from ..answering.slots import shape  # late: slots imports this module's callers
        return shape(e.field) == "text" and not _CANCEL_WORDS.search(text)  # a note, unless it drops the task
    if kind in ("int", "float", "date", "time", "Enum"):
        return reader.answers.value_for(e.field, text) is not None
    return False


_CANCEL_WORDS = re.compile(r"\b(?:forget|scrap|cancel|drop|never\s?mind|nevermind|stop|leave\s+it)\b", re.I)


def _task_in_progress(reader: "TurnReader") -> bool:
    """A task other than the start worksheet's choice is being filled."""
    rec = current_task(reader)
    start = reader.spec.start_worksheet()
    return rec is not None and (start is None or rec.worksheet != start.name)




_BOTHER = re.compile(r"\bbother\b", re.I)


def _summary_asked(reader: "TurnReader") -> bool:
    """The agent shows a summary and asks whether to go ahead."""
    e = reader.expect
    return e is not None and (e.act == "confirm" or reader.view.kind_of(e.field) == "confirm")


def _yes_no_asked(reader: "TurnReader") -> bool:
    """The agent's question is a yes/no one (a flag, a confirmation, "anything else?")."""
    e = reader.expect
    return e is not None and (e.act in ("confirm", "more") or reader.view.kind_of(e.field) in ("bool", "confirm"))


_NO_FIRST = re.compile(r"\W*(?:no|nah|nope|naw|not\s+really|no\s+thanks?|no\s+ta)\b", re.I)


def _no_to_flag(reader: "TurnReader", text: str) -> bool:
    """A turn that opens with a no to a yes/no field asked ("nah leave it, it all goes in our green bin" to "shall we
    take the cuttings away?"): "leave it" or "forget it" after the no says what to do with that thing, not that the
    task stops. (To the summary or a cancel question the same words still leave the task.)"""
    e = reader.expect
    return e is not None and e.act == "ask" and reader.view.kind_of(e.field) == "bool" and bool(_NO_FIRST.match(text)) \
        and not _WHOLE_TASK.search(text)


_WHOLE_TASK = re.compile(r"\b(?:whole|everything|all\s+of\s+it|booking|call\s+(?:you\s+)?back|ring\s+(?:you\s+)?back|"
                         r"come\s+back|later|another\s+time|too\s+long|waste|ages|hassle|bother|any\s?more)\b", re.I)
"""Words that make "no, leave it" a stop of the task after all: "no, leave it, I'll call back", "nah, forget the whole
thing", "no, forget it, this is taking far too long"."""


_CANCEL_PLAN = re.compile(_LEAD + _CANCEL_PHRASE + r"[\s,.!;]+(?:(?:i|we)'?ll|(?:i|we)\s+will|i'?m\s+going\s+to|"
                          r"i\s+am\s+going\s+to|we'?re\s+going\s+to|we\s+are\s+going\s+to|(?:i|we)'?d\s+rather|"
                          r"(?:i|we)\s+think\s+(?:i|we)'?ll)\s+(?P<plan>[a-z][^?\d]{0,80}?)[\s.!]*$", re.I)
"""A cancel followed by a plan in any words ("forget it, I'm going to cook for her at home instead")."""


_FUNCTION = frozenset("what who how when where which why you your yours that this there them they the and for with "
                      "from have has had tell".split())


def plan_elsewhere(reader: "TurnReader", plan: str) -> bool:
    """A plan that names nothing of the agent: no word of its worksheets' names, fields or options, no KB value, no
    date or time. "I'll take the Thai place instead" or "I'll do Friday instead" name something the agent has, so
    they are no cancel; "I'm going to cook at home instead" is."""
    if find_dates(plan, reader.today) or find_times(plan):
        return False
    own: set[str] = set()
    for ws in reader.spec.worksheets:
        own |= {stem(w) for w in snake_case(ws.name).split("_") if len(w) > 2}
        for f in ws.fields:
            own |= {stem(w) for w in f.name.split("_") if len(w) > 2}
            own |= {stem(w) for v in f.enum_values for w in words_of(v.value).split() if len(w) > 2}
    from ....knowledge.vocab import fold, vocabulary_for  # late: the parser loads without a KB too

    # a function word is no name of the agent's ("what" of the field "what_happened" in "tell you what")
    said = [w for w in re.findall(r"[a-z]+", plan.lower()) if len(w) > 2 and w not in HEDGES and w not in _FUNCTION]
    if {stem(w) for w in said} & own:
        return False
    kb = getattr(reader.ctx, "kb", None)
    if kb is None:
        return True
    vocab = vocabulary_for(kb)
    return not any(fold(w) in t.by_word for w in said for t in vocab.tables.values())


def _own_option_said(reader: "TurnReader", current: TaskRecord, text: str) -> bool:
    """The turn says, as a verb with "it"/"this"/"that" after it, a one-word option of the current task's own field
    that the field does not hold ("just cancel it" while the action is Reschedule)."""
    ws = reader.spec.worksheet(current.worksheet)
    for f in ws.fields if ws is not None else []:
        held = current.values.get(f.name)
        if f.kind != "input" or f.type != "Enum" or not isinstance(held, str):
            continue
        for ev in f.enum_values:
            if len(ev.value.split()) == 1 and ev.value != held and re.search(
                    rf"\b{re.escape(ev.value.lower())}\s+(?:it|this|that|the\s+\w+)\b", text.lower()):
                return True
    return False


def _confirming_a_cancel(reader: "TurnReader") -> bool:
    """The agent asks to confirm a task that cancels something (its worksheet's name says so)."""
    e = reader.expect
    if e is None or e.act != "ask" or reader.view.kind_of(e.field) != "confirm":
        return False
    return bool(re.search(r"cancel", snake_case(e.rec.worksheet), re.I))


_CANCEL_SAID = re.compile(r"\bcancel\s+(?:it|this|that|the\s+\w+)\b", re.I)


def _cancel_asked(reader: "TurnReader") -> bool:
    """The agent asks for an option of a field that has a cancel option ("what would you like to do with the walk?"):
    "could you cancel it please" chooses it."""
    e = reader.expect
    return e is not None and e.act == "ask" and e.field.type == "Enum" and any(
        re.match(r"cancel\b", v.value, re.I) for v in e.field.enum_values)


def _cancel_is_an_option(reader: "TurnReader") -> bool:
    """The task in progress holds another option of a field that has a cancel option ("Reschedule" of an action
    that may be "Cancel"): a cancel said now chooses that option."""
    rec = current_task(reader)
    if rec is None:
        return False
    for r in [rec, *[c for c in reader.view.live_records() if rec in reader.state.ancestors(c)]]:
        ws = reader.view.worksheet(r)
        for f in ws.fields if ws is not None else []:
            held = r.values.get(f.name)
            if f.kind == "input" and f.type == "Enum" and isinstance(held, str) and held.lower() != "cancel" \
                    and any(v.value.lower() == "cancel" for v in f.enum_values):
                return True
    return False


def _has_cancel_task(reader: "TurnReader") -> bool:
    """An agent whose own tasks cancel things ("Cancel Order") reads "cancel my order" as that task."""
    texts = [ws.name for ws in reader.spec.worksheets] + [
        v.value for ws in reader.spec.worksheets for f in ws.fields for v in f.enum_values]
    return any(re.search(r"cancel", re.sub(r"([a-z])([A-Z])", r"\1 \2", t), re.I) for t in texts)


_AGREEING = re.compile(r"\W*(?:(?:oh|ah|yeah|yes|ok|okay)[\s,.!]+)?(?:it'?s|its|that'?s|thats|that\s+is|it\s+is|all|"
                       r"that'?ll\s+be|that\s+will\s+be)\s+(?:ok|okay|fine|alright|all\s+right|good|grand|great)"
                       r"(?:\s+(?:thanks|thank\s+you|now|then|really|with\s+me|by\s+me))*\W*|\W*no\s+(?:worries|problem)\W*",
                       re.I)


def semantic_control(reader: "TurnReader", text: str) -> bool:
    """Control said in other words ("let's drop the whole thing"), tried only when no rule read the turn:
    a short turn whose best reading is a control intent, clearly, and no task reading is plausible."""
    if len(text.split()) > 6 or yes_no(text) is not None or _SWITCH.search(text) or _AGREEING.fullmatch(text.strip()):
        return False  # "its ok", "that's fine": agreement, however near "never mind" it reads
    ranked = index(reader).rank(clean(text), lambda e: e.kind in ("control", "task", "enum"))
    if ranked.best is None or ranked.best.kind != "control" or not ranked.decided(CONTROL_THRESHOLD, CONTROL_MARGIN) \
            or ranked.runner_score >= TASK_THRESHOLD:
        return False
    return _control(reader, text, ranked.best.value, ranked.trace())


_GENERIC_TASK_NAMES = {"main", "start", "root", "task", "form", "request"}


def task_words(reader: "TurnReader", worksheet: str) -> str:
    """A task in words for the agent's question: its name, or for a start worksheet with a generic name
    ("Main") its description ("fraud report from an authenticated customer"), not "this main"."""
    what = snake_case(worksheet).replace("_", " ")
    ws = reader.spec.worksheet(worksheet)
    if what not in _GENERIC_TASK_NAMES or ws is None or not ws.description.strip():
        return what
    said = re.sub(r"^(?:a|an|the)\s+", "", ws.description.strip().rstrip("."), flags=re.I)
    return said[:1].lower() + said[1:]


def _control(reader: "TurnReader", text: str, intent: str, how: dict[str, Any]) -> bool:
    rec = current_task(reader)
    if rec is None:
        reader.note("control-nothing", text, intent=intent, reason="no task is in progress")
        return True
    if holds_values(reader, rec):  # issue 12: a cancel is confirmed when the task holds values, at the summary too
        what = task_words(reader, rec.worksheet)
        verb = "start over" if intent == "restart" else "stop"
        reader.note(f"control-{intent}", text, var=rec.var, **how,
                    reply=f"Do you want me to {verb} with this {what}? What you told me so far will be "
                          f"dropped. (yes or no)", reply_meta={CONTROL_MARK: intent, "var": rec.var})
        return True
    _exit(reader, rec, intent, text, confirmed=False, **how)
    return True


def _exit(reader: "TurnReader", rec: TaskRecord, intent: str, words: str, *, confirmed: bool, **how: Any) -> None:
    reader.emit(f"control-{intent}", words, f"exitws({rec.var})", confirmed=confirmed, **how)
    _clear_trigger(reader, rec, intent, words)
    if intent == "restart" or reader.spec.start_worksheet() is not None and \
            rec.worksheet == reader.spec.start_worksheet().name:
        var = reader.state.new_var(snake_case(rec.worksheet))
        reader.emit(f"control-{intent}", words, f"{var} = {rec.worksheet}()")


def _clear_trigger(reader: "TurnReader", rec: TaskRecord, intent: str, words: str) -> None:
    """The value that opened the exited task (`user_task == "Book Restaurant"`) is cleared too: left set, the
    predicate still holds and the agent would open the same task again at once."""
    ws = reader.spec.worksheet(rec.worksheet)
    if ws is None or intent == "restart":
        return
    for path, value in equalities(ws.predicate):
        field = path[-1]
        for other in reader.state.tasks():
            if other is rec or other.status != "active" or other.values.get(field) != value:
                continue
            reader.emit(f"control-{intent}", words, f"{other.var}.{field} = None", reason="it opened the exited task")


# ---------------------------------------------------------------- tasks by meaning

def _path(reader: "TurnReader", entry: Entry) -> dict[str, str]:
    """field -> value the entry implies: its own enum value and the equalities of the predicates on its way."""
    ws = reader.spec.worksheet(entry.worksheet)
    out: dict[str, str] = {}
    if ws is None:
        return out
    sources = [ws.predicate]
    f = ws.field(entry.field) if entry.field else None
    if f is not None:
        sources.append(f.predicate)
    for src in sources:
        for path, value in equalities(src):
            if isinstance(value, str):
                out[path[-1]] = value
    if entry.kind == "enum":
        out[entry.field] = entry.value
    return out


def lexical_overruled(reader: "TurnReader", text: str, chosen: dict[str, Any]) -> dict[str, Any] | None:
    """The semantic reading, when it clearly names another option of a field that one word chose lexically
    ("a safety check" for a bike: "check" is a word of "Check Repair", but the turn means booking a repair)."""
    ranked = rank_tasks(reader, text)
    entry = ranked.best
    if entry is None or not ranked.decided(TASK_THRESHOLD, TASK_MARGIN):
        return None
    implied = implied_path(reader, entry)
    clash = {k: v for k, v in chosen.items() if k in implied and implied[k] != v}
    return {"reading": entry.label, **ranked.trace(), "overruled": clash} if clash else None


def implied_path(reader: "TurnReader", entry: Entry) -> dict[str, str]:
    """What the entry implies (`_path`), and the option of the task it is nested in ("a kids' bike" of a
    repair booking implies the booking task)."""
    implied = _path(reader, entry)
    root = reader.spec.worksheet(task_roots(reader).get(entry.worksheet, entry.worksheet))
    for path, value in equalities(root.predicate if root is not None else ""):
        if isinstance(value, str):
            implied.setdefault(path[-1], value)
    for src in _predicates_above(reader, entry.worksheet):
        for path, value in equalities(src):
            if isinstance(value, str):
                implied.setdefault(path[-1], value)
    return implied


def _predicates_above(reader: "TurnReader", worksheet: str) -> list[str]:
    """The predicates of the fields that hold `worksheet` and its parents, up to the top: a nested worksheet written
    without a predicate of its own (`Main.exam_credit: ExamCredit` when `self.request == "Exam Credit"`) is reached
    through its field's, as the policy reaches it. The paper's CSV layout repeats them on the worksheet instead."""
    out: list[str] = []
    seen = {worksheet}
    while True:
        holder = next(((ws, f) for ws in reader.spec.task_worksheets() for f in ws.fields
                       if f.type.split("[")[-1].strip("]") == worksheet and ws.name not in seen), None)
        if holder is None:
            return out
        ws, f = holder
        out += [f.predicate or "", ws.predicate or ""]
        worksheet = ws.name
        seen.add(worksheet)


def task_roots(reader: "TurnReader") -> dict[str, str]:
    """worksheet -> the top-level task worksheet it is nested in (itself for a top-level one)."""
    parent: dict[str, str] = {}
    for ws in reader.spec.task_worksheets():
        for f in ws.fields:
            base = f.type.split("[")[-1].strip("]")
            if reader.spec.worksheet(base) is not None and reader.spec.worksheet(base).kind == "task":
                parent.setdefault(base, ws.name)
    out = {}
    for ws in reader.spec.task_worksheets():
        name, seen = ws.name, set()
        while name in parent and name not in seen:
            seen.add(name)
            name = parent[name]
        out[ws.name] = name
    return out


def _conflict(reader: "TurnReader", roots: dict[str, str], a: Entry, b: Entry, *, coarse: bool = False) -> bool:
    """Two readings that cannot both be meant: another value of a field on their paths, or two independent
    top-level tasks (no predicate links them). `coarse` compares the tasks only: an option inside an
    activated worksheet (its size, its reason) does not count."""
    pa, pb = _signature(reader, roots, a), _signature(reader, roots, b)
    if coarse:
        for entry, sig in ((a, pa), (b, pb)):
            ws = reader.spec.worksheet(entry.worksheet)
            if entry.kind == "enum" and ws is not None and ws.predicate.strip():
                sig.pop(entry.field, None)
    return any(k in pb and pb[k] != v for k, v in pa.items())


def _signature(reader: "TurnReader", roots: dict[str, str], entry: Entry) -> dict[str, str]:
    sig = dict(_path(reader, entry))
    root = reader.spec.worksheet(roots.get(entry.worksheet, entry.worksheet))
    if root is not None and not root.predicate.strip():
        sig["$task"] = root.name
    return sig


def deeper_hints(reader: "TurnReader", ws: Worksheet, text: str, overlay: dict[str, dict[str, Any]]
                 ) -> dict[str, tuple[str, list[str]]] | None:
    """A worksheet opened by the words ("my AP credit never showed up" opens External Test Credits, Missing or
    Incorrect Record): the option below it that the turn means, when the reading by meaning is decided, lies
    inside that worksheet and agrees with every value already read. A trace note records score and runner-up."""


    tree = {w.name for w in [ws, *reachable(reader, ws)]}
    ranked = rank_tasks(reader, text)
    entry = ranked.best
    if entry is not None and (entry.kind != "enum" or entry.worksheet not in tree) and tree - {ws.name}:
        inside = _inside_option(reader, ws, tree, text)
        if inside is not None:
            ranked, entry = inside, inside.best
    if entry is None or entry.kind != "enum" or entry.worksheet not in tree or entry.worksheet == ws.name \
            or not ranked.decided(TASK_THRESHOLD, TASK_MARGIN):
        return None
    if CATCH_ALL.match(entry.value or ""):
        return None  # "I have a class problem" is close to "Other Class Issues" because it names no
        # kind at all: the option for the rest is meant only when the user says it is none of the others
    said = {k: v for values in overlay.values() for k, v in values.items()}
    path = _path(reader, entry)
    if any(k in said and said[k] != v for k, v in path.items()):
        return None
    reader.note("deeper-option", ranked.text, reading=entry.label, **ranked.trace(),
                reason="the option below the one the words named, by meaning")
    return {k: (v, [ranked.text]) for k, v in path.items()}


def _inside_option(reader: "TurnReader", ws: Worksheet, tree: set[str], text: str) -> Ranked | None:
    """ "a speedboat smashed into our hull on the pontoon, i need to report damage": the turn is nearest the task it
    asks for, which is open now; the clauses that say none of the task's own words, ranked among the options
    inside the task alone (not its own fields'), when one clearly wins."""
    own = _task_words(reader, ws)
    rest = ", ".join(c.strip() for c in _CLAUSE.split(clean(text)) if c.strip() and not set(content_stems(c)) & own)
    if len([w for w in content_stems(without_values(reader, rest)) if w not in HEDGES]) < 2:
        return None
    inside = rank_tasks(reader, rest, keep=lambda e: e.kind == "enum" and e.worksheet in tree - {ws.name})
    return inside if inside.best is not None and inside.decided(TASK_THRESHOLD, TASK_MARGIN) else None


def inside_hints(reader: "TurnReader", ws: Worksheet, text: str, overlay: dict[str, dict[str, Any]]
                 ) -> dict[str, tuple[str, list[str]]]:
    """A task opened by a reading that names nothing inside it ("the gale tore the sails and snapped the mast", a task's
    example): the option inside it that the turn's other clauses mean (`_inside_option`), as hints."""
    tree = {w.name for w in [ws, *reachable(reader, ws)]}
    inside = _inside_option(reader, ws, tree, text) if tree - {ws.name} else None
    if inside is None:
        return {}
    said = {k: v for values in overlay.values() for k, v in values.items()}
    path = _path(reader, inside.best)
    if any(k in said and said[k] != v for k, v in path.items()):
        return {}
    reader.note("deeper-option", inside.text, reading=inside.best.label, **inside.trace(),
                reason="the option inside the task the turn opened, by meaning")
    return {k: (v, [inside.text]) for k, v in path.items()}


def rank_tasks(reader: "TurnReader", text: str, *, coarse: bool = False,
               keep: Callable[[Entry], bool] | None = None, keep_options: bool = False) -> Ranked:
    """Task readings of the turn. Names of KB rows and values ("the Urbanline Laptop Backpack") are left out:
    they say what the task is about, not which task, and they dilute the sentence's meaning."""
    roots = task_roots(reader)
    records = _record_types(reader)
    shared = shared_options(reader, roots)
    keep = keep or (lambda e: (e.kind == "enum" and e not in shared)  # noqa: E731
                    or (e.kind == "task" and e.worksheet not in records))
    same = lambda a, b: not _conflict(reader, roots, a, b, coarse=coarse)  # noqa: E731
    verbatim = index(reader).said_verbatim(text, keep, same=same)
    if verbatim is not None:
        return verbatim  # the developer's own example, said word for word
    whole = without_values(reader, without_kb_terms(reader, clean(text), keep_options=keep_options))
    parts = [whole, *(clean(p) for p in _CLAUSE.split(whole) if len(p.split()) >= 3)] \
        if len(whole.split()) > 12 else [whole]
    if len(parts) == 1 and len(whole.split()) > 6:  # "repeat order of my dailies please. It's Marek Nowak, DOB 85":
        said = [clean(p) for p in re.split(r"(?<=[.!?])\s+", whole) if len(p.split()) >= 3]  # each sentence too
        parts += said if len(said) > 1 else []
    if len(parts) < 3:
        return index(reader).rank_parts(parts, keep, same=same)
    clauses = list(dict.fromkeys(p.strip() for p in parts[1:] if p.strip()))
    each = index(reader).rank_each(clauses, keep, same=same)
    strong = [(c, r) for c, r in zip(clauses, each) if r.best is not None and r.score >= TASK_THRESHOLD]
    if len({root_of(reader, roots, r.best) for _c, r in strong}) > 1:
        # "we're moving house at the end of the month and need somewhere to put the contents of our flat": two
        # clauses read as two tasks; the one that asks for something ("need", "want", "can I") is the request
        asked = [(c, r) for c, r in strong if _WANTS_CLAUSE.search(c) and content_stems(c)]  # not "can you do that?"
        if len({root_of(reader, roots, r.best) for _c, r in asked}) == 1:
            return max((r for _c, r in asked), key=lambda r: r.score)
        top = max((r for _c, r in strong), key=lambda r: r.score)
        other = max((r for _c, r in strong if not same(top.best, r.best)), key=lambda r: r.score, default=None)
        if other is not None:
            return Ranked(top.best, top.score, top.text, other.best, other.score)  # unclear: nothing is guessed
    return index(reader).rank_parts(parts, keep, same=same)


_WANTS_CLAUSE = re.compile(r"\b(?:need|want|would\s+like|'d\s+like|looking\s+for|after|(?:can|could|may)\s+(?:i|we|you))\b",
                           re.I)


def shared_options(reader: "TurnReader", roots: dict[str, str]) -> set[Entry]:
    """Options whose value belongs to more than one top-level task ("House" as the property of a call-out and
    of a survey): naming one says nothing about which task is meant, so they do not rank tasks, except those of
    a task already open; they still fill the field once the task is known."""
    entries = [e for e in dict.fromkeys(index(reader).entries) if e.kind == "enum"]
    owners: dict[str, set[str]] = {}
    for e in entries:
        owners.setdefault(e.value.casefold(), set()).add(roots.get(e.worksheet, e.worksheet))
    open_now = {roots.get(r.worksheet, r.worksheet) for r in reader.state.tasks() if r.status == "active"}
    return {e for e in entries if len(owners[e.value.casefold()]) > 1  # the open task's own option still counts
            and roots.get(e.worksheet, e.worksheet) not in open_now}


def root_of(reader: "TurnReader", roots: dict[str, str], entry: Entry) -> str:
    """The top-level task an entry's reading leads to (the start worksheet's option: the task it opens)."""
    path = implied_path(reader, entry)
    start = reader.spec.start_worksheet()
    for ws in reader.spec.task_worksheets():
        if start is not None and ws.name == start.name:
            continue
        if all(path.get(p[-1]) == v for p, v in equalities(ws.predicate)) and equalities(ws.predicate):
            return roots.get(ws.name, ws.name)
    return roots.get(entry.worksheet, entry.worksheet)


def _record_types(reader: "TurnReader") -> set[str]:
    """Worksheets that are only the type of one (not a list) field of another worksheet, with no API of their own
    (`BikeDetails` of `bike: BikeDetails`): a record inside a task, never a task asked for. Their texts ("The bike
    brought in.") would compete with the tasks for every turn that names the thing ("is my bike ready?"); their
    options still count."""
    spec = reader.spec
    single: dict[str, int] = {}
    listed: set[str] = set()
    for ws in spec.worksheets:
        for f in ws.fields:
            if f.type.startswith("List["):
                listed.add(f.type[5:].rstrip("]"))
            elif spec.worksheet(f.type) is not None:
                single[f.type] = single.get(f.type, 0) + 1
    return {name for name, n in single.items() if name not in listed and not spec.worksheet(name).api
            and spec.worksheet(name).kind == "task"}


_CLAUSE = re.compile(r"[.,;!?]\s+|\s+(?:and|but|so)\s+", re.I)


def without_values(reader: "TurnReader", text: str) -> str:
    """The turn without dates, times, e-mails and phone numbers (with their lead-in word): values say
    nothing about which task is meant, and in a long turn they dilute its meaning."""
    spans = find_dates(text, reader.today) + find_times(text) + find_emails(text) + find_phones(text)
    for span in sorted(spans, key=lambda sp: -sp.start):
        text = text[:span.start] + " " + text[span.end:]
    text = re.sub(r"\b(?:on|at|for|by|with|is)\s+(?=[,.;!?]|$)", "", text)
    text = re.sub(r"\b(?:with|on|at)\s+it\b", "", text)
    return re.sub(r"\s+", " ", text).strip(" ,") or text


def without_kb_terms(reader: "TurnReader", text: str, *, keep_options: bool = False) -> str:
    """KB names and values replaced by "it" (naming the row type instead turns searches into requests).
    `keep_options` keeps the ones that are also words of the spec's options ("cctv" of "CCTV Installation")."""
    if reader.ctx.kb is None:
        return text
    noun = "it"
    terms = sorted(reader.vocabulary.found_in(text, reader.ctx.kb), key=len, reverse=True)
    options = _option_words(reader) if keep_options else set()
    for term in terms:
        if len(term) >= 4 and not set(term.casefold().split()) <= options:
            text = re.sub(rf"(?i)\b{re.escape(term)}\b", "\x00", text)
    text = re.sub(r"(?:\x00[\s,]*)+", "\x00 ", text)
    text = re.sub(r"\b(?:the|a|an)\s+\x00", "\x00", text)
    return re.sub(r"\s+", " ", text.replace("\x00", noun)).strip()


def _option_words(reader: "TurnReader") -> set[str]:
    """The lower-cased words of the spec's option values."""
    return {w for e in index(reader).entries if e.kind == "enum" for w in e.value.casefold().split()}


def semantic_task(reader: "TurnReader", text: str, *, threshold: float = TASK_THRESHOLD,
                  margin: float = TASK_MARGIN) -> bool:
    """A task (or an option that selects one) described in the user's own words.

    A turn that is only values and hedges ("around 6.30 pm") describes nothing: with the values gone, a word
    such as "around" alone still lands near some option's text, and a wrong value is worse than none."""
    if not [w for w in content_stems(without_values(reader, clean(text))) if w not in HEDGES]:
        return False
    ranked = rank_tasks(reader, text)
    if ranked.best is None or _frame_only(reader, ranked, clean(text)):
        return False
    roots = task_roots(reader)
    asked = requested_task(reader, text)
    if asked is not None and (ranked.score < threshold or root_of(reader, roots, ranked.best) != asked) \
            and not any(r.status == "active" for r in reader.state.of_worksheet(asked)):
        by_verb = Ranked(Entry("task", asked), ranked.score if root_of(reader, roots, ranked.best) == asked else 0.0,
                         asked, ranked.best, ranked.score)
        reader.note("task-by-verb", text, reading=asked, **by_verb.trace(),
                    reason="the turn asks with a verb of this task's name and of no other's")
        return apply_reading(reader, by_verb, text, "task-semantic", asked_for=True)  # "I want to reserve some vitamin D"
    if asked is not None and ranked.score >= threshold and threshold <= TASK_THRESHOLD and \
            root_of(reader, roots, ranked.best) == asked and not ranked.decided(threshold, margin) and \
            (ranked.runner_up is None or root_of(reader, roots, ranked.runner_up) != asked) and \
            not _runner_words(reader, ranked, text) and \
            not any(r.status == "active" for r in reader.state.of_worksheet(asked)):
        reader.note("task-by-verb", text, reading=ranked.best.label, **ranked.trace(),
                    reason="the nearest reading is close to the runner-up, but the turn asks with the verb of its "
                           "task's name, which the runner-up's lacks")
        return apply_reading(reader, ranked, text, "task-semantic", asked_for=True)  # "ok can I book the install"
    told = _said_option_reading(reader, ranked, text, roots) if threshold <= TASK_THRESHOLD else None
    if told is not None:  # "can i get my septum done": nearest "I'm ready to get it done", but Septum is named
        if not apply_reading(reader, told, text, "task-semantic", asked_for=True):
            return False
        reader.note("task-option-said", text, reading=told.best.label, **told.trace(),
                    reason="the turn asks for this task by an option of it, named word for word and in no other "
                           "task's texts, and says none of the nearer reading's own words")
        return True
    if ranked.score < threshold:
        return threshold <= TASK_THRESHOLD and (_option_named(reader, ranked, text, roots)
                                                 or _deep_option(reader, ranked, text))
    by_verb = _by_verb(reader, ranked, text, roots)
    if by_verb is not None:  # "i want to cancel my boiler service": nearest the booking's example, but it cancels
        reader.note("task-by-verb", text, reading=by_verb.best.label, **by_verb.trace(),
                    reason="the turn says the verb of the runner-up's task name, which the nearer task's name lacks")
        return apply_reading(reader, by_verb, text, "task-semantic")
    if ranked.runner_up is not None and ranked.runner_score >= threshold \
            and root_of(reader, roots, ranked.best) != root_of(reader, roots, ranked.runner_up):
        swapped = Ranked(ranked.runner_up, ranked.runner_score, ranked.runner_up.label, ranked.best, ranked.score)
        told = _told_apart(reader, swapped, text)
        if told:  # "I'd like to move my class" is nearest "can I get a place on a class", but only the other has "move"
            reader.note("task-told-apart", text, reading=swapped.best.label, words=sorted(told), **swapped.trace(),
                        reason="the nearer reading has none of the turn's words that only the runner-up has")
            return apply_reading(reader, swapped, text, "task-semantic")
    if threshold > TASK_THRESHOLD and not ranked.decided(threshold, margin):
        return False  # a stricter reading (a wh-question) that is not clear stays a question
    if not ranked.decided(min(threshold, TASK_THRESHOLD), max(margin, TASK_MARGIN)):
        coarse = rank_tasks(reader, text, coarse=True)
        if coarse.best is not None and coarse.best.kind == "enum" and coarse.decided(TASK_THRESHOLD, TASK_MARGIN):
            # "order one tee in small": One Size or S is unclear, but both are options of the same task
            task = Entry("task", coarse.best.worksheet)
            return apply_reading(reader, Ranked(task, coarse.score, coarse.text, coarse.runner_up,
                                                coarse.runner_score), text, "task-semantic")
        if _option_named(reader, ranked, text, roots):
            return True
        told = _told_apart(reader, ranked, text)
        if told:  # "I can't do my lesson on thursday, can it be moved?": only one reading has "move"
            applied = apply_reading(reader, ranked, text, "task-semantic")
            if applied:
                reader.note("task-told-apart", text, reading=ranked.best.label, words=sorted(told), **ranked.trace(),
                            reason="two readings are close, but the turn has words only the first one's texts have")
            return applied
        if _deep_option(reader, ranked, text):
            return True
        named = _name_said(reader, ranked, text)
        if named is not None:  # "Can I book a berth for next week please": Book Berth by its name, in full
            reader.note("task-name-said", text, reading=named.best.label, **named.trace(),
                        reason="two readings are close, but the turn says every word of one's name and not the other's")
            return apply_reading(reader, named, text, "task-semantic")
        by_name = _task_word_said(reader, ranked, text, roots)
        if by_name is not None:  # "Our certificate of incorporation needs an apostille": Apostille Request's word
            applied = apply_reading(reader, by_name[0], text, "task-semantic")
            if applied:
                reader.note("task-name-word", text, reading=by_name[0].best.label, words=sorted(by_name[1]),
                            **by_name[0].trace(), reason="two readings of different tasks are close, but the turn says "
                            "a word of one task's name and none of the other's")
            return applied
        reader.note("task-uncertain", text, reading=ranked.best.label, **ranked.trace(),
                    reason="two readings are close; nothing is guessed",
                    say=f"Sorry, I'm not sure what you would like: {_phrase(ranked.best)} or "
                        f"{_phrase(ranked.runner_up)}?" if ranked.runner_up else None)
        return False
    return apply_reading(reader, ranked, text, "task-semantic")


_VERB_WORDS = {"cancel": "cancel cancelling cancelled cancellation", "change": "change changing reschedule rearrange amend move",
               "reschedule": "reschedule rearrange move moving change changing", "refund": "refund refunded", "exchange": "exchange swap",
               "track": "track tracking trak", "renew": "renew renewal", "reorder": "reorder repeat", "return": "return",
               "report": "report reporting", "claim": "claim", "freeze": "freeze pause", "transfer": "transfer"}
_VERBS = {stem(k): {stem(w) for w in v.split()} for k, v in _VERB_WORDS.items()}
VERB_STEMS = _VERBS
"""The verbs that name what a task does to a thing (Cancel Visit, Change Appointment), with the everyday words for
them, as stems."""


def _name_verb(name: str) -> str | None:
    """The verb a task's name starts with ("cancel" of CancelVisit), when it is one of `_VERBS`."""
    first = words_of(name).split()[:1]
    verb = stem(first[0].lower()) if first else None
    return verb if verb in _VERBS else None


def verb_task(reader: "TurnReader", text: str) -> str | None:
    """The one top-level task whose name starts with a verb the turn says ("cancel", "reschedule" for Change
    Appointment), else the one whose name has the verb the turn asks with (`requested_task`); None when no task's
    or two tasks' verbs are said."""
    said = set(content_stems(without_values(reader, clean(text))))
    found = []
    for ws in reader.spec.task_worksheets():
        first = _name_verb(ws.name)
        if first is not None and said & _VERBS[first]:
            found.append(ws.name)
    if not found:
        return requested_task(reader, text)
    return found[0] if len(found) == 1 else None


_ASKING = re.compile(r"\b(?:(?:i|we)\s+(?:really\s+|just\s+)?(?:need|want|have|wish)\s+to|(?:i|we)\s*(?:'d|would)\s+"
                     r"(?:like|love)\s+to|(?:can|could|may)\s+(?:i|we|you|u|someone)(?:\s+please)?|"
                     r"(?:wanna|gonna|(?:want|need|looking|trying|hoping)\s+to))\s+(?:just\s+|please\s+)?"
                     r"(?P<verb>[a-z]{3,})(?:\s+(?P<part>up|in|out|off|back|over|down|for|on)\b)?", re.I)
"""The verb a turn asks with: "I need to give up ...", "I'd like to hire ...", "can I renew ..."."""
_PARTICLES = frozenset("up in out off back over down for on".split())
_NO_TASK_VERB = frozenset("get have make take know see ask check find talk speak sort".split())
"""Verbs that ask for almost anything: they tell no task apart even when one task's name has them."""
_LEADING_ONLY = frozenset({"book"})
"""Verbs that name a task only as its name's first word, said as it is: "can i book him in" is Book Lesson, not
Change Booking (nor a Booking Enquiry)."""


def requested_task(reader: "TurnReader", text: str) -> str | None:
    """The one top-level task whose name (or the name of the option that opens it, or a one-word option of its own:
    the "Reschedule" of its action) has the verb the turn asks with ("I need to give up my allotment": Give Up Plot,
    not Apply For Plot; "I'd like to hire ...": Book Hire; "I need to reschedule my class booking": Manage Booking,
    not Book Class). With a
    particle in the name ("give up"), the turn says it too. Worked out once per text and turn (several rules ask)."""
    memo = reader.view.memo.setdefault("requested_task", {})
    if text not in memo:
        memo[text] = _requested_task(reader, text)
    return memo[text]


_HELD_VERBS = frozenset("reschedule cancel change move extend shorten renew upgrade downgrade amend rearrange "
                        "postpone".split())
"""One-word options that act on a thing already held (a booking's action): verbs of its task. "Post" or "Collect"
(how a thing is handed over) are not."""


def _requested_task(reader: "TurnReader", text: str) -> str | None:
    asked = [(stem(m.group("verb").lower()), (m.group("part") or "").lower(), text[m.end():])
             for m in _ASKING.finditer(text) if m.group("verb").lower() not in _NO_TASK_VERB]
    if not asked:
        return None
    roots = task_roots(reader)
    start = reader.spec.start_worksheet()
    found = set()
    for ws in reader.spec.task_worksheets():
        if roots.get(ws.name, ws.name) != ws.name or (start is not None and ws.name == start.name):
            continue
        names = [words_of(ws.name)] + [str(v) for _p, v in equalities(ws.predicate)]
        names += [ev.value for f in ws.fields if f.kind == "input" and f.type == "Enum" and not f.predicate.strip()
                  for ev in f.enum_values if ev.value.lower() in _HELD_VERBS]  # "Reschedule" of a booking's action
        for name in names:
            words = re.findall(r"[a-z]+", name.lower())
            for i, w in enumerate(words):
                nxt = words[i + 1] if i + 1 < len(words) else ""
                for verb, part, after in asked:
                    said = (stem(w) == verb and (verb not in _LEADING_ONLY or (i == 0 and w == verb))) or \
                        (i == 0 and verb in _VERBS.get(stem(w), ()))
                    if said and (nxt not in _PARTICLES or nxt == part) and \
                            _object_of(reader, ws, after, kb=verb not in _LEADING_ONLY) and \
                            not (verb in _LEADING_ONLY and _names_other_task(reader, ws, after)):
                        found.add(ws.name)  # "I need to move my rescue course": Reschedule Booking by "move"
    return next(iter(found)) if len(found) == 1 else None


_OBJECT_FREE = re.compile(r"^\s*(?:with|on|to|at|into|from|about|by|of|in)\b", re.I)
_OBJECT_WORDS = frozenset("it them this that these those one ones mine ours my our his her their the a an some".split())


def _names_other_task(reader: "TurnReader", ws: Worksheet, after: str) -> bool:
    """The words after "book" name another task ("can i book a bike for saturday" while Hire Bike is a task):
    the verb alone does not choose Book Lesson then."""
    said = {stem(w) for w in re.findall(r"[a-z]+", after.lower())[:4] if len(w) > 2}
    return any(said & {stem(w) for w in snake_case(other.name).split("_")[1:]}
               for other in reader.spec.task_worksheets() if other.name != ws.name)


def _object_of(reader: "TurnReader", ws: Worksheet, after: str, *, kb: bool = True) -> bool:
    """What follows the verb asked with is something the task is about: a pronoun or a word of the task's own texts
    or of the KB within the next few words ("give up my allotment", "hire 3 sets of the white folding chairs"); not a
    preposition ("start with the gutters", "give up on doing them myself") nor another thing ("move house")."""
    if _OBJECT_FREE.match(after):
        return False
    words = re.findall(r"[a-z][a-z'-]*|\d+", after.lower())[:6]
    if not words or words[0] in ("it", "them", "this", "that", "one", "me", "him", "her", "us"):
        return True
    own = _task_words(reader, ws) | {s for t in ws.examples for s in content_stems(t)} | \
        set(content_stems(f"{reader.spec.description} {ws.description}"))
    for path, value in equalities(ws.predicate):
        own |= set(content_stems(str(value)))
        for other in reader.spec.task_worksheets():
            f = other.field(path[-1])
            own |= {s for ev in (f.enum_values if f is not None else []) if ev.value == value
                    for t in [ev.description or "", *(getattr(ev, "examples", None) or [])] for s in content_stems(t)}
    said = [w for w in words if w not in _OBJECT_WORDS and not w.isdigit()]
    if any(stem(w) in own for w in said):
        return True
    if not kb or reader.ctx.kb is None:
        return False  # "book a bike" is no Book Lesson: after a verb that books anything, only the task's own words
    from ....knowledge.lexicon import known_words  # late: the parser loads without a KB too
    return bool(known_words(reader.ctx.kb, [w for w in said if len(w) > 2]))


def _by_verb(reader: "TurnReader", ranked: Ranked, text: str, roots: dict[str, str]) -> Ranked | None:
    """The task whose name starts with the verb the turn says, when the nearer reading's task name has no such verb:
    the object of the turn ("my boiler service", "my donation") is shared by both readings, the verb is not."""
    task = verb_task(reader, text)
    if task is None or roots.get(task, task) != task:
        return None
    best = root_of(reader, roots, ranked.best)
    said = set(content_stems(without_values(reader, clean(text))))
    best_verb = _name_verb(best)  # "I can't make it, can I change it?": Reschedule, though Cancel reads nearer; not
    if best == task or (best_verb is not None and said & _VERBS[best_verb]  # when the turn says Cancel's verb too
                        and requested_task(reader, text) != task):
        return None
    runner = ranked.runner_score if ranked.runner_up is not None and root_of(reader, roots, ranked.runner_up) == task \
        else 0.0
    return Ranked(Entry("task", task), runner, task, ranked.best, ranked.score)


def _said_option_reading(reader: "TurnReader", ranked: Ranked, text: str, roots: dict[str, str]) -> Ranked | None:
    """The reading of the option named word for word (`opening/said_option.py`) when it leads to another task
    than the reading by meaning, the turn says none of that reading's own words (its option, its task's name, less
    the words both tasks share) and no verb of a third task ("cancel my septum appointment")."""
    from ..opening.said_option import root_texts, said_option  # late: the opening rules import this module

    entry = said_option(reader, text)
    if entry is None:
        return None
    mine = root_of(reader, roots, entry)
    if reader.state.of_worksheet(mine):
        return None  # "can I order a mocha" after a latte was ordered: not a change of the order made
    if ranked.best is not None and root_of(reader, roots, ranked.best) == mine:
        return Ranked(entry, 1.0, entry.value, ranked.runner_up, ranked.runner_score)  # the two agree
    verb = verb_task(reader, text)
    if verb is not None and roots.get(verb, verb) != mine:
        return None
    if ranked.best is not None:
        best = ranked.best
        name = best.value if best.kind == "enum" else words_of(root_of(reader, roots, best))
        own = set(content_stems(name)) - root_texts(reader, roots).get(mine, set())
        if own & set(content_stems(text)):
            return None  # "book a tattoo session at old town": the nearer reading's own words are said too
    return Ranked(entry, 1.0, entry.value, ranked.best, ranked.score)


def _option_named(reader: "TurnReader", ranked: Ranked, text: str, roots: dict[str, str]) -> bool:
    """Apply the reading with the turn's KB words kept where they are also words of the spec's options, when it
    is decided and leads to the same task as the nearer reading without them ("a price on cctv": the KB's
    skill and the quote's "CCTV Installation"). The two agree, so this settles a close or weak reading."""
    said = clean(text)
    if without_kb_terms(reader, said, keep_options=True) == without_kb_terms(reader, said):
        return False  # no KB word of the turn names an option: the same ranking again would say the same
    named = rank_tasks(reader, text, keep_options=True)
    if not named.decided(TASK_THRESHOLD, TASK_MARGIN) or root_of(reader, roots, named.best) != root_of(
            reader, roots, ranked.best):
        return False
    reader.note("task-option-named", text, reading=named.best.label, **named.trace(),
                reason="the nearer reading is decided once the turn's words that also name the spec's options "
                       "are kept")
    return apply_reading(reader, named, text, "task-semantic")


def _name_said(reader: "TurnReader", ranked: Ranked, text: str) -> Ranked | None:
    """Of two close readings, the one whose name (an option's value, a task's name: two words or more) the turn
    says in full, when the other's it does not."""
    if ranked.best is None or ranked.runner_up is None or (is_question(text) and not task_request(text)):
        return None  # "is it too late to book a table for 20?" asks about the task
    said = silent_e(set(content_stems(re.sub(r"\b[a-z]+ed\b", " ", clean(text), flags=re.I))))  # "my wife booked a
    # table": a booking made, not "book table"

    def name_said(entry: Entry) -> bool:
        name = entry.value if entry.kind == "enum" else words_of(entry.worksheet)
        stems = silent_e(set(content_stems(str(name or ""))))
        return len(stems) >= 2 and stems <= said
    best, other = name_said(ranked.best), name_said(ranked.runner_up)
    if best == other:
        return None
    if best:
        return ranked
    return Ranked(ranked.runner_up, ranked.runner_score, ranked.runner_up.label, ranked.best, ranked.score)


_NAME_VERBS = {stem(w) for w in """book booking request order make new get form service submit general enquiry query
    report add apply application appointment arrange""".split()}
"""Words many task names share ("Book ...", "... Request"): a turn that says one does not say which task."""


def _task_word_said(reader: "TurnReader", ranked: Ranked, text: str,
                    roots: dict[str, str]) -> tuple[Ranked, set[str]] | None:
    """Of two close readings that lead to different top-level tasks, the nearer one when its task's name has a word
    the turn says ("apostille" of Apostille Request), the turn says no word of the other task's name and the other
    task's own texts never use that word; the words that many names share ("book", "request") do not count. A
    question about a task stays a question."""
    if ranked.best is None or ranked.runner_up is None or (is_question(text) and not task_request(text)):
        return None
    best_root, other_root = root_of(reader, roots, ranked.best), root_of(reader, roots, ranked.runner_up)
    if best_root == other_root:
        return None
    said = _root_words(silent_e(set(content_stems(without_values(reader, clean(text))))))

    def name_words(ws_name: str) -> set[str]:
        return _root_words(silent_e(set(content_stems(words_of(ws_name))))) - _NAME_VERBS
    best, other = said & name_words(best_root), said & name_words(other_root)
    if not best or other:
        return None  # the nearer reading only: a name word never overturns the reading by meaning
    ws = reader.spec.worksheet(other_root)
    rival_texts = _root_words(silent_e(_task_words(reader, ws) | {s for t in (ws.examples if ws else []) for s in
                                                                   content_stems(t)}))
    if best & rival_texts:
        return None  # "misted up between the panes" for Window Cleaning: the other task speaks of windows too
    return ranked, best


def _deep_option(reader: "TurnReader", ranked: Ranked, text: str) -> bool:
    """A close or weak reading settled by the one nested option the turn names in full (`opening/deep_option.py`)."""
    from ..opening.deep_option import named_deep_option  # late: the opening rules import this module

    entry = named_deep_option(reader, text)
    if entry is None:
        return False
    deep = Ranked(entry, 1.0, entry.value, ranked.best, ranked.score)
    if not apply_reading(reader, deep, text, "task-option-words"):
        return False
    reader.note("task-deep-option", text, reading=entry.label, **deep.trace(),
                reason="the turn names one option nested in one task, in full; the reading by meaning was not clear")
    return True


_OWNER = r"\b(?:my|our|his|her|their)\s+(?:[a-z]+(?:'s)?\s+){0,2}?"


def _told_apart(reader: "TurnReader", ranked: Ranked, text: str) -> set[str]:
    """The turn's words that the best reading's texts have and the runner-up's do not, when the turn has no word
    only the runner-up's texts have; empty when the words do not tell the two apart."""
    if ranked.runner_up is None:
        return set()
    best, other, said = _compared_words(reader, ranked, text)
    if not best or not other or said & (other - best):
        return set()
    return said & (best - other)


def _runner_words(reader: "TurnReader", ranked: Ranked, text: str) -> set[str]:
    """The turn's words that only the runner-up's texts have ("a later date" of Change Booking's "move a booked
    removal to a new date"): with them, the verb of the nearer task's name does not decide."""
    if ranked.runner_up is None:
        return set()
    best, other, said = _compared_words(reader, ranked, text)
    return said & (other - best)


def _compared_words(reader: "TurnReader", ranked: Ranked, text: str) -> tuple[set[str], set[str], set[str]]:
    """The root words of the best reading's texts, of the runner-up's, and of the turn (its values left out)."""
    best, other = _root_words(_entry_stems(reader, ranked.best)), _root_words(_entry_stems(reader, ranked.runner_up))
    return best, other, _root_words(set(content_stems(without_values(reader, clean(text)))) - HEDGES)


_DERIVED = re.compile(r"(?<=\w{4})(?:ation|ment)$")


def _root_words(stems: set[str]) -> set[str]:
    """Stems without a silent e, and a noun's "-ation"/"-ment" ("installation" is "install", "appointment" is
    "appoint"), so the verb a turn says and the noun a task's name says compare equal."""
    return {_DERIVED.sub("", s) for s in silent_e(stems)}


def _entry_stems(reader: "TurnReader", entry: Entry) -> set[str]:
    """Content stems of what the developer wrote for a task reading: an option's value, description and examples,
    or a task worksheet's own texts and examples."""
    if entry.kind == "enum":
        ws = reader.spec.worksheet(entry.worksheet)
        f = ws.field(entry.field) if ws is not None else None
        texts = [" ".join([ev.value, ev.description or "", *ev.examples])
                 for ev in (f.enum_values if f is not None else []) if ev.value == entry.value]
        return {s for t in texts for s in content_stems(t)}
    if entry.kind == "task":
        ws = reader.spec.worksheet(entry.worksheet)
        return _task_words(reader, ws) | {s for t in (ws.examples if ws is not None else []) for s in content_stems(t)}
    return set()


def _task_words(reader: "TurnReader", ws: Any) -> set[str]:
    """Content stems of a top-level task's own texts: its name and description, and the options (with their
    descriptions) its predicate requires ("Check Repair: find out whether a bike you left with us is ready")."""
    if ws is None:
        return set()
    texts = [words_of(ws.name), ws.description]
    wanted = {(path[-1], value) for path, value in equalities(ws.predicate) if isinstance(value, str)}
    for other in reader.spec.worksheets:
        for f in other.fields:
            texts += [f"{ev.value} {ev.description}" for ev in f.enum_values if (f.name, ev.value) in wanted]
    return {s for t in texts if t for s in content_stems(t)}


def owned_option(reader: "TurnReader", text: str) -> bool:
    """ "my mountain bike brakes are squealing like mad, can you sort them": nothing was asked and no reading by
    meaning was clear, but the turn names the user's own thing by an option of one task's field, verbatim, after
    "my"/"our" ("my husband's electric bike"): that option, and the task it belongs to. Never when two options or
    options of two tasks are named so."""
    roots, start = task_roots(reader), reader.spec.start_worksheet()
    if reader.expect is not None or any(r.status == "active" and (start is None or r.worksheet != start.name)
                                        for r in reader.state.tasks()):
        return False  # only an opening: a task in progress is not changed by naming a thing
    found = set()
    for ws in reader.spec.task_worksheets():
        if start is not None and ws.name == start.name:
            continue
        for f in ws.fields:
            for v in f.enum_values:
                if len(v.value) >= 5 and re.search(_OWNER + re.escape(v.value.lower()) + r"s?\b", text.lower()):
                    found.add(Entry("enum", ws.name, f.name, v.value))
    if len(found) != 1 or len({roots.get(e.worksheet, e.worksheet) for e in found}) != 1:
        return False
    entry = found.pop()
    if re.search(r"\b(?:is|are|was|were|has|have|had|did)\s+" + _OWNER + re.escape(entry.value.lower()),
                 text.lower()):
        return False  # "is my road bike ready?", "has my road bike been fixed?": asks after the thing, no request
    mine = roots.get(entry.worksheet, entry.worksheet)
    own = _task_words(reader, reader.spec.worksheet(mine))
    said = set(content_stems(text))
    for ws in reader.spec.task_worksheets():
        if roots.get(ws.name, ws.name) == ws.name and ws.name != mine and (start is None or ws.name != start.name) \
                and said & (_task_words(reader, ws) - own):
            return False  # "I want to know when my road bike will be ready": "ready" is another task's word
    ranked = rank_tasks(reader, text)
    for other, score in ((ranked.best, ranked.score), (ranked.runner_up, ranked.runner_score)):
        if other is not None and score >= TASK_THRESHOLD and roots.get(other.worksheet, other.worksheet) != mine:
            return False  # another task is a reading by meaning: nothing is guessed
    return apply_reading(reader, Ranked(entry, 1.0, entry.value, None, 0.0), text, "task-owned-option")


_PROBLEM_PLACE = re.compile(r"\b(?:at|in|on|inside|outside|around|near|from|into)\s+(?:(?:my|our|your|his|her|their|the|a)\s+)?$|"
                            r"(?<!\bneed\s)(?<!\bwant\s)(?<!\blike\s)(?<!\bhave\s)(?<!\btrying\s)(?<!\bhow\s)"
                            r"\bto\s+(?:(?:my|our|your|his|her|their|the|a)\s+)?$", re.I)
"""Words after a preposition of place say where, not what ("at my house"); "to" after "need", "want", "like",
"have", "trying", "how" begins the verb asked for ("I want to quit GX 210"), not a place."""


def option_words_task(reader: "TurnReader", text: str, *, request: bool = False) -> bool:
    """ "the shower in room 412 has no hot water": nothing was asked, no reading by meaning was clear, but words of
    the turn are in the descriptions of options of one task only ("water, the shower, ..." of Plumbing, "the
    bathroom, shower or toilet" of Bathroom), each word in one option of its field: that task, with the option the
    most such words name. Not when options of two tasks are named so, a word only says where ("at my house"), or the
    turn asks something."""
    start = reader.spec.start_worksheet()
    if reader.expect is not None or any(r.status == "active" and (start is None or r.worksheet != start.name)
                                        for r in reader.state.tasks()) or \
            (not request and any(is_question(p) for p in sentences(text))):
        return False  # "the printer says it's offline, what can I do?" asks the KB first ("can I bring it in?" asks
        # for the task: `request`)
    if reader.ctx.kb is not None:
        from ..kb_rows.change import named_row  # late: the KB row rules import this module
        if named_row(reader, text) is not None:
            return False  # "sign up for the japanese kanji workshop": the words name a KB row, not an option
    said = {stem(m.group(0)) for m in re.finditer(r"[A-Za-z]+", text)
            if not _PROBLEM_PLACE.search(text[:m.start()])} & set(content_stems(text))
    said -= HEDGES
    roots = task_roots(reader)
    named = {ws.name: _task_words(reader, ws) for ws in reader.spec.task_worksheets()
             if roots.get(ws.name, ws.name) == ws.name and (start is None or ws.name != start.name)}
    hits: dict[Entry, set[str]] = {}
    for ws in reader.spec.task_worksheets():
        if start is not None and ws.name == start.name:
            continue
        root = roots.get(ws.name, ws.name)
        # "I'll order 2 of those": "order" names the Place Order task, not Late Delivery ("the order has not arrived")
        theirs = set().union(*(w for name, w in named.items() if name != root)) - named.get(root, set())
        for f in ws.fields:
            words = {ev.value: set(content_stems(f"{ev.value} {ev.description}")) for ev in f.enum_values}
            for value, mine in words.items():
                others = set().union(*(w for v, w in words.items() if v != value))
                found = said & (mine - others - theirs - set(content_stems(f"{f.name} {f.description}")))
                if found:
                    hits[Entry("enum", ws.name, f.name, value)] = found
    if not hits or len({roots.get(e.worksheet, e.worksheet) for e in hits}) != 1:
        return False
    per_field: dict[tuple[str, str], list[Entry]] = {}
    for e in hits:
        per_field.setdefault((e.worksheet, e.field), []).append(e)
    if any(len(v) > 1 for v in per_field.values()):
        return False  # two options of one field named: unclear
    root = reader.spec.worksheet(roots.get(next(iter(hits)).worksheet))
    own = [e for e in hits if e.worksheet == root.name] if root is not None else []
    best = max(own or hits, key=lambda e: (len(hits[e]), e.worksheet == (root.name if root else "")))
    ranked = rank_tasks(reader, text)
    for other, score in ((ranked.best, ranked.score), (ranked.runner_up, ranked.runner_score)):
        if other is not None and score >= TASK_THRESHOLD and roots.get(other.worksheet, other.worksheet) != \
                roots.get(best.worksheet, best.worksheet):
            return False
    return apply_reading(reader, Ranked(best, 1.0, best.value, None, 0.0), text, "task-option-words")


def _held_task_live(reader: "TurnReader", name: str, held: Any) -> bool:
    """The option held in `name` opened a task that is still in progress (not done or left)."""
    if held is None:
        return False
    for ws in reader.spec.task_worksheets():
        if any(p[-1] == name and v == held for p, v in equalities(ws.predicate)) \
                and any(r.status == "active" for r in reader.state.of_worksheet(ws.name)):
            return True
    return False


def _held_task_finished(reader: "TurnReader", name: str, held: Any) -> bool:
    """The option held in `name` opened a task whose live records have every field they ask filled (an
    eligibility check answered): a new task asked for may take its place."""
    if held is None:
        return False
    for ws in reader.spec.task_worksheets():
        if not any(p[-1] == name and v == held for p, v in equalities(ws.predicate)):
            continue
        for rec in reader.state.of_worksheet(ws.name):
            if rec.status == "active" and any(
                    reader.view.unfilled(rec, f) and reader.view.kind_of(f) not in ("list",) and f.required
                    for f in reader.view.input_fields(rec)):
                return False
    return True


def apply_reading(reader: "TurnReader", ranked: Ranked, text: str, rule: str, *, asked_for: bool = False) -> bool:
    """Set the enum values the reading implies on the live records, and open the worksheets they activate
    (or the reading's own top-level worksheet). Each statement carries the score and the runner-up.
    `asked_for`: the user asked for this task by a verb of its name ("can you book him for friday then?"), so
    it replaces the option of a task that has nothing left to ask."""
    entry = ranked.best
    assert entry is not None
    before = len(reader.rules)
    path = implied_path(reader, entry)
    if not _without_rejected(reader, entry, path, text):
        return False
    bag = _without_task_words(reader, entry, ranked.text, Bag.of(text))
    overlay: dict[str, dict[str, Any]] = {}
    for rec in [r for r in reader.view.live_records() if r.parent is None]:
        ws = reader.view.worksheet(rec)
        tree = {f.name for w in [ws, *reachable(reader, ws)] for f in w.fields}
        hints = {k: (v, [ranked.text]) for k, v in path.items() if k in tree}
        if not hints:
            continue
        found = match_worksheet(reader, bag, ws, dict(rec.values), [], rec, hints=hints)
        for name, (value_text, _plain, _words) in found.items.items():
            if literal(rec.values.get(name)) != value_text:
                reader.emit(rule, text, f"{rec.var}.{name} = {value_text}")
        overlay[rec.var] = found.plain()
        if rule in ("switch-task", "row-request") or (rule == "task-semantic" and asked_for):
            # the new task replaces the old one's option (asked for by a verb of its own: only a task that has
            # nothing left to ask)
            for name, value in hints.items():
                if rule == "row-request" and _held_task_live(reader, name, rec.values.get(name)):
                    continue  # a request for a row while another task is in progress does not end that task
                if rule == "task-semantic" and (not _held_task_finished(reader, name, rec.values.get(name)) or any(
                        reader.view.unfilled(rec, g) and g.required and reader.view.kind_of(g) != "list"
                        for g in reader.view.input_fields(rec))):
                    continue  # the root still asks something (a summary to confirm): the task is not done
                if ws.field(name) is not None and rec.values.get(name) not in (None, value[0]):
                    reader.emit(rule, text, f"{rec.var}.{name} = {literal(value[0])}")
                    overlay[rec.var][name] = value[0]
    all_hints = {k: (v, [ranked.text]) for k, v in path.items()}
    opened = open_activated(reader, overlay, text, bag, rule=rule, hints=all_hints) if overlay else []
    own = reader.spec.worksheet(task_roots(reader).get(entry.worksheet, entry.worksheet))
    start = reader.spec.start_worksheet()
    if own is not None and own not in opened and not own.predicate.strip() \
            and (start is None or own.name != start.name) \
            and not any(r.status == "active" for r in reader.state.of_worksheet(own.name)):
        open_worksheet(reader, own, text, bag, rule=rule, hints=all_hints)
    for r in reader.rules[before:]:
        if r.get("statement"):
            r.update(reading=entry.label, **ranked.trace())
    return any(r.get("statement") for r in reader.rules[before:])


def _without_task_words(reader: "TurnReader", entry: Entry, via: str, bag: Bag) -> Bag:
    """The turn's words without those the task's own example shares with it ("charge" of "I think a charge on my bill
    is wrong" for "i want to query a charge on my bill") when such a word names only part of longer options
    ("Charged Twice"): it said which task, not which option. A word that is a whole option's name (an example "a
    visitor berth for two nights" and the option Visitor), or two words that only one option has both of, still
    choose it."""
    start = reader.spec.start_worksheet()
    if entry.kind != "task" and (start is None or entry.worksheet != start.name):
        return bag
    examples = {e for ws in reader.spec.task_worksheets() for e in [*ws.examples, *(x for f in ws.fields
                for ev in f.enum_values for x in ev.examples)]}
    if via not in examples:
        return bag  # a description ("to give blood, plasma or platelets") may name the options on purpose
    options = [set(content_stems(ev.value)) for ws in reader.spec.task_worksheets() for f in ws.fields
               for ev in f.enum_values]
    spent = [s for s in set(content_stems(via)) & set(bag.stems)
             if (hit := [o for o in options if any(same_word(s, w) for w in o)]) and all(len(o) > 1 for o in hit)]
    whole = [o for o in options if len(spent) >= 2 and all(any(same_word(s, w) for w in o) for s in spent)]
    if len(whole) == 1:
        return bag  # "sign me up for a dedicated desk": two words of one option ("Dedicated Desk Monthly") choose it
    return bag.without(spent) if spent else bag


def _without_rejected(reader: "TurnReader", entry: Entry, path: dict[str, str], text: str) -> bool:
    """A reading's option that the turn rejects ("..., it's not about a form" while the reading is the option about
    the form): the other option when its field has one other, else no option there (the task above it stays). An
    option rejected higher up the path leaves no reading at all (False)."""
    from .negation import negations  # late: negation reads the spec's words through this module's neighbours

    negs = negations(text)
    if not negs:
        return True
    said_not = {w for n in negs for w in content_stems(n.what)}
    rejected = [k for k, v in path.items() if said_not & set(content_stems(v))]
    if not rejected:
        return True
    ws = reader.spec.worksheet(entry.worksheet)
    f = ws.field(entry.field) if ws is not None and entry.kind == "enum" else None
    if f is None or rejected != [entry.field]:
        return False
    others = [ev.value for ev in f.enum_values if not said_not & set(content_stems(ev.value))]
    if len(others) == 1:
        path[entry.field] = others[0]
    else:
        del path[entry.field]
    reader.note("negation", "; ".join(n.words for n in negs), negated=[n.what for n in negs],
                reading=entry.label, kept=path.get(entry.field))
    return True


def task_already_open(reader: "TurnReader", text: str) -> bool:
    """ "Report fraud please" while that very task is in progress, and nothing else in the turn was read:
    understood, with nothing to change; the agent's next question follows (not "sorry, I didn't understand")."""
    if not [w for w in content_stems(without_values(reader, clean(text))) if w not in HEDGES]:
        return False
    ranked = rank_tasks(reader, text)
    entry = ranked.best
    if entry is None or entry.kind != "task" or not ranked.decided(TASK_THRESHOLD, TASK_MARGIN):
        return False
    if not any(r.status == "active" for r in reader.state.of_worksheet(entry.worksheet)):
        return False
    reader.note("task-already-open", text, reading=entry.label, **ranked.trace(),
                reason="the task asked for is already in progress")
    return True


def switch_task(reader: "TurnReader", text: str) -> bool:
    """ "Actually I want to cancel instead": another top-level task while one is in progress."""
    if told_done_switch(reader, text):
        return True  # "oh wait no, I already reported it last night, I just want to claim back what I bought"
    if not _SWITCH.search(text):
        return False
    current = current_task(reader)
    if current is None:
        return False
    if _own_option_said(reader, current, text):
        return False  # "actually, just cancel it" while rescheduling: the task's own Cancel, not the Cancel task
    from ..answering.slots import find_mentions  # late: a rare path
    if _SLIP_CUE.search(text) and not _SWITCH.search(_SLIP_CUE.sub(" ", text)) and (
            find_mentions(text, reader.candidates(records=[current]), reader.view, reader.today)
            or _names_own_field(reader, current, text) or _changed_to_own_value(reader, current, text)):
        return False  # "wait sorry, I need to swap the size to medium": a change of this task, said after a slip
    if _held_code_corrected(reader, current, text):
        return False  # "hmm actually the order number is BW-55210": the reference held, corrected
    if _MAKE_IT.search(text):
        if find_mentions(text, reader.candidates(records=[current]), reader.view, reader.today):
            return False  # "make it 12 days instead": a new value for the current task, a change of mind
        from ..kb_rows.requests import TAKING  # late: the row rules import this module
        if snake_case(current.worksheet).split("_")[0] in TAKING and _MAKE_IT_TO.search(text):
            return False  # "can you change it to 10 not 9" while booking: the booking being made, not another task
            # ("I've already got one booked, I just need to move it" still switches)
    e = reader.expect
    if e is not None and e.act == "ask" and reader.view.kind_of(e.field) in ("date", "time", "int", "float") \
            and find_mentions(text, [(e.rec, e.field)], reader.view, reader.today):
        return False  # "now landing thursday 30th at 21:50 instead of wednesday" to "the new date?": the answer
    ranked = rank_tasks(reader, text)
    # "actually scrap that, I have to check the grant thing first": the current task is dropped in words, so the
    # other task needs a little less to be read
    threshold = TASK_THRESHOLD - DROPPED_EASE if _CANCEL_WORDS.search(text) else TASK_THRESHOLD
    if not ranked.decided(threshold, TASK_MARGIN) or \
            not _conflict(reader, task_roots(reader), Entry("task", current.worksheet), ranked.best):  # type: ignore[arg-type]
        ranked = _other_than(reader, text, current, threshold) or _other_by_name(reader, text, current) or \
            _other_by_verb(reader, text, current)
        if ranked is None:  # the same task, or unclear: no other one is clearly meant
            return False
    start = reader.spec.start_worksheet()
    if start is None or current.worksheet != start.name:  # the menu that chooses tasks is no task to leave: its
        # choice is replaced by the new one
        reader.emit("switch-task", text, f"exitws({current.var})", reading=ranked.best.label, **ranked.trace())
    apply_reading(reader, ranked, text, "switch-task")
    return True


def told_done_switch(reader: "TurnReader", text: str) -> bool:
    """The task in progress told as already done: the other task the turn asks for (`opening/told_done.py`)."""
    from ..opening.told_done import told_done_task  # late: the opening modules import this one
    current = current_task(reader)
    if current is None:
        return False
    ws = reader.spec.worksheet(current.worksheet)
    options = [v for _p, v in equalities(ws.predicate) if isinstance(v, str)] if ws is not None else []
    return len(options) == 1 and told_done_task(reader, text, options[0])


_MAKE_IT = re.compile(r"\b(?:make|change|move|switch|put)\s+(?:it|that|this)\b", re.I)
_MAKE_IT_TO = re.compile(r"\b(?:make|change|move|switch|put)\s+(?:it|that|this)\s+(?:to|for)\b", re.I)


DROPPED_EASE = 0.05
"""How much less a task's reading needs when the turn also drops the current task in words ("scrap that")."""


def _other_than(reader: "TurnReader", text: str, current: TaskRecord, threshold: float = TASK_THRESHOLD
                ) -> Ranked | None:
    """ "actually, can you first check on my order?": "actually" says the user wants a task other than the
    current one, so the current task's own readings are left out and the best other task is taken when it clears
    the threshold and the margin over the remaining readings. Never when the turn gives a value for the current
    task ("actually make it six"), which is a change of mind."""
    from ..answering.slots import find_mentions  # late: a rare path
    if find_mentions(text, reader.candidates(records=[current]), reader.view, reader.today):
        return None
    roots = task_roots(reader)
    mine = Entry("task", current.worksheet)
    whole = without_values(reader, without_kb_terms(reader, clean(text)))
    ranked = index(reader).rank(whole, lambda e: e.kind in ("task", "enum") and _conflict(reader, roots, mine, e),
                                same=lambda a, b: not _conflict(reader, roots, a, b))
    return ranked if ranked.decided(threshold, TASK_MARGIN) else None


_CHANGED_TO = re.compile(r"\b(?:change|move|swap|switch|make|put|bring)\b.*?\bto\s+(?P<new>.+?)[\s.!?]*$", re.I)


def _changed_to_own_value(reader: "TurnReader", current: TaskRecord, text: str) -> bool:
    """ "I need to change the pickup time to 10": what it changes to is a value of a field the task in progress
    holds (a time, a date, a number or an option)."""
    m = _CHANGED_TO.search(text)
    if m is None:
        return False
    return any(reader.view.kind_of(f) in ("date", "time", "int", "float", "Enum") and f.name in current.values
               and reader.answers.value_for(f, m.group("new")) is not None for f in reader.view.input_fields(current))


def _held_code_corrected(reader: "TurnReader", current: TaskRecord, text: str) -> bool:
    """The turn names a field of the task in progress that holds a reference of letters and digits, and gives it a
    new value of the same shape (letters, digits and marks in the same places), asking for no other task by its
    verb: a correction of it ("hmm actually the order number is BW-55210"), whatever other words it has."""
    from ..answering.slots import find_mentions, shape  # late: a rare path
    if requested_task(reader, text) is not None:
        return False  # "I'd rather report a problem with order TR-40013": another task asked for by its verb
    bag = Bag.of(text)
    roots = task_roots(reader)
    mine = roots.get(current.worksheet, current.worksheet)
    own = _task_words(reader, reader.spec.worksheet(mine))
    others = set().union(set(), *(_task_words(reader, ws) for ws in reader.spec.task_worksheets()
                                  if roots.get(ws.name, ws.name) == ws.name and ws.name != mine))
    said = set(content_stems(text))
    for m in find_mentions(text, reader.candidates(records=[current]), reader.view, reader.today):
        if said & (others - own - field_stems(m.field)):
            continue  # "I'd rather check on my new order BB-20777": another task's own word ("check")
        held = current.values.get(m.field.name)
        if isinstance(held, str) and isinstance(m.value, str) and held != m.value and re.search(r"\d", held) \
                and re.search(r"[A-Za-z]", held) and reader.view.kind_of(m.field) == "str" \
                and shape(m.field) not in ("phone", "email") and field_mention(m.field, bag)[0] > 0 \
                and _code_shape(held) == _code_shape(m.value):
            return True  # a code of letters and digits, named by its field's words: not a date, not a phone
    return False


def _code_shape(value: str) -> str:
    return re.sub(r"[A-Za-z]", "a", re.sub(r"\d", "9", value.strip()))


def _names_own_field(reader: "TurnReader", current: TaskRecord, text: str) -> bool:
    """The turn names a field of the task in progress by its name's words ("the pickup time", "the size")."""
    ws = reader.spec.worksheet(current.worksheet)
    said = {stem(w) for w in re.findall(r"[a-z]+", text.lower())}
    return any(len(parts) and set(parts) <= said for f in (ws.fields if ws is not None else []) if f.kind == "input"
               for parts in [[stem(w) for w in f.name.lower().split("_") if len(w) > 2]])


def _other_by_verb(reader: "TurnReader", text: str, current: TaskRecord) -> Ranked | None:
    """ "oh wait no, I need to report a problem with a mug you fired": with a switch cue, the other task the turn
    asks for with the verb of its name (`requested_task`), when the meaning is split between two."""
    from ..answering.slots import find_mentions  # late: a rare path
    if find_mentions(text, reader.candidates(records=[current]), reader.view, reader.today):
        return None  # a value of the task in progress: a change of it
    asked = requested_task(reader, text)
    roots = task_roots(reader)
    if asked is None or roots.get(asked, asked) == roots.get(current.worksheet, current.worksheet):
        return None
    return Ranked(Entry("task", asked), 1.0, asked, None, 0.0)


def _other_by_name(reader: "TurnReader", text: str, current: TaskRecord) -> Ranked | None:
    """ "can i just book a new one instead?": with a switch cue, the one other task option whose name shares a word
    with the turn that the current task's option does not have ("book" of Book Donation while changing one)."""
    start = reader.spec.start_worksheet()
    if start is None:
        return None
    roots, mine = task_roots(reader), Entry("task", current.worksheet)
    bag = Bag.of(text)
    found = []
    for f in start.fields:
        if f.kind != "input" or reader.view.kind_of(f) != "Enum":
            continue
        current_words = {s for ev in f.enum_values  # the words of the option the current task was opened by
                         if not _conflict(reader, roots, mine, Entry("enum", start.name, f.name, ev.value))
                         for s in content_stems(ev.value)}
        for ev in f.enum_values:
            entry = Entry("enum", start.name, f.name, ev.value)
            if _conflict(reader, roots, mine, entry) and bag.hits(set(content_stems(ev.value)) - current_words):
                found.append(entry)
    if len(found) != 1:
        return None
    return Ranked(found[0], 1.0, found[0].value, None, 0.0)


# ---------------------------------------------------------------- an enum answer by meaning

_SAME_AS_BEFORE = re.compile(r"(?:(?:and|but|at|on|for)\s+)?(?:the\s+)?same(?:\s+\w+)?(?:\s+as\s+(?:before|last\s+time|that|it))?",
                             re.I)


def semantic_enum(reader: "TurnReader", f: Field, text: str, worksheet: str | None = None
                  ) -> tuple[str, Ranked] | None:
    """The value of the asked enum field (of `worksheet`'s field `f` when given) that the answer means, when one
    clearly wins."""
    ws = worksheet or (reader.expect.rec.worksheet if reader.expect else "")
    if _SAME_AS_BEFORE.fullmatch(text.strip(" ,.!?")):
        return None  # "same time": what was said before stays; it is no new option
    kept = without_negated(text)  # "post it please, she doesn't do email": the rejected option never wins
    ranked = index(reader).rank(clean(kept if kept.strip(" ,.!?") else text),
                                lambda e: e.kind == "enum" and e.worksheet == ws and e.field == f.name)
    if ranked.best is not None and numbers_disagree(ranked.best.value, text):
        return None  # "every 4 weeks" means no option named "Every 8 Weeks", however close the words
    if _frame_only(reader, ranked, kept if kept.strip(" ,.!?") else text):
        return None
    if ranked.decided(ENUM_THRESHOLD, ENUM_MARGIN) or (ranked.best is not None and ranked.score >= ENUM_THRESHOLD
                                                       and said_verbatim(ranked.text, text)):
        return ranked.best.value, ranked  # type: ignore[union-attr]
    if ranked.best is not None and ranked.score >= ENUM_THRESHOLD:
        reader.note("enum-uncertain", text, reading=ranked.best.label, **ranked.trace(),
                    reason="two options are close; the question is asked again",
                    say=f"Sorry, I'm not sure which you mean: {_phrase(ranked.best)} or "
                        f"{_phrase(ranked.runner_up)}?" if ranked.runner_up else None)
    return None


def _frame_only(reader: "TurnReader", ranked: Ranked, text: str) -> bool:
    """The turn is near an example of an option only by the small words they share: "I'd rather do the plane one"
    and the example "the evening one" share "the ... one", no word that means anything. Then the turn's content
    words alone must still choose that option, or it is no reading of the option."""
    best = ranked.best
    said = content_stems(text)
    if best is None or best.kind != "enum" or not said or ranked.text.strip().lower() == best.value.strip().lower() \
            or set(said) & set(content_stems(ranked.text)):
        return False
    alone = index(reader).rank(" ".join(w for w in re.findall(r"[\w'-]+", text)
                                        if w.lower() not in STOPWORDS and w.lower() not in HEDGES),
                               lambda e: e.kind == "enum" and e.worksheet == best.worksheet and e.field == best.field)
    return alone.best != best or alone.score < ENUM_THRESHOLD


def said_verbatim(taught: str, text: str) -> bool:
    """The developer's text (an example of two or more words) is said word for word inside the turn ("pretty
    bad, I can't do my job without it" says the example "I can't do my job"): taught, so no margin is needed."""
    norm = lambda t: " " + " ".join(re.findall(r"[a-z0-9']+", t.lower().replace("’", "'"))) + " "  # noqa: E731
    return len(taught.split()) >= 2 and norm(taught) in norm(text)


def _phrase(entry: Entry | None) -> str:
    """An entry in words for a clarifying question: the option's value or the task's name."""
    if entry is None:
        return ""
    return entry.value if entry.kind == "enum" else snake_case(entry.worksheet).replace("_", " ")


FIELD_ELSEWHERE_MARGIN = 0.10
"""A long answer that scores this much better on another field than on the one asked is not taken as the
asked field's value (right answers score their own field best: 0.57-0.59 against 0.19-0.23 elsewhere in the
bank sample's checks; a fraud story to a pet-name question scored 0.41 elsewhere against 0.24)."""


def doubtful_value(reader: "TurnReader", f: Field, value: str) -> dict[str, Any] | None:
    """A long answer (6+ words) to a short text question that means nothing like the field ("no new mail
    since yesterday" for the device): not taken, since a wrong value is worse than none."""
    if len(value.split()) < 6 or reader.expect is None:
        return None
    ws = reader.expect.rec.worksheet
    ranked = index(reader).rank(clean(value), lambda e: e.kind == "field" and e.worksheet == ws and e.field == f.name)
    if ranked.best is None:
        return None
    if ranked.score < FIELD_DOUBT:
        return ranked.trace()
    # "someone opened a credit line in my name" to "your childhood pet's name": the words read as another field
    # of the agent (here what happened) clearly better than the one asked
    anywhere = index(reader).rank(clean(value), lambda e: e.kind == "field")
    other = anywhere.best
    if other is not None and (other.worksheet, other.field) != (ws, f.name) \
            and anywhere.score - ranked.score >= FIELD_ELSEWHERE_MARGIN:
        return {**ranked.trace(), "reads_as": f"{other.worksheet}.{other.field}", "reads_as_score": anywhere.score}
    return None
