"""Three-way spec merge: my edits land on a newer version; only real clashes are conflicts."""

from core_engine.spec.model import Api, Field, Spec
from storage.merge import merge_specs


def _base() -> Spec:
    return Spec.model_validate({"name": "a", "starting_prompt": "hi", "worksheets": [
        {"name": "Main", "fields": [{"name": "task", "type": "Enum", "enum_values": [{"value": "Book"}]},
                                    {"name": "age", "type": "int"}]},
        {"name": "Other", "fields": [{"name": "x"}]}]})


def test_edits_on_both_sides_merge_and_keep_what_the_grid_does_not_show():
    base = _base()
    theirs = base.model_copy(deep=True)
    theirs.apis = [Api(name="book")]
    theirs.starting_prompt = "Hello there"
    theirs.description = "dentist"
    theirs.worksheets[0].fields[1].description = "their desc"
    mine = base.model_copy(deep=True)
    mine.worksheets[0].fields[0].description = "what to do"
    mine.worksheets[0].fields.append(Field(name="new_one"))
    result = merge_specs(base, theirs, mine)
    assert result.conflicts == []
    spec = result.spec
    assert [a.name for a in spec.apis] == ["book"] and spec.starting_prompt == "Hello there"
    assert spec.description == "dentist"
    main = spec.worksheet("Main")
    assert [f.name for f in main.fields] == ["task", "age", "new_one"]
    assert main.field("task").description == "what to do" and main.field("age").description == "their desc"
    assert "worksheets.Main.fields.new_one" in result.merged


def test_same_attribute_changed_differently_is_a_conflict_resolved_by_choice():
    base = _base()
    theirs, mine = base.model_copy(deep=True), base.model_copy(deep=True)
    theirs.worksheets[0].fields[1].type = "str"
    mine.worksheets[0].fields[1].type = "float"
    mine.starting_prompt = "mine only"
    result = merge_specs(base, theirs, mine)
    assert [(c.path, c.theirs, c.mine) for c in result.conflicts] == [("worksheets.Main.fields.age.type", "str",
                                                                       "float")]
    assert result.unresolved and result.spec.worksheet("Main").field("age").type == "str"  # theirs until chosen
    assert result.spec.starting_prompt == "mine only"
    chosen = merge_specs(base, theirs, mine, {"worksheets.Main.fields.age.type": "mine"})
    assert chosen.spec.worksheet("Main").field("age").type == "float" and not chosen.unresolved


def test_removed_on_one_side_and_edited_on_the_other_is_one_conflict_for_the_item():
    base = _base()
    theirs, mine = base.model_copy(deep=True), base.model_copy(deep=True)
    theirs.worksheets[0].fields[1].description = "kept and edited"
    del mine.worksheets[0].fields[1]
    result = merge_specs(base, theirs, mine)
    assert [c.path for c in result.conflicts] == ["worksheets.Main.fields.age"]
    assert [f.name for f in result.spec.worksheet("Main").fields] == ["task", "age"]
    gone = merge_specs(base, theirs, mine, {"worksheets.Main.fields.age": "mine"}).spec
    assert [f.name for f in gone.worksheet("Main").fields] == ["task"]


def test_a_plain_removal_and_reorders_merge():
    base = _base()
    theirs, mine = base.model_copy(deep=True), base.model_copy(deep=True)
    theirs.worksheets.reverse()
    del mine.worksheets[0].fields[0]
    spec = merge_specs(base, theirs, mine).spec
    assert [w.name for w in spec.worksheets] == ["Other", "Main"]
    assert [f.name for f in spec.worksheet("Main").fields] == ["age"]


def test_a_draft_is_kept_in_the_project_file_and_not_a_version(tmp_path):
    from storage import Workspace
    from storage.drafts import clear_draft, load_draft, save_draft

    project = Workspace(tmp_path).create("p", _base())
    assert load_draft(project) is None
    edited = _base()
    edited.description = "half done"
    save_draft(project, edited, base=1)
    project.close()
    again = Workspace(tmp_path).open("p")
    draft = load_draft(again)
    assert draft.spec.description == "half done" and draft.base == 1 and len(again.versions()) == 1
    clear_draft(again)
    assert load_draft(again) is None
