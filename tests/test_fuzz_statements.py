"""Fuzzing the formal statement language and the interpreter on every sample.

Statements are generated from a grammar built from each sample's spec (its record
variables, field paths, enum values, worksheet constructors, `answer(...)`,
`confirm(...)`, `exitws(...)`), then mutated character by character and mixed with
Python that is not part of the language (imports, dunders, calls, SQL). A turn with
any of them either applies statements or rejects them with a reason; it never ends
in an internal error, its state is strict JSON that round-trips, the previous
snapshot is untouched, and replaying the same turn gives the same result.
"""

from __future__ import annotations

import functools
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core_engine import Agent, Spec
from core_engine.spec.model import parse_type, snake_case
from core_engine.dialogue.statements import MAX_STATEMENTS, parse_statements
from tests.fuzz_profile import fuzz
from tests.robustness import SAMPLES, SAMPLES_DIR, assert_turn_sound

INJECTIONS = [
    "__import__('os').system('id')", "import os", "os.system('id')", "open('/etc/passwd')",
    "main.__class__.__bases__", "exec('x=1')", "eval('1+1')", "(lambda: 1)()", "globals()",
    "'; DROP TABLE restaurants; --", "answer(\"x' OR 1=1; --\")", "submit_ticket()", "book_restaurant()",
    "main.confirm = True; submit_ticket(full_name='x')", "del main", "for x in y: pass", "@x\ndef f(): pass",
    "main._private = 1", "main.full_name = b'x'", "main.full_name = 10**10", "main.full_name = {1: 2}",
    "main.full_name = ...", "main.full_name: int = 1", "a = b = 1", "x[::2] = 1", "answer.result[1.5]",
    "\x00", "\ufeff", "\u202e", "```python\nmain.x = 1\n```", "# comment", "'''doc'''", "pass", "1e400", "-" * 3000 + "1",
]


@functools.cache
def agent(name: str) -> Agent:
    return Agent.load(SAMPLES_DIR / name)


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


@st.composite
def value_text(draw: st.DrawFn, spec: Spec, depth: int = 0) -> str:
    enum_values = [ev.value for ws in spec.worksheets for f in ws.fields for ev in f.enum_values] or ["x"]
    choices = [
        st.sampled_from(enum_values).map(_quoted),
        st.text(max_size=20).map(_quoted),
        st.sampled_from(["2024-07-06", "tomorrow", "7pm", "19:30", "NA", "yes", "no", "", "2", "abc@x.org",
                         "Jane Doe", "31/02/2024", "9999-99-99"]).map(_quoted),
        st.integers(-(10**30), 10**30).map(str),
        st.floats(allow_nan=False).map(repr),
        st.sampled_from(["True", "False", "None", "answer.result[0]", "answer.result[1]", "answer.result[-1]",
                         "answer", "main", "answer_2.result[0]"]),
        st.text(max_size=30).map(lambda q: f"answer({_quoted(q)})"),
    ]
    if depth < 2:
        task = [w for w in spec.worksheets if w.kind == "task"]
        choices.append(st.lists(value_text(spec, depth + 1), max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"))
        if task:
            ws = draw(st.sampled_from(task))
            names = [f.name for f in ws.fields] or ["x"]
            kwargs = draw(st.lists(st.tuples(st.sampled_from(names), value_text(spec, depth + 1)), max_size=3))
            choices.append(st.just(f"{ws.name}(" + ", ".join(f"{k}={v}" for k, v in kwargs) + ")"))
    return draw(st.one_of(choices))


@st.composite
def path_text(draw: st.DrawFn, spec: Spec) -> str:
    ws = draw(st.sampled_from(spec.worksheets))
    head = draw(st.sampled_from([snake_case(ws.name), snake_case(ws.name) + "_2", "answer", "main"]))
    parts = [head]
    for _ in range(draw(st.integers(0, 2))):
        if not ws.fields:
            break
        f = draw(st.sampled_from(ws.fields))
        parts.append(f.name)
        try:
            nested = spec.worksheet(parse_type(f.type).worksheet or "")
        except Exception:  # noqa: BLE001 - junk types do not nest
            nested = None
        if nested is None:
            break
        ws = nested
    if ws.fields and draw(st.booleans()):
        parts.append(draw(st.sampled_from(ws.fields)).name)
    return ".".join(parts)


@st.composite
def typed_value(draw: st.DrawFn, spec: Spec, ws_name: str, field_name: str, depth: int = 0) -> str:
    """A value of the field's own type, so that many statements apply rather than being rejected."""
    f = spec.require_worksheet(ws_name).field(field_name)
    assert f is not None
    try:
        tref = parse_type(f.type)
    except Exception:  # noqa: BLE001 - junk type
        return draw(value_text(spec))
    base = tref.item.base if tref.is_list and tref.item else tref.base
    nested = spec.worksheet(base)
    if base == "Enum" and f.enum_values:
        one = st.sampled_from([ev.value for ev in f.enum_values]).map(_quoted)
    elif base == "int":
        one = st.integers(-5, 500).map(str)
    elif base == "float":
        one = st.floats(-1e6, 1e6, allow_nan=False).map(repr)
    elif base in ("bool", "confirm"):
        one = st.sampled_from(["True", "False", '"yes"', '"no"'])
    elif base == "date":
        one = st.sampled_from(['"2024-07-06"', '"tomorrow"', '"next Friday"', '"2024-02-30"'])
    elif base == "time":
        one = st.sampled_from(['"19:30"', '"7pm"', '"noon"', '"25:61"'])
    elif nested is not None and nested.kind == "task" and depth < 2 and nested.fields:
        names = draw(st.lists(st.sampled_from([x.name for x in nested.fields]), max_size=3, unique=True))
        kwargs = [f"{n}={draw(typed_value(spec, nested.name, n, depth + 1))}" for n in names]
        return f"{nested.name}({', '.join(kwargs)})"
    elif nested is not None:
        one = st.sampled_from(['answer("pizza in San Francisco")', "answer.result[0]", 'answer("AI courses")'])
    else:
        one = st.one_of(st.text(max_size=20).map(_quoted), st.sampled_from(['"NA"', '"Jane Doe"', '"a@b.org"']))
    value = draw(one)
    return f"[{value}]" if tref.is_list else value


@st.composite
def typed_assign(draw: st.DrawFn, spec: Spec) -> str:
    ws = draw(st.sampled_from([w for w in spec.worksheets if w.kind == "task" and w.fields]))
    f = draw(st.sampled_from(ws.fields))
    return f"{snake_case(ws.name)}.{f.name} = {draw(typed_value(spec, ws.name, f.name))}"


@st.composite
def statement_text(draw: st.DrawFn, spec: Spec) -> str:
    kind = draw(st.sampled_from(["typed", "typed", "typed", "typed", "assign", "record", "answer", "confirm",
                                 "exit", "inject"]))
    if kind == "typed":
        return draw(typed_assign(spec))
    if kind == "assign":
        return f"{draw(path_text(spec))} = {draw(value_text(spec))}"
    if kind == "record":
        ws = draw(st.sampled_from(spec.worksheets))
        return f"{snake_case(ws.name)} = {draw(value_text(spec))}"
    if kind == "answer":
        return f"answer({_quoted(draw(st.text(max_size=40)))})"
    if kind == "confirm":
        return draw(st.sampled_from(["confirm({p})", "confirm({p}, False)", "confirm({p}, True)", "{p}.confirm()",
                                     "confirm({p}, 1)", "confirm()"])).format(p=draw(path_text(spec)))
    if kind == "exit":
        return f"exitws({draw(path_text(spec)).split('.')[0]})"
    return draw(st.sampled_from(INJECTIONS))


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    for _ in range(draw(st.integers(0, 3))):
        pos = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        piece = draw(st.one_of(st.sampled_from(list("()[]{}.,:;='\"\\#\n_ ") + INJECTIONS[:8]), st.text(max_size=3)))
        if op == "insert":
            text = text[:pos] + piece + text[pos:]
        elif op == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 4)):]
        else:
            text = text[:pos] + piece + text[pos + len(piece):]
    return text


