"""Lint gaps: misspelled enum literals, mismatched literal types, empty spec, kb worksheets without a table."""

from core_engine.lint import lint
from core_engine.spec.model import Spec


def _spec(ws_predicate: str = 'task == "Book Appointment"', field_predicate: str = "") -> Spec:
    return Spec.model_validate({"worksheets": [
        {"name": "Main", "fields": [
            {"name": "task", "type": "Enum", "enum_values": [{"value": "Book Appointment"}, {"value": "Cancel"}]},
            {"name": "age", "type": "int", "predicate": field_predicate}]},
        {"name": "Book", "predicate": ws_predicate, "fields": [{"name": "when", "type": "date"}]},
        {"name": "dentists", "kind": "kb", "fields": [{"name": "name"}]}]})


def test_a_misspelled_enum_literal_is_an_error_with_did_you_mean():
    diags = [d for d in lint(_spec('task == "Book Apointment"'))
             if d.code == "unknown-enum-value"]
    assert len(diags) == 1 and diags[0].worksheet == "Book" and diags[0].attribute == "ws_predicate"
    assert "Did you mean 'Book Appointment'?" in diags[0].message and "can never start" in diags[0].message
    assert not [d for d in lint(_spec()) if d.code == "unknown-enum-value"]
    assert [d.code for d in lint(_spec('task in ("Cancel", "Cancle")')) if d.code == "unknown-enum-value"] == [
        "unknown-enum-value"]


def test_comparing_an_int_field_with_text_is_flagged():
    bad = [d for d in lint(_spec(field_predicate='age < "18"')) if d.code == "type-mismatch"]
    assert len(bad) == 1 and bad[0].severity == "error" and bad[0].field == "age"
    assert "Write 18 without quotes" in bad[0].message
    assert not [d for d in lint(_spec(field_predicate="age < 18")) if d.code == "type-mismatch"]
    assert not [d for d in lint(_spec(field_predicate='self.age == "NA" or age > 3')) if d.code == "type-mismatch"]


def test_empty_spec_and_kb_worksheet_without_table():
    assert [d.code for d in lint(Spec())] == ["empty-spec"]
    missing = [d for d in lint(_spec(), kb_tables=["dentist"]) if d.code == "kb-without-table"]
    assert len(missing) == 1 and missing[0].worksheet == "dentists" and "Did you mean 'dentist'?" in missing[0].message
    assert not [d for d in lint(_spec(), kb_tables=["dentists"]) if d.code == "kb-without-table"]
    assert not [d for d in lint(_spec()) if d.code == "kb-without-table"]  # KB unknown: not judged


def test_template_asks_described_fields_in_plain_english():
    from core_engine.responders.template import TemplateResponder
    from core_engine.dialogue.state import DialogueState

    spec = Spec.model_validate({"worksheets": [{"name": "Main", "fields": [
        {"name": "task", "description": "What would you like to do today?"},
        {"name": "dentist", "description": "which dentist you would like to see"},
        {"name": "guest", "description": "The name of the guest"}]}]})
    state = DialogueState()
    state.new_task("Main", initiator="agent")
    var = state.records[0].var if hasattr(state, "records") else "main"
    ask = lambda field: TemplateResponder().ask({"act": "ask", "worksheet": "Main", "field": field, "var": var},  # noqa: E731
                                                state, spec)
    assert ask("task") == "What would you like to do today?"
    assert ask("dentist") == "Which dentist would you like to see?"  # a wh-clause is turned into a question
    assert ask("guest") == "Could you tell me the name of the guest?"
