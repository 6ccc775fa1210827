"""The structured spec diff: worksheets, fields, enum values, attributes, moves."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings, strategies as st

from core_engine.loaders import load_spec
from core_engine.spec.model import Api, EnumValue, Field, Spec, Worksheet
from storage.spec_diff import Change, SpecDiff, diff_specs

ROOT = Path(__file__).resolve().parents[1]


def ticket() -> Spec:
    return load_spec(ROOT / "sample_projects" / "ticket_submission" / "spec.json")


def ops(diff: SpecDiff) -> list[tuple[str, str]]:
    return [(c.op, c.path) for c in diff.changes]


def test_identical_specs_have_an_empty_diff():
    diff = diff_specs(ticket(), ticket())
    assert not diff and len(diff) == 0 and diff.summary() == "no changes" and diff.format() == "no changes"


def test_attribute_field_and_worksheet_changes():
    old, new = ticket(), ticket()
    main = new.worksheet("Main")
    main.field("full_name").required = False
    main.field("full_name").confirm = True
    main.fields.append(Field(name="phone", type="str"))
    main.fields = [f for f in main.fields if f.name != "extra_details"]
    new.worksheets.append(Worksheet(name="Survey", fields=[Field(name="score", type="int")]))
    new.worksheets = [w for w in new.worksheets if w.name != "FormStatus"]
    new.starting_prompt = "Hi!"
    diff = diff_specs(old, new)
    assert ops(diff) == [
        ("changed", "starting_prompt"),
        ("removed", "worksheets.FormStatus"),
        ("removed", "worksheets.Main.fields.extra_details"),
        ("changed", "worksheets.Main.fields.full_name.required"),
        ("changed", "worksheets.Main.fields.full_name.confirm"),
        ("added", "worksheets.Main.fields.phone"),
        ("added", "worksheets.Survey"),
    ]
    required = diff.changes[3]
    assert (required.old, required.new) == (True, False)
    assert diff.changes[-1].new["fields"][0]["name"] == "score"  # added items carry their JSON
    assert diff.summary() == ("1 field added, 1 worksheet added, 1 field removed, 1 worksheet removed, "
                              "3 attributes changed")


def test_enum_values_are_diffed_by_value():
    old, new = ticket(), ticket()
    task = new.worksheet("Main").field("student_task")
    task.enum_values = [EnumValue(value="Leave of Absence", description="take time off")] + [
        e for e in task.enum_values if e.value not in ("Leave of Absence", "External Test Credits")
    ] + [EnumValue(value="Housing")]
    diff = diff_specs(old, new)
    base = "worksheets.Main.fields.student_task.enum_values"
    assert ops(diff)[:3] == [
        ("removed", f"{base}.External Test Credits"),
        ("changed", f"{base}.Leave of Absence.description"),
        ("added", f"{base}.Housing"),
    ]
    # two values swapped places: one move explains it (either one)
    assert len(diff.changes) == 4 and diff.changes[3].op == "moved"
    assert diff.changes[3].path in (f"{base}.Leave of Absence", f"{base}.Troubleshoot Student Enrollment")
    assert "1 enum value added" in diff.summary()


def test_reorder_reports_the_fewest_moves():
    old, new = ticket(), ticket()
    names = [w.name for w in old.worksheets]
    moved = new.worksheets.pop(len(names) - 1)
    new.worksheets.insert(0, moved)
    diff = diff_specs(old, new)
    assert ops(diff) == [("moved", f"worksheets.{names[-1]}")]
    assert (diff.changes[0].old, diff.changes[0].new) == (len(names) - 1, 0)
    assert "moved from position" in diff.format()


def test_apis_and_settings():
    old, new = ticket(), ticket()
    new.apis.append(Api(name="lookup", kind="http", url="http://localhost:9/x"))
    new.apis[0].timeout_s = 9.0
    new.settings.kb_max_rows = 7
    assert ops(diff_specs(old, new)) == [
        ("changed", f"apis.{old.apis[0].name}.timeout_s"), ("added", "apis.lookup"), ("changed", "settings.kb_max_rows")]


def test_diff_round_trips_through_json():
    old, new = ticket(), ticket()
    new.worksheet("Main").field("full_name").description = "legal name"
    diff = diff_specs(old, new)
    data = json.loads(json.dumps(diff.to_dict()))
    assert data["summary"] == diff.summary()
    assert SpecDiff.from_dict(data).changes == diff.changes
    assert Change("added", "x").describe() == "+ x"


NAMES = st.lists(st.sampled_from(list("abcdefgh")), unique=True, max_size=8)


@settings(max_examples=60, deadline=None)
@given(NAMES, NAMES)
def test_applying_the_reported_field_changes_explains_the_difference(a, b):
    """Fields removed/added are exactly the set differences; moves never name added/removed fields."""
    old = Spec(worksheets=[Worksheet(name="W", fields=[Field(name=n) for n in a])])
    new = Spec(worksheets=[Worksheet(name="W", fields=[Field(name=n) for n in b])])
    diff = diff_specs(old, new)
    by_op = {op: {c.path.rsplit(".", 1)[1] for c in diff.changes if c.op == op} for op in ("added", "removed", "moved")}
    assert by_op["added"] == set(b) - set(a)
    assert by_op["removed"] == set(a) - set(b)
    assert not by_op["moved"] & (by_op["added"] | by_op["removed"])
    common_old = [n for n in a if n in b]
    kept = [n for n in common_old if n not in by_op["moved"]]
    assert kept == [n for n in b if n in kept]  # the unmoved fields are already in the new order
    assert bool(diff) == (a != b)