@st.composite
def turn_text(draw: st.DrawFn, spec: Spec) -> str:
    lines = [draw(statement_text(spec)) for _ in range(draw(st.integers(1, 4)))]
    lines = [draw(mutated(line)) if draw(st.integers(0, 3)) == 0 else line for line in lines]
    return draw(st.sampled_from(["\n", "; ", "\n\n"])).join(lines)


def play(name: str, turns: list[str]) -> None:
    session = agent(name).new_session(parser="formal")
    for text in turns:
        before = session.state
        result = session.turn(text)
        assert_turn_sound(result)
        session.rewind(1)
        assert session.state == before, "the previous state changed"
        again = session.turn(text)
        assert (again.state, again.acts, again.response) == (result.state, result.acts, result.response), \
            "the same turn on the same state gave a different result"


@pytest.mark.parametrize("name", SAMPLES)
def test_grammar_statements_on_every_sample(name: str) -> None:
    spec = agent(name).spec

    @fuzz(12 if name in ("restaurant_reservation", "course_enrollment") else 25)
    @given(st.lists(turn_text(spec), min_size=1, max_size=5))
    def run(turns: list[str]) -> None:
        play(name, turns)

    run()


@fuzz(100)
@given(st.one_of(st.text(max_size=200), st.lists(st.sampled_from(INJECTIONS), max_size=6).map("\n".join),
                 turn_text(agent("ticket_submission").spec)))
def test_parse_statements_never_raises(text: str) -> None:
    parsed = parse_statements(text)
    assert len(parsed.statements) <= MAX_STATEMENTS
    for rejected in parsed.rejected:
        assert rejected["error"] and isinstance(rejected["line"], int)
    json.dumps(parsed.rejected)


def test_statement_text_limits_are_enforced() -> None:
    """Bounded input: too many statements or too much text is rejected, not executed slowly."""
    many = "\n".join(f'main.full_name = "n{i}"' for i in range(MAX_STATEMENTS + 10))
    parsed = parse_statements(many)
    assert len(parsed.statements) == MAX_STATEMENTS and len(parsed.rejected) == 10
    huge = parse_statements('main.full_name = "' + "x" * 30_000 + '"')
    assert not huge.statements and "longer than" in huge.rejected[0]["error"]
    deep = parse_statements("main.full_name = " + "-" * 5000 + "1")
    # CPython's parser either trips its own depth limit or yields a deep UnaryOp chain,
    # depending on the recursion limit left by earlier tests; both must be rejected cleanly.
    assert not deep.statements and len(deep.rejected) == 1
    assert any(m in deep.rejected[0]["error"] for m in ("nested too deeply", "unsupported expression"))
