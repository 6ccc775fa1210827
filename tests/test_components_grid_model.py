"""The worksheet grid model: Spec <-> paper-layout rows, diagnostics -> cells, structural edits."""

from pathlib import Path

import pytest

from components.worksheets import grid_model as gm
from core_engine.lint import lint
from core_engine.loaders import load_spec
from core_engine.loaders.paper_csv import COLUMNS
from core_engine.spec.model import EnumValue, Field, Spec, Worksheet

SAMPLES = Path(__file__).resolve().parents[1] / "sample_projects"


@pytest.fixture
def restaurant() -> Spec:
    return load_spec(SAMPLES / "restaurant_reservation" / "spec.json")


@pytest.mark.parametrize("sample", ["restaurant_reservation", "course_enrollment", "ticket_submission",
                                   "bank_fraud"])
def test_rows_round_trip_every_sample(sample):
    spec = load_spec(SAMPLES / sample / "spec.json")
    rows = gm.spec_to_rows(spec, lint(spec))
    assert len(rows) == len(spec.worksheets) + sum(len(w.fields) for w in spec.worksheets)
    assert gm.rows_to_spec(rows, spec) == spec


def test_rows_follow_the_paper_layout(restaurant):
    assert tuple(gm.KEYS.values()) == (*COLUMNS, "Examples")  # the optional Examples column comes last
    rows = gm.spec_to_rows(restaurant)
    ws_row = next(r for r in rows if r["ws_name"] == "BookRestaurant")
    assert ws_row["row_type"] == "worksheet" and ws_row["row_id"] == "w1"
    assert ws_row["ws_predicate"] == 'user_task == "Book Restaurant"' and ws_row["name"] == "book_restaurant"
    assert ws_row["type"] == "" and ws_row["required"] == ""  # field columns stay empty on worksheet rows
    field = next(r for r in rows if r["row_id"] == "w2.f3")  # restaurants.price
    assert (field["name"], field["type"], field["ws_name"]) == ("price", "Enum", "")
    assert field["enum_values"].splitlines() == ["cheap", "moderate", "expensive", "luxury"]
    assert field["required"] in gm.BOOL_VALUES and field["kind"] in gm.FIELD_KIND_VALUES


def test_enum_descriptions_and_markers_survive_an_edit(restaurant):
    rows = gm.spec_to_rows(restaurant)
    rows[1]["enum_values"] = "Book Restaurant | reserve a table\nAsk a question\n\n"
    rows[1]["kind"] = "input, primary, free_text"
    spec = gm.rows_to_spec(rows, restaurant)
    f = spec.worksheet("UserInfo").field("user_task")
    assert f.enum_values == [EnumValue(value="Book Restaurant", description="reserve a table"),
                             EnumValue(value="Ask a question")]
    assert (f.primary_key, f.free_text, f.kind) == (True, True, "input")


def test_cells_as_a_grid_returns_them(restaurant):
    rows = gm.spec_to_rows(restaurant)
    assert rows[3]["row_id"] == "w1.f0"
    rows[3]["required"] = None  # an emptied cell: the model default
    rows[3]["dont_ask"] = "yes"
    rows[3]["predicate"] = float("nan")  # pandas' empty cell
    spec = gm.rows_to_spec(rows, restaurant)
    f = spec.worksheet("BookRestaurant").fields[0]
    assert (f.required, f.dont_ask, f.predicate) == (True, True, "")


def test_bad_cells_name_the_grid_row(restaurant):
    rows = gm.spec_to_rows(restaurant)
    rows[3]["confirmation"] = "perhaps"
    with pytest.raises(gm.GridError, match="grid row 4, column 'Confirmation'"):
        gm.rows_to_spec(rows, restaurant)
    rows = gm.spec_to_rows(restaurant)
    rows[3]["kind"] = "sometimes"
    with pytest.raises(gm.GridError, match="grid row 4, column 'Kind'"):
        gm.rows_to_spec(rows, restaurant)
    with pytest.raises(gm.GridError, match="before any worksheet"):
        gm.rows_to_spec([{"row_type": "field", "name": "x", "type": "str"}], restaurant)


def test_what_the_grid_does_not_show_comes_from_the_base(restaurant):
    spec = gm.rows_to_spec(gm.spec_to_rows(restaurant)[:2], restaurant)
    assert spec.apis == restaurant.apis and spec.settings == restaurant.settings
    assert spec.starting_prompt == restaurant.starting_prompt
    assert [w.name for w in spec.worksheets] == ["UserInfo"]


def test_diagnostics_point_at_their_cells(restaurant):
    spec = restaurant.model_copy(deep=True)
    spec.worksheet("BookRestaurant").predicate = 'user_taskk == "Book Restaurant"'
    spec.worksheet("BookRestaurant").field("date").type = "Dat"
    diags = lint(spec)
    cells = {gm.cell_for(spec, d) for d in diags}
    assert ("w1", "ws_predicate") in cells and ("w1.f1", "type") in cells
    rows = gm.spec_to_rows(spec, diags, focus=("w1.f1", "type"))
    by_id = {r["row_id"]: r for r in rows}
    assert by_id["w1"]["lint"] == "1 error" and by_id["w1.f1"]["lint"].startswith("1 error")
    assert by_id["w1.f1"]["focus"] == "type" and by_id["w1"]["focus"] == ""
    assert by_id["w0"]["lint"] == ""


