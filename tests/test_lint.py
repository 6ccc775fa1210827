"""The spec linter: one deliberately broken spec per check, each mutated from a valid base."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from core_engine.errors import KnowledgeError
from core_engine.lint import Diagnostic, has_errors, lint
from core_engine.spec.model import Spec

BASE: dict[str, Any] = {
    "name": "restaurant",
    "worksheets": [
        {"name": "UserInfo", "kind": "task", "fields": [
            {"name": "user_task", "type": "Enum", "enum_values": ["Book Restaurant"]}]},
        {"name": "BookRestaurant", "kind": "task", "predicate": 'user_task == "Book Restaurant"',
         "api": "book_restaurant",
         "actions": 'say(f"Booked {self.restaurant.name} for {self.number_of_people}.")',
         "fields": [
             {"name": "restaurant", "type": "Restaurant"},
             {"name": "date", "type": "date"},
             {"name": "time", "type": "time"},
             {"name": "number_of_people", "type": "int", "predicate": "self.restaurant is not None"},
             {"name": "special_request_info", "type": "str", "dont_ask": True, "required": False},
             {"name": "confirm", "type": "confirm",
              "actions": 'if self.confirm == False:\n    say("Thank you, can I help with anything else?")'},
         ]},
        {"name": "Restaurant", "kind": "type",
         "actions": 'if user_task != "Book Restaurant":\n    propose(BookRestaurant, {"restaurant": self})',
         "fields": [
             {"name": "id", "type": "int"},
             {"name": "name", "type": "str"},
             {"name": "price", "type": "Enum", "enum_values": ["cheap", "moderate", "expensive", "luxury"]},
             {"name": "cuisines", "type": "List[str]"}]},
        {"name": "restaurants", "kind": "kb", "fields": [
            {"name": "id", "type": "int", "primary_key": True},
            {"name": "name", "type": "str"},
            {"name": "cuisines", "type": "List[str]"},
            {"name": "price", "type": "Enum", "enum_values": ["cheap", "moderate", "expensive", "luxury"]},
            {"name": "rating", "type": "float"}]},
    ],
    "apis": [{"name": "book_restaurant", "kind": "mock"}],
}


def ws(d: dict, name: str) -> dict:
    return next(w for w in d["worksheets"] if w["name"] == name)


def fld(d: dict, worksheet: str, name: str) -> dict:
    return next(f for f in ws(d, worksheet)["fields"] if f["name"] == name)


def mutate(change: Callable[[dict], None]) -> Spec:
    data = copy.deepcopy(BASE)
    change(data)
    return Spec.model_validate(data)


def key(d: Diagnostic) -> tuple:
    return (d.code, d.severity, d.worksheet, d.field, d.attribute)


def setter(path: Callable[[dict], dict], attr: str, value: Any) -> Callable[[dict], None]:
    return lambda d: path(d).__setitem__(attr, value)


def add_field(worksheet: str, field: dict) -> Callable[[dict], None]:
    return lambda d: ws(d, worksheet)["fields"].append(field)


BR = lambda name: (lambda d: fld(d, "BookRestaurant", name))  # noqa: E731
WS = lambda name: (lambda d: ws(d, name))  # noqa: E731

# (id, mutation, expected (code, severity, worksheet, field, attribute)) — the only diagnostic
CASES = [
    ("unknown-type", setter(BR("date"), "type", "Dat"),
     ("unknown-type", "error", "BookRestaurant", "date", "type")),
    ("junk-type", setter(BR("date"), "type", "date or time"),
     ("unknown-type", "error", "BookRestaurant", "date", "type")),
    ("list-without-item", setter(BR("date"), "type", "List"),
     ("unknown-type", "error", "BookRestaurant", "date", "type")),
    ("list-of-unknown", setter(BR("date"), "type", "List[Dte]"),
     ("unknown-type", "error", "BookRestaurant", "date", "type")),
    ("empty-enum", lambda d: fld(d, "UserInfo", "user_task").__setitem__("enum_values", []),
     ("empty-enum", "error", "UserInfo", "user_task", "enum_values")),
    ("enum-on-non-enum", setter(BR("time"), "enum_values", ["noon"]),
     ("enum-on-non-enum", "warning", "BookRestaurant", "time", "enum_values")),
    ("self-unknown-field", setter(BR("number_of_people"), "predicate", "self.restaurnt is not None"),
     ("unknown-field-reference", "error", "BookRestaurant", "number_of_people", "predicate")),
    ("nested-unknown-field", setter(WS("BookRestaurant"), "actions", "say(self.restaurant.nme)"),
     ("unknown-field-reference", "error", "BookRestaurant", None, "ws_actions")),
    ("record-var-unknown-field", setter(WS("Restaurant"), "actions", "say(user_info.usr_task)"),
     ("unknown-field-reference", "error", "Restaurant", None, "ws_actions")),
    ("unknown-bare-name", setter(WS("BookRestaurant"), "predicate", 'user_tsk == "Book Restaurant"'),
     ("unknown-name", "error", "BookRestaurant", None, "ws_predicate")),
    ("undeclared-api-call", setter(BR("confirm"), "actions", "book_table(self.date)"),
     ("unknown-name", "error", "BookRestaurant", "confirm", "actions")),
    ("syntax-error", setter(BR("number_of_people"), "predicate", "self.restaurant is not"),
     ("syntax-error", "error", "BookRestaurant", "number_of_people", "predicate")),
    ("assignment-as-predicate", setter(BR("number_of_people"), "predicate", "self.date = 1"),
     ("syntax-error", "error", "BookRestaurant", "number_of_people", "predicate")),
    ("import", setter(BR("confirm"), "actions", "import os"),
     ("disallowed-construct", "error", "BookRestaurant", "confirm", "actions")),
    ("dunder", setter(WS("BookRestaurant"), "predicate", "self.__class__ is None"),
     ("disallowed-construct", "error", "BookRestaurant", None, "ws_predicate")),
    ("required-and-dont-ask", setter(BR("special_request_info"), "required", True),
     ("required-and-dont-ask", "warning", "BookRestaurant", "special_request_info", "dont_ask")),
    ("enum-kb-mismatch", lambda d: fld(d, "Restaurant", "price").__setitem__(
        "enum_values", ["cheap", "moderate", "expensive", "pricey"]),
     ("enum-kb-mismatch", "warning", "Restaurant", "price", "enum_values")),
    ("nesting-cycle", add_field("Restaurant", {"name": "booking", "type": "BookRestaurant"}),
     ("nesting-cycle", "error", "BookRestaurant", "restaurant", "type")),
    ("nesting-cycle-list", add_field("Restaurant", {"name": "bookings", "type": "List[BookRestaurant]"}),
     ("nesting-cycle", "error", "BookRestaurant", "restaurant", "type")),
    ("self-nesting", add_field("Restaurant", {"name": "sister", "type": "Restaurant", "required": False}),
     ("nesting-cycle", "error", "Restaurant", "sister", "type")),
    ("unreachable", lambda d: d["worksheets"].append(
        {"name": "Feedback", "fields": [{"name": "rating", "type": "int"}]}),
     ("unreachable-worksheet", "warning", "Feedback", None, "ws_predicate")),
    ("duplicate-worksheet", lambda d: d["worksheets"].append(copy.deepcopy(ws(d, "Restaurant"))),
     ("duplicate-name", "error", "Restaurant", None, "name")),
    ("duplicate-field", add_field("BookRestaurant", {"name": "date", "type": "str"}),
     ("duplicate-name", "error", "BookRestaurant", "date", "name")),
    ("duplicate-enum-value", lambda d: fld(d, "UserInfo", "user_task").__setitem__(
        "enum_values", ["Book Restaurant", "book restaurant"]),
     ("duplicate-name", "warning", "UserInfo", "user_task", "enum_values")),
    ("unknown-api", setter(WS("BookRestaurant"), "api", "book_restaurnt"),
     ("unknown-api", "error", "BookRestaurant", None, "api")),
    ("start-guarded", setter(WS("UserInfo"), "predicate", "True"),  # still opened: the reference's rule
     ("start-worksheet-guarded", "warning", "UserInfo", None, "start_worksheet")),
    ("start-setting-unknown", lambda d: d.__setitem__("settings", {"start_worksheet": "Main"}),
     ("no-start-worksheet", "error", None, None, "start_worksheet")),
    ("start-setting-not-task", lambda d: d.__setitem__("settings", {"start_worksheet": "Restaurant"}),
     ("no-start-worksheet", "error", "Restaurant", None, "start_worksheet")),
    ("bad-field-name", setter(BR("special_request_info"), "name", "special request info"),
     ("bad-name", "error", "BookRestaurant", "special request info", "name")),
    ("keyword-field-name", add_field("BookRestaurant", {"name": "from", "type": "str", "required": False}),
     ("bad-name", "error", "BookRestaurant", "from", "name")),
    ("bad-worksheet-name", setter(WS("restaurants"), "name", "restaurant-table"),
     ("bad-name", "error", "restaurant-table", None, "name")),
    ("kb-actions", setter(WS("restaurants"), "actions", 'say("hi")'),
     ("kb-actions", "warning", "restaurants", None, "ws_actions")),
    ("redundant-confirm", setter(BR("confirm"), "confirm", True),
     ("redundant-confirm", "warning", "BookRestaurant", "confirm", "confirm")),
    ("internal-never-assigned", add_field("BookRestaurant", {"name": "booking_id", "kind": "internal"}),
     ("internal-never-assigned", "warning", "BookRestaurant", "booking_id", "required")),
    ("list-of-confirm", add_field("BookRestaurant", {"name": "checks", "type": "List[confirm]"}),
     ("list-of-confirm", "error", "BookRestaurant", "checks", "type")),
    ("propose-non-task", setter(WS("Restaurant"), "actions", 'propose(Restaurant, {"name": "x"})'),
     ("bad-propose", "error", "Restaurant", None, "ws_actions")),
    ("propose-unknown-worksheet", setter(WS("Restaurant"), "actions", 'propose(BookTable, {"date": 1})'),
     ("bad-propose", "error", "Restaurant", None, "ws_actions")),
    ("propose-unknown-key",
     setter(WS("Restaurant"), "actions", 'propose(BookRestaurant, {"restaurnt": self})'),
     ("unknown-field-reference", "error", "Restaurant", None, "ws_actions")),
    ("record-subscript", setter(BR("number_of_people"), "predicate", 'self.restaurant["name"] is not None'),
     ("record-subscript", "error", "BookRestaurant", "number_of_people", "predicate")),
    ("constructor-unknown-keyword", setter(BR("confirm"), "actions", 'r = Restaurant(nam="x")\nsay(r.name)'),
     ("unknown-field-reference", "error", "BookRestaurant", "confirm", "actions")),
]


def test_base_spec_is_clean() -> None:
    assert lint(Spec.model_validate(BASE)) == []


def test_there_are_enough_broken_cases() -> None:
    assert len(CASES) >= 20
    assert len({c[0] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("change, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_broken_spec_gives_exactly_the_expected_diagnostic(change, expected) -> None:
    diags = lint(mutate(change))
    assert [key(d) for d in diags] == [expected]
    d = diags[0]
    assert d.message and d.message[0].isupper() and d.message.rstrip().endswith((".", "?"))
    assert has_errors(diags) == (expected[1] == "error")


def _api(**fields: Any) -> Callable[[dict], None]:
    return lambda d: d["apis"].append({"name": "notify", **fields})


@pytest.mark.parametrize("change, code, attribute", [
    (_api(kind="http"), "api-missing-url", "url"),
    (_api(kind="python"), "api-missing-function", "function"),
    (_api(kind="mock", parameters=[{"name": "when", "type": "Tme"}]), "unknown-type", "parameters"),
    (_api(kind="mock", parameters=[{"name": "for", "type": "str"}]), "bad-name", "parameters"),
])
def test_api_declaration_problems_name_the_api(change, code, attribute) -> None:
    diags = lint(mutate(change))
    assert [(d.code, d.severity, d.worksheet, d.field, d.attribute, d.api) for d in diags] == [
        (code, "error", None, None, attribute, "notify")]
    assert diags[0].location() == f"API notify ({attribute})"


# ---------------------------------------------------------------- valid code that must pass

@pytest.mark.parametrize("attribute, source", [
    ("actions", "if self.restaurant.is_completed():\n    say('ok')"),
    ("actions", "n = self.number_of_people\nsay(str(n))"),
    ("actions", "for c in self.restaurant.cuisines:\n    say(c)"),
    ("predicate", 'any(c == "Thai" for c in self.restaurant.cuisines)'),
    ("predicate", "book_restaurant.date is not None and user_info.user_task is not None"),
    ("predicate", "len(self.restaurant.name) > 0 and self.restaurant.price in ['cheap']"),
    ("actions", "book_restaurant(date=self.date)"),
    ("actions", 'answer("cheap thai")\nexitws()'),
    ("actions", 'r = Restaurant(name="x")\nsay(r.name)'),
    ("predicate", "   self.date is not None"),
])
def test_valid_code_gives_no_diagnostic(attribute: str, source: str) -> None:
    spec = mutate(setter(BR("confirm"), attribute, source))
    assert lint(spec) == []


BANK: dict[str, Any] = {
    "worksheets": [
        {"name": "Main", "api": "bank_fraud_report", "fields": [
            {"name": "full_name"},
            {"name": "first_authentication_details", "type": "FirstAuthentication"},
            {"name": "second_authentication_details", "type": "SecondAuthentication",
             "predicate": 'self.first_authentication_details is not None and '
                          '(self.first_authentication_details.account_number == "NA" '
                          'or self.first_authentication_details.pin == "NA")'},
            {"name": "authentication_complete", "type": "bool", "kind": "internal"},
            {"name": "fraud_report", "predicate": "self.authentication_complete == True"}]},
        {"name": "FirstAuthentication",
         "actions": 'if self.account_number != "NA" and self.pin != "NA":\n'
                    '    authentication_complete = True',
         "fields": [
             {"name": "account_number", "predicate": 'self.pin != "NA"'},
             {"name": "pin", "predicate": 'account_number != "NA" and full_name is not None'}]},
        {"name": "SecondAuthentication",
         "actions": "if self.date_of_birth is not None:\n    main.authentication_complete = True",
         "fields": [{"name": "date_of_birth", "type": "date"}, {"name": "security_answer_1"},
                    {"name": "security_answer_2"}]},
    ],
    "apis": [{"name": "bank_fraud_report"}],
}


def test_nested_worksheets_see_their_ancestors_fields() -> None:
    assert lint(Spec.model_validate(BANK)) == []


def test_paths_through_record_variables_are_checked() -> None:
    data = copy.deepcopy(BANK)
    ws(data, "Main")["actions"] = "say(main.first_authentication_details.pinn)"
    diags = lint(Spec.model_validate(data))
    assert [key(d) for d in diags] == [("unknown-field-reference", "error", "Main", None, "ws_actions")]
    assert "FirstAuthentication" in diags[0].message and "'pin'" in diags[0].message  # did you mean


def test_the_papers_wrong_worksheet_name_is_caught() -> None:
    data = copy.deepcopy(BANK)
    ws(data, "SecondAuthentication")["predicate"] = 'FirstAuthenticationDetails.account_number == "NA"'
    diags = lint(Spec.model_validate(data))
    assert [key(d) for d in diags] == [
        ("unknown-name", "error", "SecondAuthentication", None, "ws_predicate")]
    assert (diags[0].line, diags[0].col) == (1, 1)


def test_internal_field_assigned_nowhere_is_reported_once_the_action_goes() -> None:
    data = copy.deepcopy(BANK)
    ws(data, "FirstAuthentication")["actions"] = ""
    ws(data, "SecondAuthentication")["actions"] = ""
    assert [key(d) for d in lint(Spec.model_validate(data))] == [
        ("internal-never-assigned", "warning", "Main", "authentication_complete", "required")]


def test_a_proposed_worksheet_is_reachable() -> None:
    def change(d: dict) -> None:
        d["worksheets"].append({"name": "Feedback", "fields": [{"name": "rating", "type": "int"}]})
        fld(d, "BookRestaurant", "confirm")["actions"] = 'propose(Feedback, {"rating": 5})'
    assert lint(mutate(change)) == []


# ---------------------------------------------------------------- messages and positions

def test_cycle_message_shows_the_path() -> None:
    diags = lint(mutate(add_field("Restaurant", {"name": "booking", "type": "BookRestaurant"})))
    assert "BookRestaurant.restaurant -> Restaurant.booking -> BookRestaurant" in diags[0].message


def test_unknown_type_suggests_a_spelling() -> None:
    diags = lint(mutate(setter(BR("restaurant"), "type", "Restaurnt")))
    assert "did you mean Restaurant?" in diags[0].message
    assert "did you mean date?" in lint(mutate(setter(BR("date"), "type", "Dat")))[0].message


def test_unknown_field_points_at_the_attribute() -> None:
    diags = lint(mutate(setter(BR("number_of_people"), "predicate", "self.restaurant and self.tme")))
    assert (diags[0].line, diags[0].col) == (1, 26)
    assert "Did you mean 'time'?" in diags[0].message
    assert diags[0].location() == "BookRestaurant.number_of_people (predicate, line 1 col 26)"


def test_positions_in_multi_line_indented_and_unicode_code() -> None:
    source = '  say("café")\n  if self.confirm:\n      say("été" + self.nme)'
    diags = lint(mutate(setter(BR("confirm"), "actions", source)))
    assert [(d.code, d.line, d.col) for d in diags] == [("unknown-field-reference", 3, 24)]
    assert source.splitlines()[2][23:26] == "nme"


def test_syntax_error_position_and_hint() -> None:
    diags = lint(mutate(setter(BR("number_of_people"), "predicate", "self.date = 1")))
    assert diags[0].line == 1 and diags[0].col is not None
    assert "==" in diags[0].message


def test_disallowed_construct_names_the_construct_and_position() -> None:
    diags = lint(mutate(setter(BR("confirm"), "actions", 'say("x")\nimport os')))
    assert (diags[0].line, diags[0].col) == (2, 1)
    assert "import" in diags[0].message


def test_enum_kb_mismatch_uses_kb_values_when_the_column_has_no_enum() -> None:
    def change(d: dict) -> None:
        fld(d, "restaurants", "price").update(type="str", enum_values=[])
    asked: list[tuple[str, str]] = []

    def kb_values(table: str, column: str) -> list | None:
        asked.append((table, column))
        return ["Cheap", "moderate", "expensive", None] if column == "price" else None

    diags = lint(mutate(change), kb_values=kb_values)
    assert [key(d) for d in diags] == [("enum-kb-mismatch", "warning", "Restaurant", "price", "enum_values")]
    assert "'luxury'" in diags[0].message and "restaurants.price" in diags[0].message
    assert asked == [("restaurants", "price")]
    assert lint(mutate(change)) == []  # without KB values there is nothing to compare


def test_kb_values_list_cells_and_failures() -> None:
    def change(d: dict) -> None:
        fld(d, "restaurants", "price").update(type="List[str]", enum_values=[])

    cells = ['["cheap", "moderate"]', ["expensive", "luxury"]]
    assert lint(mutate(change), kb_values=lambda t, c: cells) == []

    def failing(table: str, column: str) -> list:
        raise KnowledgeError("no such table", table=table)

    diags = lint(mutate(change), kb_values=failing)
    assert [key(d) for d in diags] == [
        ("kb-values-unavailable", "warning", "restaurants", "price", "enum_values")]


def test_location_formatting() -> None:
    def diag(**kw: Any) -> Diagnostic:
        base = dict(severity="error", code="x", message="m", worksheet=None, field=None, attribute=None)
        return Diagnostic(**{**base, **kw})

    assert diag(worksheet="BookRestaurant", field="date", attribute="predicate", line=1, col=5
                ).location() == "BookRestaurant.date (predicate, line 1 col 5)"
    assert diag(worksheet="BookRestaurant", attribute="ws_actions", line=3
                ).location() == "BookRestaurant (ws_actions, line 3)"
    assert diag(worksheet="Main", field="full_name", attribute="type").location() == "Main.full_name (type)"
    assert diag(worksheet="Main").location() == "Main"
    assert diag(attribute="start_worksheet").location() == "spec (start_worksheet)"
    assert diag(api="notify", attribute="url").location() == "API notify (url)"
    d = diag(worksheet="Main", field="pin", attribute="actions", line=2, col=1)
    assert d.to_dict() == {"severity": "error", "code": "x", "message": "m", "worksheet": "Main",
                           "field": "pin", "attribute": "actions", "line": 2, "col": 1, "api": None}
    assert str(d) == "error: Main.pin (actions, line 2 col 1): m [x]"


def test_has_errors() -> None:
    w = Diagnostic("warning", "x", "m", None, None, None)
    e = Diagnostic("error", "x", "m", None, None, None)
    assert not has_errors([]) and not has_errors([w]) and has_errors([w, e])
    assert has_errors(iter([e]))


def test_every_problem_is_reported_at_once() -> None:
    def change(d: dict) -> None:
        fld(d, "BookRestaurant", "date")["type"] = "Dat"
        ws(d, "BookRestaurant")["api"] = "nope"
        fld(d, "BookRestaurant", "confirm")["actions"] = "import os"
    codes = [d.code for d in lint(mutate(change))]
    assert codes == ["unknown-type", "unknown-api", "disallowed-construct"]


_text = st.text(alphabet=st.sampled_from(list("self.x_y()[]{}=!<> \n\t\"'0123:#,+*_aéZ")), max_size=40)


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(predicate=_text, actions=_text, type_=_text)
def test_lint_never_raises_on_junk(predicate: str, actions: str, type_: str) -> None:
    def change(d: dict) -> None:
        fld(d, "BookRestaurant", "number_of_people").update(predicate=predicate, type=type_ or "int")
        ws(d, "BookRestaurant")["actions"] = actions
    diags = lint(mutate(change))
    assert all(isinstance(d, Diagnostic) and d.worksheet == "BookRestaurant" for d in diags)


def test_syntax_error_at_the_end_points_past_the_last_character() -> None:
    diags = lint(mutate(setter(BR("number_of_people"), "predicate", "self.restaurant is not")))
    assert [(d.code, d.line, d.col) for d in diags] == [("syntax-error", 1, 23)]


def test_calling_an_undeclared_function_says_to_declare_the_api() -> None:
    diags = lint(mutate(setter(BR("confirm"), "actions", "book_restaurnt(date=self.date)")))
    assert [key(d) for d in diags] == [("unknown-name", "error", "BookRestaurant", "confirm", "actions")]
    assert "declared API" in diags[0].message and "'book_restaurant'" in diags[0].message


SAMPLE_SPECS = sorted((Path(__file__).parent.parent / "sample_projects").glob("*/spec.json"))


@pytest.mark.parametrize("path", SAMPLE_SPECS, ids=[p.parent.name for p in SAMPLE_SPECS])
def test_sample_projects_lint_without_errors(path: Path) -> None:
    diags = lint(Spec.model_validate_json(path.read_text(encoding="utf-8")))
    assert not has_errors(diags), [str(d) for d in diags]
