"""The spec-code sandbox: predicates and actions run right, escapes are refused."""

from __future__ import annotations

import time
from typing import Any

import pytest

from core_engine.errors import (
    GenieError,
    KnowledgeError,
    SandboxError,
    SandboxTimeout,
    SandboxViolation,
)
from core_engine.policy.sandbox import (
    SAFE_BUILTINS,
    Code,
    SandboxObject,
    check_block,
    check_expression,
    evaluate,
    execute,
    free_names,
)


class FakeRecord:
    """A record proxy as the host would expose it: fields plus one method."""

    def __init__(self, **fields: Any) -> None:
        self.fields = dict(fields)
        self.writes: list[tuple[str, Any]] = []

    def sandbox_getattr(self, name: str) -> Any:
        if name not in self.fields:
            raise SandboxError(f"record has no field '{name}'", attribute=name)
        return self.fields[name]

    def sandbox_setattr(self, name: str, value: Any) -> None:
        if name not in self.fields:
            raise SandboxError(f"record has no field '{name}'", attribute=name)
        self.fields[name] = value
        self.writes.append((name, value))

    def sandbox_call_method(self, name: str, args: list, kwargs: dict) -> Any:
        if name == "is_completed":
            return all(v is not None for v in self.fields.values())
        raise SandboxError(f"record has no method '{name}'")


class Host:
    """Host callables that record what spec code asked for."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.proposed: list[tuple[Any, dict]] = []

    def say(self, text: str) -> None:
        self.said.append(text)

    def propose(self, worksheet: Any, values: dict) -> None:
        self.proposed.append((worksheet, values))


def pred(source: str, **names: Any) -> Any:
    return evaluate(check_expression(source), names)


def run(source: str, **names: Any) -> dict[str, Any]:
    return execute(check_block(source), names)


# --- predicates ---------------------------------------------------------------------


def test_field_predicates_compare_record_values() -> None:
    record = FakeRecord(student_task="External Test Credits", more_courses_2=True, pin="NA")
    assert pred('self.student_task == "External Test Credits"', self=record) is True
    assert pred("self.more_courses_2 == True", self=record) is True
    assert pred('self.pin != "NA" and self.pin is not None', self=record) is False
    assert pred('user_task == "Book Restaurant"', user_task="Book Restaurant") is True


def test_predicate_calls_method_and_short_circuits() -> None:
    done = FakeRecord(pin="1")
    source = 'self.first_authentication_details.is_completed() or x.pin == "NA"'
    # `x` is None but never read, because the left side is already true.
    assert pred(source, self=FakeRecord(first_authentication_details=done), x=None) is True
    pending = FakeRecord(pin=None)
    assert (
        pred(source, self=FakeRecord(first_authentication_details=pending), x=FakeRecord(pin="NA"))
        is True
    )


def test_expressions_cover_the_allowed_subset() -> None:
    assert pred("1 + 2 * 3 - 4 // 3 % 2 - -1") == 7
    assert pred("2 ** 10") == 1024
    assert pred("7 / 2") == 3.5
    assert pred("1 < 2 <= 2 != 3") is True
    assert pred("'a' in ['a', 'b'] and 'c' not in 'ab'") is True
    assert pred("x if x else 'empty'", x="") == "empty"
    assert pred("[1, 2, 3][1:]") == [2, 3]
    assert pred("{'a': 1}['a'] + (4, 5)[-1]") == 6
    assert pred("{1, 2} == {2, 1}") is True
    assert pred("[n * n for n in range(4) if n % 2]") == [1, 9]
    assert pred("{k: v for k, v in d.items()}", d={"a": 1}) == {"a": 1}
    assert pred("any(n > 2 for n in [1, 3])") is True
    assert pred("sorted(['b', 'a'])[0].upper()") == "A"
    assert pred("' Ann '.strip().lower().startswith('an')") is True
    assert pred("', '.join(str(n) for n in [1, 2])") == "1, 2"
    assert pred("d.get('missing', 0)", d={}) == 0
    assert pred("len(name) > 2 and not flag", name="Bob", flag=False) is True
    assert pred("max([3, 1], key=abs) + min(1, 2) + round(2.6) + sum([1, 2])") == 10


def test_fstrings_format_values() -> None:
    record = FakeRecord(full_name="Ada", amount=3.14159)
    assert pred('f"Hi {self.full_name}! {self.amount:.2f} {self.full_name!r}"', self=record) == (
        "Hi Ada! 3.14 'Ada'"
    )


# --- actions ------------------------------------------------------------------------


def test_action_says_when_confirm_is_false() -> None:
    host = Host()
    action = 'if self.confirm == False:\n    say("Thank you, can I assist you in any other way?")'
    run(action, self=FakeRecord(confirm=False), say=host.say)
    run(action, self=FakeRecord(confirm=True), say=host.say)
    assert host.said == ["Thank you, can I assist you in any other way?"]


def test_action_writes_through_the_host_protocol() -> None:
    record = FakeRecord(account_number="NA", pin="1234")
    run('if self.account_number == "NA" and self.pin is not None: self.pin = None', self=record)
    assert record.writes == [("pin", None)]
    main = FakeRecord(authentication_complete=False)
    run("main.authentication_complete = True", main=main)
    assert main.fields["authentication_complete"] is True


def test_action_proposes_and_calls_apis_with_keywords() -> None:
    host = Host()
    worksheet = object()  # a host value standing for the BookRestaurant worksheet
    record = FakeRecord(full_name="Ada")
    calls: list[dict] = []

    def submit_ticket(**kwargs: Any) -> dict:
        calls.append(kwargs)
        return {"ticket": 7}

    local = run(
        'propose(BookRestaurant, {"restaurant": self})\n'
        "result = submit_ticket(name=self.full_name)",
        self=record,
        propose=host.propose,
        BookRestaurant=worksheet,
        submit_ticket=submit_ticket,
    )
    assert host.proposed == [(worksheet, {"restaurant": record})]
    assert calls == [{"name": "Ada"}]
    assert local == {"result": {"ticket": 7}}


def test_action_loops_assignments_and_control_flow() -> None:
    host = Host()
    source = """
