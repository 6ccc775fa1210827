"""Typed coercion on assignment (DESIGN §3): what each type accepts and rejects."""

import pytest

from core_engine.errors import StatementError
from core_engine.spec.model import Field, Spec, Worksheet
from core_engine.spec.values import coerce_time, coerce_value

SPEC = Spec(worksheets=[Worksheet(name="Row", kind="type", fields=[Field(name="name")])])


def f(type_: str, **kw) -> Field:
    return Field(name="x", type=type_, **kw)


@pytest.mark.parametrize("type_,value,expected", [
    ("int", "3", 3), ("int", 3.0, 3), ("int", " 12 ", 12),
    ("float", "4.5", 4.5), ("float", 4, 4.0),
    ("bool", "yes", True), ("bool", "No", False), ("bool", True, True), ("confirm", "correct", True),
    ("date", "2024-07-06", "2024-07-06"), ("date", "7/5/24", "2024-07-05"), ("date", "July 6th, 2024", "2024-07-06"),
    ("time", "2 pm", "14:00"), ("time", "19:30", "19:30"), ("time", "noon", "12:00"), ("time", "12 am", "00:00"),
    ("datetime", "2024-07-06T19:30", "2024-07-06T19:30"),
    ("str", 42, "42"), ("List[int]", ["1", 2], [1, 2]), ("List[str]", "solo", ["solo"]),
    ("Row", {"name": "A"}, {"name": "A"}),
])
def test_coercion_accepts(type_, value, expected):
    assert coerce_value(value, f(type_), SPEC, worksheet="W") == expected


@pytest.mark.parametrize("type_,value", [
    ("int", "three point five"), ("int", 2.5), ("int", True), ("float", "abc"), ("bool", "maybe"),
    ("date", "someday"), ("time", "25:00"), ("time", "7"), ("List[int]", ["x"]), ("Row", "just text"),
])
def test_coercion_rejects_with_field_named(type_, value):
    with pytest.raises(StatementError) as err:
        coerce_value(value, f(type_), SPEC, worksheet="W")
    assert "W.x" in str(err.value)


def test_enum_normalised_to_canonical_spelling():
    field = f("Enum", enum_values=["Credit/No Credit", "Letter"])
    assert coerce_value("letter", field, SPEC) == "Letter"
    assert coerce_value("credit no credit", field, SPEC) == "Credit/No Credit"
    with pytest.raises(StatementError, match="'Letter'"):
        coerce_value("pass/fail", field, SPEC)


def test_enum_matches_value_description():
    field = f("Enum", enum_values=[{"value": "AP", "description": "Advanced Placement"}, "IB"])
    assert coerce_value("advanced placement", field, SPEC) == "AP"


def test_refusal_and_removal_pass_through():
    assert coerce_value("NA", f("int"), SPEC) == "NA"
    assert coerce_value(None, f("date"), SPEC) is None


def test_time_variants():
    assert coerce_time("7:05 PM") == "19:05"
    assert coerce_time("midnight") == "00:00"
