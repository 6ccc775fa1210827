"""Spec loaders and writers: lossless round trips, layout detection, errors with row/column."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from core_engine.errors import SpecError, SpecFormatError, StorageError
from core_engine.loaders import (
    detect_format,
    dumps_json,
    dumps_paper_csv,
    load_spec,
    loads_spec,
    write_spec,
)
from core_engine.loaders.markers import strip_action_markers
from core_engine.loaders.paper_csv import COLUMNS
from core_engine.loaders.schema import SCHEMA_PATH, main as schema_main, render_schema
from core_engine.spec.model import Api, EnumValue, Field, Settings, Spec, Worksheet

SPECS = Path(__file__).parent / "data" / "specs"
HEADER = ",".join(f'"{c}"' if "'" in c else c for c in COLUMNS)


def fixture_text(name: str) -> str:
    return (SPECS / name).read_text(encoding="utf-8")


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def to_csv(rows: list[list[str]]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue()


def paper(*rows: str) -> str:
    return "\n".join([HEADER, *rows]) + "\n"


def format_error(text: str, fmt: str | None = None) -> SpecFormatError:
    with pytest.raises(SpecFormatError) as info:
        loads_spec(text, fmt, source="sheet.csv")  # type: ignore[arg-type]
    return info.value


# ---------------------------------------------------------------- canonical JSON


def test_canonical_json_text_is_stable():
    text = fixture_text("restaurant.json")
    spec = load_spec(SPECS / "restaurant.json")
    assert dumps_json(spec) == text
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert text.startswith('{\n  "format_version": 1,\n  "name": "restaurant_reservation",')
    assert '"ünïcode' in text  # UTF-8 kept, not \u-escaped


def test_canonical_json_writes_defaults():
    data = json.loads(dumps_json(Spec(worksheets=[Worksheet(name="Main")])))
    assert data["settings"]["max_policy_steps"] == 200
    assert data["worksheets"][0] == {
        "name": "Main", "kind": "task", "predicate": "", "description": "",
        "api": None, "actions": "", "fields": [],
    }  # fmt: skip


def test_canonical_validation_error_names_worksheet_field_and_attribute():
    data = {
        "worksheets": [
            {"name": "UserInfo"},
            {"name": "Main"},
            {"name": "BookRestaurant", "fields": [{"name": "date", "type": 5}]},
        ]
    }
    with pytest.raises(SpecError) as info:
        loads_spec(json.dumps(data), source="spec.json")
    err = info.value
    assert not isinstance(err, SpecFormatError)
    assert err.message == (
        "worksheets[2] 'BookRestaurant' field 'date': type: Input should be a valid string"
    )
    assert err.context == {
        "file": "spec.json", "worksheet": "BookRestaurant", "field": "date", "attribute": "type",
    }  # fmt: skip


def test_canonical_validation_error_other_paths():
    data = {
        "settings": {"max_policy_steps": "many"},
        "apis": [{"name": "submit", "parameters": [{"name": "x", "required": "perhaps"}]}],
        "worksheets": [{"kind": "form", "fields": [{"name": "f", "enum_values": [{"value": 1}]}]}],
        "extra": 1,
    }
    with pytest.raises(SpecError) as info:
        loads_spec(json.dumps(data))
    msg = info.value.message
    assert "settings.max_policy_steps: Input should be a valid integer" in msg
    assert "api 'submit' parameter 'x': required: Input should be a valid boolean" in msg
    assert "worksheets[0]: name: Field required" in msg
    assert "worksheets[0]: kind: Input should be 'task', 'kb' or 'type'" in msg
    assert "worksheets[0] field 'f' enum_values[0]: value: Input should be a valid string" in msg
    assert msg.endswith("; and 1 more error(s)")  # the extra key


def test_canonical_json_errors():
    err = format_error('{\n  "name": "x",\n  "worksheets": [\n}', "json")
    assert err.context["line"] == 4 and err.context["column"] == 1
    assert err.message.startswith("line 4, column 1: malformed JSON")
    assert "object" in format_error('"just a string"', "json").message
    with pytest.raises(SpecError, match="format_version 99 is newer"):
        loads_spec('{"format_version": 99}')


# ---------------------------------------------------------------- lossless round trips


def rich_spec() -> Spec:
    """Everything a spec can hold, including text the CSV layout must quote."""
    return Spec(
        name="demo",
        description='A "demo", with commas,\nand two lines',
        starting_prompt="Hi!",
        worksheets=[
            Worksheet(
                name="Main", api="submit", predicate="", description="Main task",
                actions='if self.ok:\n    say("done, \\"really\\"")\nelse:\n\tsay(\'no\')\n',
                fields=[
                    Field(name="choice", type="Enum", required=False, confirm=True,
                          enum_values=[EnumValue(value="A, B", description="first\nsecond"),
                                       EnumValue(value='say "x"')]),
                    Field(name="tags", type="List[Enum]", enum_values=[EnumValue(value="t1")]),
                    Field(name="note", type="str", kind="internal", dont_ask=True,
                          free_text=True, predicate="self.choice == 'A, B'"),
                    Field(name="sub", type="Sub", description="", actions="say(1); say(2)"),
                ],
            ),
            Worksheet(name="Sub", kind="type", predicate="main.choice is not None"),
            Worksheet(name="items", kind="kb", fields=[
                Field(name="id", type="int", primary_key=True, required=False),
                Field(name="body", type="str", free_text=True),
            ]),
            Worksheet(name="Empty", description=""),
        ],
        apis=[
            Api(name="submit", kind="http", url="http://127.0.0.1:1/x", timeout_s=1.5,
                headers={"A": "b"}, parameters=[]),
            Api(name="unused", mock_result={"nested": {"list": [1, "two", None]}}),
        ],
        settings=Settings(start_worksheet="Main", today="2024-07-06", report_rows=3),
    )  # fmt: skip


@pytest.mark.parametrize(
    "spec_source",
    ["rich", "restaurant.json", "ticket_submission.csv", "kita_restaurant.csv",
     "reference_restaurant.csv", "reference_bank.json", "empty"],
)  # fmt: skip
def test_json_to_csv_to_json_is_lossless(spec_source):
    if spec_source == "rich":
        spec = rich_spec()
    elif spec_source == "empty":
        spec = Spec()
    else:
        spec = load_spec(SPECS / spec_source)
    csv_text = dumps_paper_csv(spec)
    assert detect_format(csv_text, "x.csv") == "paper_csv"
    back = loads_spec(csv_text)
    assert back == spec
    assert dumps_json(back) == dumps_json(spec)
    assert dumps_paper_csv(back) == csv_text
    assert loads_spec(dumps_json(spec)) == spec


def test_paper_layout_covers_every_model_attribute():
    """A new model attribute must get a place in the sheet layout (or this fails)."""
    assert set(Worksheet.model_fields) == {
        "name", "kind", "predicate", "description", "api", "actions", "fields", "examples",
    }  # fmt: skip
    assert set(Field.model_fields) == {
        "name", "type", "kind", "predicate", "description", "enum_values", "dont_ask",
        "required", "confirm", "actions", "primary_key", "free_text", "examples",
    }  # fmt: skip
    assert set(EnumValue.model_fields) == {"value", "description", "examples"}


def test_paper_csv_writer_layout():
    text = dumps_paper_csv(rich_spec())
    rows = rows_of(text)
    assert rows[0] == list(COLUMNS)
    col = {c: i for i, c in enumerate(COLUMNS)}
    assert rows[1][col["WS Kind"]] == "spec"
    meta = json.loads(rows[1][col["Description"]])
    assert list(meta) == ["format_version", "name", "description", "starting_prompt", "settings"]
    main = rows[2]
    assert (main[col["WS Name"]], main[col["WS Kind"]], main[col["Name"]]) == ("Main", "task", "submit")
    choice = rows[3]
    assert choice[col["Required"]] == "FALSE" and choice[col["Confirmation"]] == "TRUE"
    assert rows[4][col["Enum Values"]] == "A, B" and rows[4][col["Type"]] == ""
    assert rows[4][col["Description"]] == "first\nsecond"
    note = next(r for r in rows if r[col["Name"]] == "note")
    assert note[col["Kind"]] == "internal, free_text" and note[col["Don't Ask"]] == "TRUE"
    api_rows = [r for r in rows if r[col["WS Kind"]] == "api"]
    assert [r[col["Name"]] for r in api_rows] == ["submit", "unused"]
    assert json.loads(api_rows[0][col["Description"]])["kind"] == "http"
    assert "\r" not in text


def test_write_spec_by_extension_atomic(tmp_path):
    spec = rich_spec()
    write_spec(spec, tmp_path / "agent.json")
    write_spec(spec, tmp_path / "agent.csv")
    assert (tmp_path / "agent.json").read_text(encoding="utf-8") == dumps_json(spec)
    assert (tmp_path / "agent.csv").read_text(encoding="utf-8") == dumps_paper_csv(spec)
    assert load_spec(tmp_path / "agent.csv") == load_spec(tmp_path / "agent.json") == spec
    write_spec(Spec(name="second"), tmp_path / "agent.json")  # replaces in place
    assert load_spec(tmp_path / "agent.json").name == "second"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["agent.csv", "agent.json"]
    with pytest.raises(SpecFormatError, match="cannot write a spec as '.xlsx'"):
        write_spec(spec, tmp_path / "agent.xlsx")
    with pytest.raises(StorageError):
        write_spec(spec, tmp_path / "missing" / "agent.json")


# ---------------------------------------------------------------- paper CSV layout


def test_ticket_submission_sheet():
    spec = load_spec(SPECS / "ticket_submission.csv")
    assert [w.name for w in spec.worksheets] == ["Main", "ExternalTestCredits"]
    main, etc = spec.worksheets
    assert (main.kind, main.api, main.description) == ("task", "submit_ticket", "Submit a ticket to student services")
    assert etc.kind == "task" and etc.predicate == 'student_task == "External Test Credits"'
    task = main.field("student_task")
    assert task.enum_names == ["Troubleshoot Student Enrollment", "Leave of Absence", "External Test Credits"]
    assert task.enum_values[0].description.startswith("Problems with changing courses,")
    assert main.field("trouble_shoot_student_enrollment").predicate == (
        'self.student_task == "Troubleshoot Student Enrollment"'
    )
    extra = main.field("extra_details")
    assert extra.free_text and not extra.required
    assert main.field("full_name").required
    confirm = main.field("confirm")
    assert confirm.confirm and confirm.actions == (
        'if self.confirm == False:\n    say("Thank you, can I assist you in any other way?")'
    )
    exit_ = main.field("exit")
    assert (exit_.kind, exit_.dont_ask, exit_.required) == ("internal", True, False)
    assert etc.field("type_of_international_test").enum_names[2] == (
        'General Certificate of Education "A" levels'
    )
    assert etc.field("subjects_for_unit_awards").type == "List[Enum]"
    assert len(etc.field("subjects_for_unit_awards").enum_values) == 6
    assert etc.field("test_type").enum_values[0].description == "College Board Advanced Placement exams"
    # no spec row: defaults, and the undeclared API becomes a mock so the spec runs
    assert (spec.name, spec.settings) == ("agent", Settings())
    assert [(a.name, a.kind) for a in spec.apis] == [("submit_ticket", "mock")]


def test_extra_reordered_and_respelled_columns():
    spec = rich_spec()
    rows = rows_of(dumps_paper_csv(spec))
    order = list(reversed(range(len(COLUMNS))))
    shuffled = [["Notes"] + [r[i] for i in order] for r in rows]
    shuffled[0] = ["Notes"] + [
        {"WS Name": "ws_name", "Don't Ask": "DONT ASK", "Confirmation": "confirm",
         "WS Actions": "Form Actions"}.get(c, c.upper()) for c in reversed(COLUMNS)
    ]  # fmt: skip
    for r in shuffled[1:]:
        r[0] = "a comment, ignored"
    assert loads_spec(to_csv(shuffled)) == spec


def test_kita_style_subset_columns():
    text = fixture_text("kita_restaurant.csv")
    assert detect_format(text, "kita.csv") == "paper_csv"
    spec = loads_spec(text)
    kinds = {w.name: w.kind for w in spec.worksheets}
    assert kinds == {"UserInfo": "task", "BookRestaurant": "task", "restaurants": "kb", "Restaurant": "type"}
    book = spec.worksheet("BookRestaurant")
    assert book.api == "book_restaurant_yelp"  # the junk Enum Values cell of fig. 29 is ignored
    assert book.field("confirm").actions == (
        'if self.confirm == False: say("Thank you, can i assist you in any other way?")'
    )
    assert spec.worksheet("Restaurant").actions == (
        'if user_task != "Book Restaurant":  propose(BookRestaurant, {"restaurant":self})'
    )
    assert all(f.required and f.kind == "input" for w in spec.worksheets for f in w.fields)
    assert spec.worksheet("restaurants").field("price").enum_names == ["cheap", "moderate", "expensive", "luxury"]
    assert [a.name for a in spec.apis] == ["book_restaurant_yelp"]


def test_tab_separated_sheet():
    text = fixture_text("kita_restaurant.csv")
    tsv = "".join("\t".join(r) + "\n" for r in rows_of(text) if not any("\t" in c for c in r))
    assert loads_spec(tsv) == loads_spec(text)


def test_paper_booleans_kinds_and_inline_enum_values():
    spec = loads_spec(paper(
        ",Main,TASK,,,,,,,,,,,",
        ',,,,"Input , Primary Key",str,a,,,Yes,No,1,,',
        ",,,,free text|internal,str,b,,,x,0,FALSE,,",
        ',,,,,Enum,c,"red\ngreen",,,,,,',
        ",,,,,,,blue,the sky,,,,,",
        ",Extra,KB,,,,,,,,,,,",
        ",Rec,Type,,,,,,,,,,,",
    ))  # fmt: skip
    a, b, c = spec.worksheets[0].fields
    assert (a.kind, a.primary_key, a.free_text, a.dont_ask, a.required, a.confirm) == (
        "input", True, False, True, False, True,
    )
    assert (b.kind, b.free_text, b.dont_ask, b.required, b.confirm) == ("internal", True, True, False, False)
    assert [(e.value, e.description) for e in c.enum_values] == [
        ("red", ""), ("green", ""), ("blue", "the sky"),
    ]
    assert [w.kind for w in spec.worksheets] == ["task", "kb", "type"]


def test_meta_rows():
    spec = loads_spec(paper(
        ',,api,,,,ping,,"{""kind"": ""http"", ""url"": ""http://127.0.0.1:1/p""}",,,,,',
        ',,Spec,,,,,,"{""name"": ""bot"", ""settings"": {""kb_max_rows"": 7}}",,,,,',
        ",Main,task,,,,ping,,,,,,,",
    ))  # fmt: skip
    assert spec.name == "bot" and spec.settings.kb_max_rows == 7
    assert spec.starting_prompt == Spec().starting_prompt
    assert [(a.name, a.kind, a.url) for a in spec.apis] == [("ping", "http", "http://127.0.0.1:1/p")]


# ---------------------------------------------------------------- paper CSV errors


def assert_cell_error(err: SpecFormatError, row: int, column: str, text: str) -> None:
    assert err.context["row"] == row and err.context["column"] == column
    assert err.context["file"] == "sheet.csv"
    assert err.message.startswith(f"row {row}, column '{column}': ")
    assert text in err.message


@pytest.mark.parametrize(
    ("rows", "row", "column", "text"),
    [
        ([",,,,,str,name,,,,,,,"], 2, "WS Name", "field 'name' comes before any worksheet row"),
        ([",Main,,,,,,,,,,,,", ",,,,,,,lonely,,,,,,"], 3, "Enum Values",
         "enum value 'lonely' is not under an Enum field"),
        ([",Main,,,,,,,,,,,,", ",,,,,str,s,,,,,,,", ",,,,,,,v,,,,,,"], 4, "Enum Values", "not under an Enum"),
        ([",Main,,,,,,,,,,,,", ",,,,,Enum,e,,,,,,,", ",Other,,,,,,,,,,,,", ",,,,,,,v,,,,,,"], 5,
         "Enum Values", "not under an Enum"),
        ([",Main,form-ish,,,,,,,,,,,"], 2, "WS Kind", "unknown worksheet kind 'form-ish'"),
        ([",Main,,,,table-ish,,,,,,,,"], 2, "Type", "unknown worksheet kind 'table-ish'"),
        ([",Main,kb,,,type,,,,,,,,"], 2, "Type", "contradicts WS Kind 'kb'"),
        ([",Main,,,,,,,,,,,,", "", ",,,,,,date,,,,,,,"], 4, "Type", "missing type for field 'date'"),
        ([",Main,,,,,,,,,,,,", ",,,,,int,,,,,,,,"], 3, "Name", "missing name for a field of type 'int'"),
        ([",Main,,,,,,,,,,,,", ",,,,,int,n,,,maybe,,,,"], 3, "Don't Ask", "'maybe' is not a yes/no value"),
        ([",Main,,,,,,,,,,,,", ",,,,computed,int,n,,,,,,,"], 3, "Kind", "unknown kind 'computed'"),
        ([",Main,,,,,,,,,,,,", ",,,,input internal,int,n,,,,,,,"], 3, "Kind", "either input or internal"),
        ([",Main,,,,,,,,,,,,", ",,,,,int,n,x,,,,,,"], 3, "Enum Values", "enum values on field 'n'"),
        ([",Main,,,,,,,,,,,,", ",,,,,,,,only a description,,,,,"], 3, "Name", "row has content"),
        ([",Main,,x > 1,,,,,,,,,,"], 2, "Predicate", "worksheet row 'Main' has a field predicate"),
        ([",,spec,,,,,,{oops,,,,,"], 2, "Description", "malformed JSON in the spec row"),
        ([",,spec,,,,,,[1],,,,,"], 2, "Description", "needs a JSON object"),
        ([',,spec,,,,,,"{""colour"": 1}",,,,,'], 2, "Description", "unknown key(s) in the spec row: ['colour']"),
        ([",,spec,,,,,,,,,,,", ",,spec,,,,,,,,,,,"], 3, "WS Kind", "a second 'spec' row"),
        ([',,spec,,,,,,"{""settings"": {""kb_max_rows"": ""lots""}}",,,,,'], 2, "Description",
         "settings.kb_max_rows: Input should be a valid integer"),
        ([",,api,,,,,,,,,,,"], 2, "Name", "an api row needs the API name"),
        ([",,task,,,,,,,,,,,"], 2, "WS Name", "a worksheet row needs a WS Name"),
        ([',,api,,,,x,,"{""name"": ""y""}",,,,,'], 2, "Description", "belongs in the Name column"),
        ([',,api,,,,x,,"{""kind"": ""ftp""}",,,,,'], 2, "Description", "kind: Input should be"),
        ([",,api,,,,x,,,,,,,", ",,,,,str,s,,,,,,,"], 3, "WS Name", "before any worksheet row"),
    ],
)  # fmt: skip
def test_paper_errors_name_row_and_column(rows, row, column, text):
    assert_cell_error(format_error(paper(*rows), "paper_csv"), row, column, text)


def test_row_numbers_count_multiline_cells_and_blank_rows():
    text = paper(
        ',Main,,,,,,,"a description\nover\nthree lines",,,,,',
        "",
        ",,,,,str,ok,,,,,,,",
        ",,,,,,nameless_type,,,,,,,",
    )
    assert_cell_error(format_error(text), 5, "Type", "missing type for field 'nameless_type'")


def test_header_errors():
    err = format_error("WS Name,Type,Description\n,Main,,\n", "paper_csv")
    assert_cell_error(err, 1, "Name", "missing column 'Name' in the header")
    err = format_error("WS Name,Type,Name,Form Name\nMain,,,\n", "paper_csv")
    assert_cell_error(err, 1, "Form Name", "duplicate column 'WS Name'")


# ---------------------------------------------------------------- reference layouts


def test_reference_csv():
    text = fixture_text("reference_restaurant.csv")
    assert detect_format(text, "ref.csv") == "reference_csv"
    spec = loads_spec(text)
    user, book, kb, rec = spec.worksheets
    assert [w.kind for w in spec.worksheets] == ["task", "task", "kb", "type"]
    assert book.api == "book_restaurant" and book.predicate == 'user_task == "Book Restaurant"'
    assert book.actions == (
        'book_restaurant(restaurant=self.restaurant, date=self.date)\nsay("Your table is booked.")'
    )
    assert book.field("confirm").actions == (
        'if self.confirm == False: say("Thank you, can i assist you in any other way?")'
    )
    assert rec.actions == 'if user_task != "Book Restaurant":\n    propose(BookRestaurant, {"restaurant": self})'
    # booleans are true only when exactly TRUE
    assert book.field("restaurant").required and book.field("restaurant").confirm
    assert not book.field("number_of_people").required  # "true" is not "TRUE"
    assert book.field("special_request_info").dont_ask and not book.field("special_request_info").required
    assert user.field("exit").kind == "internal" and user.field("exit").dont_ask
    assert [(e.value, e.description) for e in user.field("user_task").enum_values] == [
        ("Book Restaurant", "Reserve a table"), ("Ask Question", ""),
    ]
    assert kb.field("id").primary_key and kb.field("id").kind == "internal"
    assert not kb.field("name").primary_key
    assert [(a.name, a.kind) for a in spec.apis] == [("book_restaurant", "mock")]


def test_reference_csv_header_detection():
    text = fixture_text("reference_restaurant.csv")
    headerless = text.split("\n", 1)[1]
    assert detect_format(headerless, "ref.csv") == "reference_csv"
    assert loads_spec(headerless) == loads_spec(text)
    without_validation = to_csv([r[:13] for r in rows_of(text)])
    assert loads_spec(without_validation) == loads_spec(text)


def test_reference_csv_errors():
    head = fixture_text("reference_restaurant.csv").split("\n", 1)[0]

    def err(*rows: str) -> SpecFormatError:
        return format_error("\n".join([head, *rows]) + "\n", "reference_csv")

    assert_cell_error(err(",,,input,str,x"), 2, "Form Name", "field 'x' comes before any worksheet row")
    assert_cell_error(err(",Main,,,sheet"), 2, "Type", "unknown worksheet type 'sheet'")
    assert_cell_error(err(",Main,,,worksheet", ",,,,,,v"), 3, "Enum Values", "not under an Enum field")
    assert_cell_error(err(",Main,,,worksheet", ",,,input,,x"), 3, "Type", "missing type for field 'x'")
    assert_cell_error(err(",Main,,,worksheet", ",,,weird,str,x"), 3, "Kind", "unknown kind 'weird'")


def test_reference_json():
    spec = load_spec(SPECS / "reference_bank.json")
    main, first, accounts = spec.worksheets
    assert (main.kind, accounts.kind, main.api, first.api) == ("task", "kb", "bank_fraud_report", None)
    assert main.actions == 'say("Your report has been filed.")'
    assert main.field("fraud_report").actions == (
        'if self.fraud_report == "NA":\n    say("We need a description to file the report.")'
    )
    assert main.field("fraud_report").confirm
    assert main.field("first_authentication_details").required  # "TRUE"
    assert not main.field("second_authentication_details").required  # "true" is not "TRUE"
    assert [(e.value, e.description) for e in main.field("report_channel").enum_values] == [
        ("Email", ""), ("Phone", "A call from an agent"),
    ]
    assert accounts.field("account_number").primary_key
    assert accounts.field("holder").kind == "internal" and not accounts.field("holder").required
    assert [(a.name, a.kind) for a in spec.apis] == [("bank_fraud_report", "mock")]


@pytest.mark.parametrize(
    ("data", "text", "context"),
    [
        ({"ws_name": "Main"}, "a JSON list of worksheets", {}),
        ([{"ws_name": "Main", "ws_type": "sheet"}], "worksheets[0] 'Main': ws_type: unknown worksheet type",
         {"worksheet": "Main", "attribute": "ws_type"}),
        ([{"ws_type": "db"}], "worksheets[0]: ws_name: missing worksheet name", {"attribute": "ws_name"}),
        ([{"ws_name": "M", "fields": [{"field_name": "f", "field_type": 3}]}],
         "worksheets[0] 'M' field 'f': field_type: expected a string, got int",
         {"worksheet": "M", "field": "f", "attribute": "field_type"}),
        ([{"ws_name": "M", "fields": [{"field_name": "f", "field_type": "str", "field_required": 1}]}],
         "field 'f': field_required: expected true/false", {"field": "f"}),
        ([{"ws_name": "M", "fields": [{"field_type": "str"}]}], "fields[0]: field_name: missing", {}),
        ([{"ws_name": "M", "fields": [{"field_name": "e", "field_type": "Enum", "enum_values": [3]}]}],
         "enum_values: expected a string or {value, description}", {"field": "e"}),
        (["Main"], "worksheets[0]: expected an object", {}),
    ],
)  # fmt: skip
def test_reference_json_errors(data, text, context):
    err = format_error(json.dumps(data), "reference_json")
    assert text in err.message
    assert context.items() <= err.context.items()


# ---------------------------------------------------------------- action markers


@pytest.mark.parametrize(
    ("code", "plain"),
    [
        ('>say("x")', 'say("x")'),
        ('@submit(a=1)', "submit(a=1)"),
        ('if self.confirm == False: >say("no")', 'if self.confirm == False: say("no")'),
        ('if x:\n    >say("a")\nelse:\n\t@api()', 'if x:\n    say("a")\nelse:\n\tapi()'),
        ("> say(1)", "say(1)"),
        ('x = 1; >say("y")', 'x = 1; say("y")'),
        ('say("ratio: >x and @home")', 'say("ratio: >x and @home")'),
        ("if a > b: >say('>c')", "if a > b: say('>c')"),
        ("x = {'k': 1}\n>say(x['k'])", "x = {'k': 1}\nsay(x['k'])"),
        ('say("""\n>quoted\n""")', 'say("""\n>quoted\n""")'),
        ("# >say(1)\n>say(2)", "# >say(1)\nsay(2)"),
        ("f(a,\n  >b)", "f(a,\n  >b)"),
        ("x = a \\\n  >b", "x = a \\\n  >b"),
        ("if a >= 1: x = 2", "if a >= 1: x = 2"),
        ("y = a[1:2]", "y = a[1:2]"),
        (">>> not a marker", ">>> not a marker"),
        ("", ""),
    ],
)  # fmt: skip
def test_strip_action_markers(code, plain):
    assert strip_action_markers(code) == plain


def test_paper_layout_with_ws_headers_keeps_code_verbatim():
    spec = loads_spec(paper(",Main,,,,,,,,,,,,", ',,,,,confirm,c,,,,,,">say(""x"")",'))
    assert spec.worksheets[0].field("c").actions == '>say("x")'


# ---------------------------------------------------------------- files and detection


@pytest.mark.parametrize(
    ("text", "filename", "fmt"),
    [
        ('{"name": "x"}', "", "json"),
        ('  \ufeff{"name": "x"}', "", "json"),
        ("[]", "spec.json", "reference_json"),
        ("not json", "spec.json", "json"),
        ("WS Name,Type,Name\n", "", "paper_csv"),
        ("Form Name,Type,Name,Enum Values\n", "", "paper_csv"),
        (",Main,,,worksheet,api\n,,,input,str,x\n", "sheet.csv", "reference_csv"),
    ],
)  # fmt: skip
def test_detect_format(text, filename, fmt):
    assert detect_format(text, filename) == fmt


def test_undetectable_and_empty_inputs(tmp_path):
    with pytest.raises(SpecFormatError, match="empty file"):
        detect_format("  \n\n")
    with pytest.raises(SpecFormatError, match="empty file"):
        loads_spec(",,,\n,,\n", "paper_csv")
    huge = paper(",Main,,,,,,,,,,,,", ',,,,,str,s,,"' + "x" * 200_000 + '",,,,,')
    assert "unreadable CSV" in format_error(huge).message
    assert format_error(huge).context["row"] == 3
    err = format_error("\nhello,world\nfoo,bar\n")
    assert err.context["row"] == 2 and "not a spec sheet" in err.message
    (tmp_path / "empty.csv").write_text("", encoding="utf-8")
    with pytest.raises(SpecFormatError, match="empty file") as info:
        load_spec(tmp_path / "empty.csv")
    assert info.value.context["file"] == str(tmp_path / "empty.csv")
    with pytest.raises(SpecFormatError, match="unknown spec format 'yaml'"):
        loads_spec("{}", "yaml")  # type: ignore[arg-type]


def test_unreadable_files(tmp_path):
    bad = tmp_path / "latin1.csv"
    bad.write_bytes(HEADER.encode() + b"\n,Main,,,,,,,\"two\nlines\",,,,,\n,,,,,str,caf\xe9,,,,,,,\n")
    with pytest.raises(SpecFormatError) as info:
        load_spec(bad)
    assert info.value.context["row"] == 3 and info.value.context["line"] == 4
    assert info.value.context["file"] == str(bad)
    assert "not UTF-8" in info.value.message and "0xe9" in info.value.message
    with pytest.raises(SpecFormatError, match="unsupported spec file type '.xlsx'"):
        load_spec(tmp_path / "sheet.xlsx")
    with pytest.raises(SpecFormatError, match="cannot read"):
        load_spec(tmp_path / "missing.json")
    with pytest.raises(SpecFormatError, match="is a folder"):
        load_spec(tmp_path)
    bom = tmp_path / "excel.csv"
    bom.write_bytes(b"\xef\xbb\xbf" + fixture_text("ticket_submission.csv").encode())
    assert load_spec(bom) == load_spec(SPECS / "ticket_submission.csv")


# ---------------------------------------------------------------- JSON Schema


def test_committed_schema_is_current(tmp_path, capsys):
    assert SCHEMA_PATH.read_text(encoding="utf-8") == render_schema()
    assert schema_main(["--check"]) == 0
    out = tmp_path / "schema.json"
    assert schema_main(["--check", "-o", str(out)]) == 1
    assert schema_main(["-o", str(out)]) == 0
    schema = json.loads(out.read_text(encoding="utf-8"))
    assert schema["title"] == "Spec" and "Worksheet" in schema["$defs"]
    assert "wrote" in capsys.readouterr().out


# ---------------------------------------------------------------- developer examples


def examples_spec() -> Spec:
    """Examples on a task worksheet, a field and an enum value, with text CSV must quote."""
    spec = rich_spec()
    main = spec.worksheets[0]
    main.examples = ["I want to submit, please", 'he said "go"']
    main.field("choice").examples = ["the first one"]
    main.field("choice").enum_values[0].examples = ["A or B, either", "a-b"]
    main.field("tags").enum_values[0].examples = ["tag one"]
    return spec


def test_examples_round_trip_through_the_paper_csv():
    spec = examples_spec()
    text = dumps_paper_csv(spec)
    rows = rows_of(text)
    assert rows[0] == [*COLUMNS, "Examples"]
    col = {c: i for i, c in enumerate(rows[0])}
    assert rows[2][col["Examples"]] == 'I want to submit, please\nhe said "go"'  # the worksheet row
    choice = next(r for r in rows if r[col["Name"]] == "choice")
    assert choice[col["Examples"]] == "the first one"
    value = next(r for r in rows if r[col["Enum Values"]] == "A, B")
    assert value[col["Examples"]] == "A or B, either\na-b"
    back = loads_spec(text)
    assert back == spec and back.worksheets[0].field("choice").enum_values[0].examples == ["A or B, either", "a-b"]
    assert dumps_paper_csv(back) == text
    assert loads_spec(dumps_json(spec)) == spec
    # a spec without examples keeps the old layout, without the column
    assert rows_of(dumps_paper_csv(rich_spec()))[0] == list(COLUMNS)


def test_examples_column_is_read_by_its_header_with_blank_lines_dropped():
    text = to_csv([["WS Name", "Type", "Name", "Enum Values", "Example utterances"],
                   ["Main", "", "", "", "book it\n\n  reserve a table  "],
                   ["", "Enum", "size", "", "any size is fine"],
                   ["", "", "", "Large", "big\nXL"]])
    spec = loads_spec(text)
    main = spec.worksheets[0]
    assert main.examples == ["book it", "reserve a table"]
    assert main.field("size").examples == ["any size is fine"]
    assert main.field("size").enum_values[0].examples == ["big", "XL"]


def test_an_example_that_cannot_be_one_line_is_refused_by_name():
    spec = examples_spec()
    spec.worksheets[0].field("choice").examples = ["two\nlines"]
    with pytest.raises(SpecError, match="Main.choice"):
        dumps_paper_csv(spec)


def test_reference_csv_reads_an_examples_column():
    text = fixture_text("reference_restaurant.csv")
    rows = rows_of(text)
    width = len(rows[0])
    for r in rows:
        r.extend([""] * (width - len(r)))
    rows[0].append("Examples")
    user_row = next(i for i, r in enumerate(rows) if r[1].strip() and r[4].strip().lower() == "worksheet")
    task_row = next(i for i, r in enumerate(rows) if r[5] == "user_task")
    value_row = next(i for i, r in enumerate(rows) if r[6].strip() == "Book Restaurant")
    rows[user_row].append("hi\nhello there")
    rows[task_row].append("what I want")
    rows[value_row].append("get a table\nbook dinner")
    spec = loads_spec(to_csv(rows))
    user = spec.worksheets[0]
    assert user.examples == ["hi", "hello there"]
    assert user.field("user_task").examples == ["what I want"]
    assert user.field("user_task").enum_values[0].examples == ["get a table", "book dinner"]
    assert loads_spec(to_csv([r[:width] for r in rows])) == loads_spec(text)  # no column, no examples
    headerless = [r + [""] * (15 - len(r)) for r in rows[1:]]
    assert loads_spec(to_csv(headerless)).worksheets[0].examples == ["hi", "hello there"]


def test_reference_json_reads_examples_and_names_bad_ones():
    data = json.loads(fixture_text("reference_bank.json"))
    data[0]["ws_examples"] = ["my card was stolen"]
    field = next(f for f in data[0]["fields"] if f["field_name"] == "report_channel")
    field["field_examples"] = ["call me"]
    field["enum_values"] = [{"value": "Email", "examples": ["by mail", "e-mail"]}, "Phone"]
    spec = loads_spec(json.dumps(data), "reference_json")
    main = spec.worksheets[0]
    assert main.examples == ["my card was stolen"]
    assert main.field("report_channel").examples == ["call me"]
    assert [e.examples for e in main.field("report_channel").enum_values] == [["by mail", "e-mail"], []]
    field["field_examples"] = [3]
    err = format_error(json.dumps(data), "reference_json")
    assert "report_channel" in str(err) and "field_examples" in str(err)
