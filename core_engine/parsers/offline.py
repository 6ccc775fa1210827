"""The `offline` parser: everyday phrasing -> formal statements, deterministic, no network.

It reads the utterance against what it can know without a model: the spec
(field types, enum values and descriptions, predicates), the previous state,
the agent acts of the previous turn (the question just asked, reported rows,
proposals) and, when there is one, the KB's values. Rules are tried in a
fixed order and every statement it emits comes with a rule entry naming the
words that produced it, so the studio can show why a turn was read as it was.

    rule order: yes/no to a proposal -> yes/no to the question asked -> small talk
    -> choose a reported row -> refusal -> "same as before" -> change of mind -> special request
    -> typed answer to the question asked -> opening turn (task description + questions)
    -> question / search -> task description -> a value before its question
    -> problem description -> text answer (one or several values) -> no match

Rule names in the trace: answer-to-ask, answer-yes-no, confirm-yes, confirm-no, multi-value,
extra-value, free-text, change-of-mind, choose-result, refusal, same-as-previous,
special-request, question, question-fills-field, question-no-kb, task-description,
value-before-asked, problem-description, proposal-accepted, predicate-of-proposal,
proposal-declined, chit-chat, no-match, empty, error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..errors import GenieError
from ..spec import REFUSAL, Field, parse_type
from ..state import TaskRecord, ref_target
from .base import ParseContext, ParseResult
from .offline_answers import AnswerReader
from .offline_intents import (change_marker, change_to, chit_chat, clean_question, closing, is_question, plea,
                              question_sentences, refusal, same_as, sentences, special_request)
from .offline_match import Bag, field_mention, field_stems, name_coverage, stem
from .offline_slots import KBVocabulary, Mention, StateView, code_value, find_mentions, shape
from .offline_tasks import (accept_proposal, choose_row, describe_task, literal, predicted_answer, row_label,
                            search_query)
from .offline_values import normalise, yes_no

_REQUEST_WORDS = {stem(w) for w in ("request", "special", "note", "notes", "comment", "instruction", "occasion")}
_SEARCH_START = re.compile(r"^(?:(?:i\s+(?:would|'?d)\s+like|i\s+want|i'?d\s+love|let'?s)\s+(?:to\s+)?)?"
                           r"(?:book|reserve|find|get|try|look\s+for|search\s+for)\b", re.I)
_GREETING = re.compile(r"^(?:hi|hello|hey|good\s+(?:morning|afternoon|evening))(?:\s+there)?[,.!\s]+", re.I)


@dataclass
class Expect:
    """The question the agent asked last turn: Ask(record, field) or Confirm(record, field)."""

    act: str
    rec: TaskRecord
    field: Field


class OfflineParser:
    """Deterministic parser for everyday phrasing; see the module docstring for its rules."""

    name = "offline"

    def __init__(self) -> None:
        self.vocabulary = KBVocabulary()

    def parse(self, utterance: str, ctx: ParseContext) -> ParseResult:
        reader = TurnReader(utterance, ctx, self.vocabulary)
        try:
            reader.run()
        except GenieError as exc:
            reader.note("error", "", reason=str(exc))
            return ParseResult(text="\n".join(reader.lines), rules=reader.rules, error=str(exc))
        return ParseResult(text="\n".join(reader.lines), rules=reader.rules)


class TurnReader:
    """One utterance being read; collects statements and the rule entries that explain them."""

    def __init__(self, utterance: str, ctx: ParseContext, vocabulary: KBVocabulary | None = None) -> None:
        self.text = normalise(utterance)
        self.ctx = ctx
        self.vocabulary = vocabulary or KBVocabulary()
        self.spec = ctx.spec
        self.state = ctx.state
        self.today = ctx.today
        self.view = StateView(ctx.spec, ctx.state)
        self.acts: list[dict[str, Any]] = list(ctx.state.last_acts or [])
        self.lines: list[str] = []
        self.rules: list[dict[str, Any]] = []
        self.yes_words = ""
        self.row_words = ""
        self.answered = False
        self.answers = AnswerReader(ctx.spec, self.view, ctx.today)
        self.value_for = self.answers.value_for
        self.enum_value = self.answers.enum_value
        self.strong_value = self.answers.strong_value
        self.expect = self._expectation()

    # ------------------------------------------------------------ output
    def emit(self, rule: str, matched: str, statement: str, **extra: Any) -> None:
        if statement in self.lines:
            return
        self.lines.append(statement)
        self.rules.append({"rule": rule, "matched": matched, "statement": statement, **extra})

    def note(self, rule: str, matched: str, **extra: Any) -> None:
        self.rules.append({"rule": rule, "matched": matched, "statement": None, **extra})

    def assign(self, rule: str, matched: str, rec: TaskRecord, f: Field, value: Any, **extra: Any) -> None:
        self.emit(rule, matched, f"{rec.var}.{f.name} = {literal(value)}", **extra)

    # ------------------------------------------------------------ context
    def _expectation(self) -> Expect | None:
        for act in reversed(self.acts):
            if act.get("act") in ("ask", "confirm"):
                rec = self.state.get(act.get("var", ""))
                if isinstance(rec, TaskRecord):
                    f = self.view.worksheet(rec).field(act.get("field", ""))
                    if f is not None:
                        return Expect(act["act"], rec, f)
                return None
        return None

    def has_kb(self) -> bool:
        return self.ctx.kb is not None or bool(self.spec.kb_worksheets())

    def candidates(self, *, records: list[TaskRecord] | None = None, unfilled_only: bool = False,
                   exclude: Field | None = None) -> list[tuple[TaskRecord, Field]]:
        out = []
        for rec in records if records is not None else self.view.live_records():
            for f in self.view.input_fields(rec):
                if self.view.kind_of(f) in ("confirm", "task", "row", "list"):
                    continue
                if exclude is not None and f.name == exclude.name and rec.var == self.expect_var():
                    continue
                if unfilled_only and not self.view.unfilled(rec, f):
                    continue
                out.append((rec, f))
        return out

    def expect_var(self) -> str | None:
        return self.expect.rec.var if self.expect else None

    # ------------------------------------------------------------ the rules, in order
    def run(self) -> None:
        text = self.text
        if not text:
            self.note("empty", "")
            return
        rest = self._proposal(text)
        rest = self._yes_no(rest) if rest is not None else None
        if rest is None or not rest.strip(" ,.!?;"):
            return
        if self.answered and (chit_chat(rest) or closing(rest)):
            self.note("chit-chat", rest)
            return
        for rule in (self._small_talk, self._choose, self._refusal, self._same_as, self._change,
                     self._special_request, self._typed_answer, self._opening, self._question, self._describe,
                     self._unasked, self._problem, self._str_answer):
            if rule(rest):
                return
        if not self.lines:
            self.note("no-match", rest)

    def _proposal(self, text: str) -> str | None:
        proposals = [a for a in self.acts if a.get("act") == "propose"]
        yn = yes_no(text) if proposals else None
        if not proposals or yn is None:
            return text
        value, words, rest = yn
        if value:
            self.yes_words = words
            accept_proposal(self, proposals[-1], rest)
        else:
            self.note("proposal-declined", words)
        self.answered = True
        return rest

    def _yes_no(self, text: str) -> str | None:
        e = self.expect
        if e is None or self.answered:
            return text
        kind = self.view.kind_of(e.field)
        if e.act != "confirm" and kind not in ("bool", "confirm"):
            return text
        yn = yes_no(text)
        if yn is None:
            return text
        value, words, rest = yn
        if e.act == "confirm":
            if value:
                self.emit("confirm-yes", words, f"confirm({e.rec.var}.{e.field.name})")
            elif not change_marker(rest) and not self._would_change(rest):
                self.emit("confirm-no", words, f"{e.rec.var}.{e.field.name} = None")
            else:
                self.note("confirm-no", words, reason="the rest of the turn gives a new value")
        else:
            self.assign("answer-yes-no", words, e.rec, e.field, value)
        self.answered = True
        return rest

    def _would_change(self, text: str) -> bool:
        return bool(find_mentions(text, self.candidates(), self.view, self.today))

    def _small_talk(self, text: str) -> bool:
        if chit_chat(text):
            self.note("chit-chat", text)
            return True
        return False

    def _choose(self, text: str) -> bool:
        return choose_row(self, text)

    def _refusal(self, text: str) -> bool:
        found = refusal(text)
        words, explicit = found if found else (None, False)
        bare_no = self.expect is not None and self.expect.act == "ask" and self.view.kind_of(
            self.expect.field) == "str" and (
            closing(text) or re.fullmatch(r"(?:no|nope|nah|none|nothing)(?:[,\s]+(?:that'?s|that\s+is)\s+all)?"
                                          r"(?:\s+for\s+now)?[.!]*", text, re.I))
        if not words and not bare_no:
            return False
        bag = Bag.of(text)
        target = (self.expect.rec, self.expect.field) if self.expect else (None, None)
        best = field_mention(self.expect.field, bag)[0] if self.expect else 0
        if words:
            for rec, f in self.candidates() + self._text_fields():
                score = field_mention(f, bag)[0]
                if score >= 2 and score > best:
                    target, best = (rec, f), score
        rec, f = target
        if rec is None or f is None or self.view.kind_of(f) in ("confirm", "bool") and not words:
            return False
        if self.view.kind_of(f) == "confirm" or (self.view.kind_of(f) == "str" and shape(f) == "text"
                                                  and not explicit):
            return False
        self.assign("refusal", words or text, rec, f, REFUSAL)
        return True

    def _text_fields(self) -> list[tuple[TaskRecord, Field]]:
        return [(r, f) for r in self.view.live_records() for f in self.view.input_fields(r)
                if self.view.kind_of(f) == "str"]

    def _same_as(self, text: str) -> bool:
        found = same_as(text)
        e = self.expect
        if not found or e is None:
            return False
        words, what = found
        earlier = []
        for rec in self.state.of_worksheet(e.rec.worksheet):
            if rec.var == e.rec.var:
                break
            if rec.values.get(e.field.name) not in (None, REFUSAL) and ref_target(rec.values.get(e.field.name)) is None:
                earlier.append(rec)
        if what not in ("previous", "first"):
            key = re.sub(r"\W+", "", what.lower())
            named = [r for r in earlier if any(isinstance(v, str) and re.sub(r"\W+", "", v.lower()) == key
                                               for v in r.values.values())]
            earlier = named or earlier
        if not earlier:
            return False
        source = earlier[0] if what == "first" else earlier[-1]
        self.emit("same-as-previous", words, f"{e.rec.var}.{e.field.name} = {source.var}.{e.field.name}")
        return True

    def _change(self, text: str) -> bool:
        marker = change_marker(text)
        e = self.expect
        confirming = e is not None and (e.act == "confirm" or self.view.kind_of(e.field) == "confirm")
        if not marker and (is_question(text) or not (confirming or self.answered)):
            return False
        found = False
        named = change_to(text)
        if named:
            found = self._change_named(*named)
        said = _plain_words(named[1]) if found and named else ""
        for m in find_mentions(text, self.candidates(), self.view, self.today, prefer=e.rec if e else None):
            if m.rec.values.get(m.field.name) == m.value or (said and _plain_words(m.matched) in said):
                continue
            self.assign("change-of-mind", f"{marker or ''} {m.matched}".strip(), m.rec, m.field, m.value)
            found = True
        return found

    def _change_named(self, what: str, value_text: str) -> bool:
        """ "change the grade type for CS 224N to credit/no credit": the named field, in the named record."""
        bag = Bag.of(what)
        scored = [(field_mention(f, bag)[0], rec, f) for rec, f in self.candidates()]
        scored = [s for s in scored if s[0] >= 2]
        if not scored:
            return False
        top = max((s[0], name_coverage(s[2], bag)) for s in scored)
        options = [(rec, f) for score, rec, f in scored if (score, name_coverage(f, bag)) == top]
        key = re.sub(r"\W+", "", what.lower())
        mentioned = [(rec, f) for rec, f in options if any(
            isinstance(v, str) and len(v) > 2 and re.sub(r"\W+", "", v.lower()) in key for v in rec.values.values())]
        mine = [(rec, f) for rec, f in options if rec.var == self.expect_var()]
        rec, f = (mentioned or mine or options)[-1]
        value = self.value_for(f, value_text)
        if value is None:
            return False
        self.assign("change-of-mind", f"{what} to {value_text}", rec, f, value)
        return True

    def _special_request(self, text: str) -> bool:
        targets = [(r, f) for r in self.view.live_records() for f in self.view.input_fields(r, include_dont_ask=True)
                   if self.view.kind_of(f) == "str" and (f.dont_ask or not f.required)
                   and field_stems(f) & _REQUEST_WORDS]
        if not targets:
            return False
        for sentence in sentences(text):
            found = special_request(sentence)
            if found:
                rec, f = targets[0]
                old = rec.values.get(f.name)
                value = f"{old}; {found[1]}" if isinstance(old, str) and old and old != REFUSAL else found[1]
                self.assign("special-request", found[0], rec, f, value)
                return True
        return False

    # ------------------------------------------------------------ answers to the question asked
    def _typed_answer(self, text: str) -> bool:
        e = self.expect
        if e is None or e.act != "ask" or self.answered:
            return False
        kind = self.view.kind_of(e.field)
        if kind == "Enum" and describe_task(self, text, e.rec, e.field):
            self.answered = True
            self._extras(text, e.rec)
            return True
        if kind in ("str", "task", "bool", "confirm", "Enum"):
            return False
        if kind == "row":
            yn = yes_no(text)
            if not text.strip(" .!?") or is_question(text) or _SEARCH_START.match(text) or (yn and not yn[2]):
                return False  # a bare "yes" names no row; questions and searches are read below
            extras = self._extras(text, e.rec)
            query = search_query(text, [m.span.text for m in extras if m.span], set()) or text.strip(" .!?")
            self.emit("answer-to-ask", text, f"{e.rec.var}.{e.field.name} = answer({literal(query)})", type="kb")
            self.answered = True
            return True
        if kind in ("int", "float") and is_question(text):
            return False  # "How many units is CS 448?" asks; it does not answer
        value = self.value_for(e.field, text)
        if value is None:
            return False
        self.assign("answer-to-ask", self.answers.matched, e.rec, e.field, value, type=e.field.type)
        self.answered = True
        self._extras(text, e.rec)
        return True

    def _extras(self, text: str, rec: TaskRecord) -> list[Mention]:
        """Other unfilled fields of the same record that the answer also fills ("tomorrow at 7")."""
        mentions = find_mentions(text, self.candidates(records=[rec], unfilled_only=True, exclude=self.expect.field
                                                       if self.expect else None), self.view, self.today, prefer=rec)
        for m in mentions:
            self.assign("extra-value", m.matched, m.rec, m.field, m.value)
        return mentions

    # ------------------------------------------------------------ questions and searches
    def _question(self, text: str) -> bool:
        asked = is_question(text)
        if asked and all(plea(q) for q in question_sentences(text)) and not _SEARCH_START.match(text):
            return False
        target = self._row_target(text, asked is not None)
        if not asked and target is None:
            return False
        if not self.has_kb():
            self.note("question-no-kb", asked or text, reason="this agent has no knowledge base")
            return True
        if target is not None:
            rec, f = target
            mentions = find_mentions(text, self.candidates(records=[rec]), self.view, self.today, prefer=rec)
            for m in mentions:
                if m.rec.values.get(m.field.name) != m.value:
                    self.assign("extra-value", m.matched, m.rec, m.field, m.value)
            query = search_query(text, [m.span.text for m in mentions if m.span], set())
            if query:
                self.emit("question-fills-field", self.row_words or asked or text,
                          f"{rec.var}.{f.name} = answer({literal(query)})")
                return True
            return bool(mentions)
        questions = question_sentences(text) or [text]
        query = self._decontextualise(" ".join(clean_question(q) for q in questions))
        self.emit("question", asked or "?", f"answer({literal(query)})")
        return True

    def _row_target(self, text: str, asked: bool) -> tuple[TaskRecord, Field] | None:
        """A field holding a KB row that this question searches for (e.g. the restaurant to book)."""
        e = self.expect
        if e is not None and self.view.kind_of(e.field) == "row" and asked:
            return e.rec, e.field
        searching = _SEARCH_START.match(text) is not None
        kb_terms = self.vocabulary.found_in(text, self.ctx.kb) if self.ctx.kb is not None else []
        if not (asked or searching or kb_terms):
            return None
        bag = Bag.of(text)
        for rec in self.view.live_records():
            for f in self.view.input_fields(rec):
                if self.view.kind_of(f) != "row":
                    continue
                value = rec.values.get(f.name)
                pending = value is None or self.view.kb_record(ref_target(value) or "") is not None
                type_words = {stem(w) for w in re.findall(r"[A-Z]?[a-z]+", parse_type(f.type).base)}
                named = searching or bag.hits(type_words | field_stems(f)) or kb_terms
                if named and (pending or (kb_terms and change_marker(text))):
                    self.row_words = ", ".join(kb_terms) if kb_terms and not asked else ""
                    return rec, f
        return None

    def _decontextualise(self, question: str) -> str:
        """Replace "it"/"this course" with the one thing the last report was about, when there was one."""
        focus = None
        for act in reversed(self.acts):
            if act.get("act") == "report" and act.get("kind") == "kb" and isinstance(act.get("result"), list) \
                    and len(act["result"]) == 1 and isinstance(act["result"][0], dict):
                focus = row_label(act["result"][0])
                break
        if not focus or focus.lower() in question.lower():
            return question
        out = re.sub(r"\b(?:this|that|the same)\s+(?:class|course|restaurant|place|one|article)\b", focus, question,
                     flags=re.I)
        return re.sub(r"\bit\b", focus, out, count=1) if out == question else out

    # ------------------------------------------------------------ describing the task or the problem
    def _opening(self, text: str) -> bool:
        """Nothing was asked: statements describe the task, questions beside them are asked as well."""
        if self.expect is not None:
            return False
        parts = sentences(text)
        statements = " ".join(p for p in parts if not is_question(p))
        questions = [p for p in parts if is_question(p) and not plea(p)]
        if not statements or not describe_task(self, statements):
            return False
        if questions and self.has_kb() and not any("answer(" in line for line in self.lines):
            self._question(" ".join(questions))
        return True

    def _describe(self, text: str) -> bool:
        if self.expect is not None and self.expect.act == "ask" and self.view.kind_of(self.expect.field) == "str":
            return False
        return describe_task(self, text)

    def _unasked(self, text: str) -> bool:
        return self.expect is None and predicted_answer(self, text)

    def _problem(self, text: str) -> bool:
        """An opening that tells what happened fills the record's free-text field for it."""
        if self.expect is not None or self.lines or len(text.split()) < 4:
            return False
        for rec in self.view.live_records():
            if rec.parent is not None:
                continue
            for f in self.view.worksheet(rec).fields:
                if f.kind == "input" and not f.dont_ask and self.view.kind_of(f) == "str" and shape(f) == "text" \
                        and self.view.unfilled(rec, f):
                    kept = [s for s in sentences(_GREETING.sub("", text)) if not plea(s)]
                    if kept:
                        self.assign("problem-description", text, rec, f, " ".join(kept))
                        return True
        return False

    def _str_answer(self, text: str) -> bool:
        e = self.expect
        if e is None or e.act != "ask" or self.answered or self.view.kind_of(e.field) != "str":
            return False
        several = self.answers.multi_fill(text, e.rec, e.field)
        if several:
            for f, value, piece in several:
                self.assign("multi-value", piece, e.rec, f, value)
            self.answered = True
            return True
        value = self.value_for(e.field, text)
        if value is None:
            return False
        if shape(e.field) == "text":
            self.assign("free-text", text, e.rec, e.field, value, type="str", shape="text")
            self.answered = True
            return True
        extras = find_mentions(text, self.candidates(records=[e.rec], unfilled_only=True, exclude=e.field),
                               self.view, self.today, prefer=e.rec)
        coded = code_value(text) is not None
        if not extras or coded or len(text.split()) <= 3:
            rule = "free-text" if shape(e.field) == "short" else "answer-to-ask"
            self.assign(rule, text, e.rec, e.field, value, type="str", shape=shape(e.field))
            self.answered = True
        for m in extras:
            self.assign("extra-value", m.matched, m.rec, m.field, m.value)
        return True


def _plain_words(text: str) -> str:
    return " " + re.sub(r"[^a-z0-9]+", " ", text.lower()).strip() + " "


def _factory(agent: Any, **options: Any) -> OfflineParser:
    return OfflineParser()


def _register() -> None:
    from ..agent import BACKEND_FACTORIES
    BACKEND_FACTORIES[("parser", "offline")] = _factory


_register()