total = 0
names = []
for i, course in enumerate(courses):
    if course == "skip":
        continue
    if i > 3:
        break
    names.append(course.title())
    total += i
count = 0
while count < 5:
    count += 1
else:
    done = True
a, b = [1, 2]
pairs = {}
pairs["x"] = a
pairs["x"] += b
for letter in "ab":
    pass
say(f"{total} {', '.join(names)}")
"""
    local = run(source, courses=["cs101", "skip", "ee102", "me103", "x", "y"], say=host.say)
    assert host.said == ["5 Cs101, Ee102, Me103"]
    assert local["count"] == 5 and local["done"] is True
    assert local["pairs"] == {"x": 3}
    assert "letter" in local


def test_host_aug_assign_on_attribute() -> None:
    record = FakeRecord(attempts=1)
    run("self.attempts += 2", self=record)
    assert record.fields["attempts"] == 3


def test_execute_returns_only_block_locals_and_evaluate_needs_expression() -> None:
    assert run("x = 1\ny = x + 1") == {"x": 1, "y": 2}
    with pytest.raises(SandboxError, match="execute"):
        evaluate(check_block("x = 1"), {})
    assert execute(check_expression("1 + 1"), {}) == {}


def test_code_reports_names_attributes_calls_and_writes() -> None:
    code = check_block(
        "if self.pin is None:\n    main.done = True\nn = [c for c in courses]\nsay(f'{n} {len(n)}')"
    )
    assert code.mode == "block"
    assert code.names == {"self", "main", "courses", "say", "len"}
    assert code.attributes == {("self", "pin"), ("main", "done")}
    assert code.assigned == {("main", "done")}
    assert code.calls == {"say", "len"}
    assert free_names('self.x == "NA" and y') == {"self", "y"}
    assert free_names("z = w") == {"w"}


def test_checked_code_is_reusable_and_hand_built_code_is_checked() -> None:
    code = check_expression("self.pin")
    assert evaluate(code, {"self": FakeRecord(pin=1)}) == 1
    assert evaluate(code, {"self": FakeRecord(pin=2)}) == 2
    forged = Code(source="__import__('os')", mode="expression", names=frozenset(),
                  attributes=frozenset(), calls=frozenset())  # fmt: skip
    with pytest.raises(SandboxViolation):
        evaluate(forged, {})


def test_fake_record_satisfies_protocol_and_builtins_exclude_isinstance() -> None:
    assert isinstance(FakeRecord(), SandboxObject)
    assert "isinstance" not in SAFE_BUILTINS and "len" in SAFE_BUILTINS


# --- run-time errors ----------------------------------------------------------------


def test_unknown_name_is_an_error_with_position() -> None:
    with pytest.raises(SandboxError, match="unknown name 'nope'") as err:
        run("x = 1\ny = nope")
    assert err.value.context["line"] == 2


def test_attribute_of_none_says_what_is_empty() -> None:
    record = FakeRecord(first_authentication_details=None)
    message = r"'self\.first_authentication_details' is empty \(None\); cannot read '\.pin'"
    with pytest.raises(SandboxError, match=message):
        pred('self.first_authentication_details.pin == "NA"', self=record)
    with pytest.raises(SandboxError, match="empty"):
        run("x.pin = 1", x=None)


def test_python_errors_become_sandbox_errors_with_cause() -> None:
    cases = {
        "1 / 0": ZeroDivisionError,
        "d['k']": KeyError,
        "[1][5]": IndexError,
        "1 + 'a'": TypeError,
    }
    for source, cause in cases.items():
        with pytest.raises(SandboxError) as err:
            pred(source, d={})
        assert isinstance(err.value.__cause__, cause)
        assert err.value.context["line"] == 1 and "col" in err.value.context


def test_host_genie_errors_propagate_unchanged() -> None:
    def lookup() -> None:
        raise KnowledgeError("query failed", sql="SELECT 1")

    with pytest.raises(KnowledgeError) as err:
        run("lookup()", lookup=lookup)
    assert err.value.context == {"sql": "SELECT 1"}
    with pytest.raises(SandboxError, match="no field 'nope'"):
        pred("self.nope", self=FakeRecord())


def test_only_host_callables_and_builtins_can_be_called() -> None:
    with pytest.raises(SandboxError, match="not callable"):
        run("x = 1\nx()")
    # A callable that reaches code other than through `names` is not callable.
    record = FakeRecord(helper=print)
    with pytest.raises(SandboxError, match="not a function the host provided"):
        run("f = self.helper\nf('hi')", self=record)
    # Aliasing a host callable keeps it callable.
    host = Host()
    run("s = say\ns('hi')", say=host.say)
    assert host.said == ["hi"]


def test_plain_values_expose_only_allow_listed_methods() -> None:
    with pytest.raises(SandboxError, match=r"cannot call '\.center"):
        pred("'a'.center(10)")
    with pytest.raises(SandboxError, match="cannot read"):
        pred("'a'.upper")
    with pytest.raises(SandboxError, match=r"cannot call '\.clear"):
        run("d = {}\nd.clear()")
    with pytest.raises(SandboxError, match="cannot loop"):
        run("for x in self: pass", self=FakeRecord())


def test_none_values_in_names_are_values() -> None:
    assert pred("x is None", x=None) is True


# --- escapes and budgets --------------------------------------------------------------

ESCAPES = [
    "__import__('os')",
    "import os",
    "from os import system",
    "().__class__.__bases__[0].__subclasses__()",
    "self.__dict__",
    "open('/etc/passwd')",
    "getattr(self, 'x')",
    "eval('1')",
    "exec('x=1')",
    "lambda: 1",
    '"{0.__class__}".format(1)',
    "[].__class__",
    "type(1)",
    "f'{x.__class__}'",
    "def f(): pass",
    "class A: pass",
    "with x: pass",
    "try:\n    pass\nexcept: pass",
    "raise ValueError",
    "global x",
    "del x",
    "(y := 1)",
    "return 1",
    "x._private",
    "globals()",
    "[*x]",
    "f(**x)",
    "x = 1 if y else 2\nbreak",
    "(lambda: 1)()",
    "x[0]()",
]


@pytest.mark.parametrize("source", ESCAPES)
def test_escape_attempts_are_refused_up_front(source: str) -> None:
    with pytest.raises(SandboxViolation) as err:
        check_block(source)
    assert err.value.context.get("construct")
    assert "line" in err.value.context or err.value.context["construct"] == "source"


def test_violation_names_construct_line_and_column() -> None:
    with pytest.raises(SandboxViolation) as err:
        check_block("x = 1\nif x:\n    import os")
    assert err.value.context == {"line": 3, "col": 5, "construct": "import"}
    assert "import is not allowed" in str(err.value)
    with pytest.raises(SandboxViolation, match="attribute '__class__'") as err:
        check_expression("f'{x.__class__}'")
    assert err.value.context["col"] == 4


def test_syntax_errors_say_so_and_where() -> None:
    with pytest.raises(SandboxViolation, match="syntax error") as err:
        check_block("x = 1\ny = (2 +")
    assert err.value.context["construct"] == "syntax error"
    assert err.value.context["line"] == 2 and err.value.context["col"]
    with pytest.raises(SandboxViolation, match="syntax error"):
        check_expression("x = 1")  # a statement is not a predicate
    with pytest.raises(SandboxViolation, match="empty"):
        check_expression("   ")


def test_indented_snippets_from_spreadsheet_cells_are_accepted() -> None:
    assert pred("  1 + 1") == 2
    assert run("\n    a = 1\n    if a:\n        b = 2\n") == {"a": 1, "b": 2}


def test_string_format_on_a_variable_is_refused_at_run_time() -> None:
    with pytest.raises(SandboxError, match="format"):
        run("t = '{0.__class__}'\nt.format(1)")
    with pytest.raises(SandboxError, match="f-string"):
        pred("'%s' % x", x=1)


def test_infinite_loop_times_out_quickly() -> None:
    started = time.monotonic()
    with pytest.raises(SandboxTimeout, match="steps"):
        run("while True: pass")
    assert time.monotonic() - started < 1.0


def test_wall_clock_limit_trips_on_slow_host_calls() -> None:
    with pytest.raises(SandboxTimeout, match="time limit"):
        execute(check_block("while True:\n    nap()"), {"nap": lambda: time.sleep(0.002)},
                max_steps=1_000_000, timeout_s=0.05)  # fmt: skip


def test_step_budget_counts_comprehensions() -> None:
    with pytest.raises(SandboxTimeout):
        pred("[[y for y in range(1000)] for x in range(1000)]")


@pytest.mark.parametrize(
    "source",
    [
        '"a" * 10**9',
        "2 ** 10**8",
        "10 ** 2000",
        "(10 ** 900) ** 900",
        "[0] * 10**7",
        "10**9 * 'ab'",
        "range(10**9)",
        "f'{x:>100000000}'",
        "'a' * 900000 + 'b' * 900000",
        "'ab'.replace('a', 'a' * 10**6)",
        "sum([[1], [2]], [])",
    ],
)
def test_oversized_values_are_refused(source: str) -> None:
    with pytest.raises(SandboxError):
        pred(source, x=1)


def test_doubling_a_list_hits_the_size_limit() -> None:
    with pytest.raises(SandboxError, match="limit"):
        run("x = [1]\nwhile True:\n    x.extend(x)")
    with pytest.raises(SandboxError, match="limit"):
        run("x = 'ab'\nwhile True:\n    x += x")
    with pytest.raises(SandboxError, match="bits"):
        run("x = 3\nwhile True:\n    x = x * x")


def test_deeply_nested_code_is_refused() -> None:
    nested = "1"
    for _ in range(120):
        nested = f"[{nested} for y in [1]]"
    with pytest.raises(SandboxViolation, match="nested"):
        check_expression(nested)
    with pytest.raises(SandboxViolation):
        check_expression("[" * 300 + "]" * 300)
    with pytest.raises(SandboxViolation):
        check_expression("-" * 19_000 + "1")
    modest = "1"
    for _ in range(20):
        modest = f"[{modest} for y in [1]]"
    assert pred(modest) == [[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]


def test_errors_are_genie_errors() -> None:
    assert issubclass(SandboxViolation, GenieError) and issubclass(SandboxTimeout, SandboxError)