def test_add_move_delete(restaurant):
    spec, rid = gm.add_worksheet(restaurant, after="w0.f0", name="UserInfo")
    assert rid == "w1" and spec.worksheets[1].name == "UserInfo2"  # a unique name
    spec, rid = gm.add_field(spec, "w1")
    assert rid == "w1.f0" and spec.worksheets[1].fields[0].name == "new_field"
    spec, rid = gm.add_field(spec, "w1.f0")
    assert rid == "w1.f1" and spec.worksheets[1].fields[1].name == "new_field2"
    moved, rid = gm.move_row(spec, "w1", +1)
    assert rid == "w2" and [w.name for w in moved.worksheets][:3] == ["UserInfo", "BookRestaurant", "UserInfo2"]
    assert moved.worksheets[2].fields[0].name == "new_field"  # a worksheet moves with its fields
    moved, rid = gm.move_row(restaurant, "w1.f0", -1)  # first field up: end of the previous worksheet
    assert rid == "w0.f1" and moved.worksheet("UserInfo").fields[-1].name == "restaurant"
    same, rid = gm.move_row(restaurant, "w0", -1)
    assert rid == "w0" and same == restaurant
    gone = gm.delete_row(restaurant, "w1")
    assert gone.worksheet("BookRestaurant") is None and restaurant.worksheet("BookRestaurant") is not None
    assert [f.name for f in gm.delete_row(restaurant, "w1.f1").worksheet("BookRestaurant").fields][:2] == [
        "restaurant", "time"]
    with pytest.raises(gm.GridError, match="not in the grid"):
        gm.delete_row(restaurant, "w9.f0")
    with pytest.raises(gm.GridError, match="not a grid row id"):
        gm.delete_row(restaurant, "row 3")


def test_type_choices_cover_worksheets_and_lists(restaurant):
    choices = gm.type_choices(restaurant)
    assert {"str", "Enum", "confirm", "Restaurant", "List[Restaurant]", "List[str]"} <= set(choices)
    assert "List[confirm]" not in choices


def test_duplicate_names_get_distinct_rows():
    spec = Spec(worksheets=[Worksheet(name="A", fields=[Field(name="x"), Field(name="x", type="int")])])
    rows = gm.spec_to_rows(spec, lint(spec))
    assert [r["row_id"] for r in rows] == ["w0", "w0.f0", "w0.f1"]
    assert gm.rows_to_spec(rows, spec) == spec


def test_examples_on_all_three_levels_round_trip_and_edit(restaurant):
    spec = restaurant.model_copy(deep=True)
    user = spec.worksheet("UserInfo")
    user.examples = ["I need a table", "[not a value] stays the task's"]
    task = user.field("user_task")
    task.examples = ["what I want is a booking"]
    task.enum_values[0].examples = ["reserve somewhere", "book dinner"]
    rows = gm.spec_to_rows(spec)
    assert rows[0]["examples"] == "I need a table\n[not a value] stays the task's"
    assert rows[1]["examples"].splitlines() == ["what I want is a booking", "[Book Restaurant] reserve somewhere",
                                                "[Book Restaurant] book dinner"]
    assert gm.rows_to_spec(rows, spec) == spec
    # an edit in the grid: a new example for the value, one removed from the field, blank lines dropped
    rows[1]["examples"] = "[Book Restaurant] get a table\n\n  "
    rows[0]["examples"] = None
    edited = gm.rows_to_spec(rows, spec)
    f = edited.worksheet("UserInfo").field("user_task")
    assert f.examples == [] and f.enum_values[0].examples == ["get a table"]
    assert edited.worksheet("UserInfo").examples == []


def test_examples_lint_cell_maps_to_the_examples_column(restaurant):
    from core_engine.lint import Diagnostic
    diag = Diagnostic(severity="warning", code="x", message="m", worksheet="UserInfo", field="user_task",
                      attribute="examples")
    assert gm.cell_for(restaurant, diag) == ("w0.f0", "examples")


def test_a_cell_edit_from_a_stale_grid_keeps_the_newer_edit(restaurant):
    """The grid sends its whole client table with each edit; only the edited cell may count.

    CI once lost a worksheet's new name this way: the table behind the second edit still held
    the name from before the first edit.
    """
    from components.worksheets.grid_editor import _edited_cell

    stale_rows = gm.spec_to_rows(restaurant)
    first = gm.apply_cell(restaurant, "w1", "ws_name", "Booking")
    stale_row = next(r for r in stale_rows if r["row_id"] == "w1.f0")
    event = {"type": "cellValueChanged", "data": {**stale_row, "description": "new words"},
             "colDef": {"field": "description"}, "newValue": "new words"}
    second = _edited_cell(first, event)
    assert second.worksheets[1].name == "Booking"
    assert second.worksheets[1].fields[0].description == "new words"
    # the whole stale table would have undone the first edit
    assert gm.rows_to_spec([{**r, "description": "new words"} if r["row_id"] == "w1.f0" else r
                            for r in stale_rows], first).worksheets[1].name == restaurant.worksheets[1].name


def test_a_cleared_cell_and_events_the_grid_cannot_place(restaurant):
    from components.worksheets.grid_editor import _edited_cell

    cleared = _edited_cell(restaurant, {"data": {"row_id": "w1.f0"}, "colDef": {"field": "description"}})
    assert cleared.worksheets[1].fields[0].description == ""  # the grid drops "" from its events
    assert _edited_cell(restaurant, {"data": {"row_id": "w99"}, "colDef": {"field": "ws_name"},
                                     "newValue": "X"}) is None
    assert _edited_cell(restaurant, {"data": {"row_id": "w1"}, "colDef": {"field": "lint"},
                                     "newValue": "X"}) is None
    assert _edited_cell(restaurant, {"colDef": {"field": "ws_name"}}) is None
