"""A KB row named in full is the row, not an option that one of its words spells (session 9, the lead), on a music
school written here: "sign up for the guitar basics workshop" joins that class; it does not book a trial lesson
on the guitar because "Guitar" is an option of the trial's instrument."""

from __future__ import annotations

import pytest

from storage.kb.importer import import_records
from tests.fakes.specs import agent_of, field, statements, talk, task_choice

CLASSES = [{"id": "c1", "name": "Guitar Basics Workshop", "level": "Beginner", "weeks": 6},
           {"id": "c2", "name": "Piano for Grown-ups", "level": "Beginner", "weeks": 10},
           {"id": "c3", "name": "Violin Ensemble", "level": "Advanced", "weeks": 12}]
COLUMNS = [("id", "str", "Class id"), ("name", "str", "Name of the class"), ("level", "str", "Who it is for"),
           ("weeks", "int", "How many weeks it runs")]
SPEC = {
    "name": "music_school", "starting_prompt": "Hello, Allegro music school.",
    "settings": {"start_worksheet": "Main", "today": "2024-07-01"},
    "worksheets": [
        task_choice({"value": "Join Class", "description": "a place on one of our group classes"},
                    {"value": "Book Trial", "description": "a one-off lesson with a teacher"}),
        {"name": "JoinClass", "kind": "task", "predicate": 'task == "Join Class"', "api": "join_class", "fields": [
            field("group_class", "MusicClass", "The class you want to join"),
            field("pupil_name", description="The pupil's name"), field("confirm", "confirm", "Confirm")]},
        {"name": "BookTrial", "kind": "task", "predicate": 'task == "Book Trial"', "api": "book_trial", "fields": [
            field("instrument", "Enum", "The instrument to try", enum_values=[
                {"value": "Guitar", "description": "acoustic or electric"},
                {"value": "Piano", "description": "keys"}, {"value": "Violin", "description": "strings"}]),
            field("trial_date", "date", "The day of the lesson"), field("confirm", "confirm", "Confirm")]},
        {"name": "classes", "kind": "kb", "fields": [field(n, t, d, primary_key=(n == "id")) for n, t, d in COLUMNS]},
        {"name": "MusicClass", "kind": "type", "fields": [field(n, t, d) for n, t, d in COLUMNS]},
    ],
    "apis": [{"name": "join_class"}, {"name": "book_trial"}],
}


@pytest.fixture(scope="module")
def school(tmp_path_factory):
    root = tmp_path_factory.mktemp("music_school")
    import_records(root / "kb.sqlite", CLASSES, "classes")
    return agent_of(root, SPEC)


def test_a_row_named_in_full_is_not_the_option_a_word_of_it_spells(school):
    _s, (first,) = talk(school, "hi, i'd like to sign up for the guitar basics workshop")
    said = statements(first)
    assert 'main.task = "Join Class"' in said and not any("Book Trial" in s or "instrument" in s for s in said), said


def test_the_one_row_shown_is_the_one_signed_up_for(school):
    _s, (_q, signed) = talk(school, "which classes are advanced?", "great, sign me up for that one")
    assert statements(signed) == ['main.task = "Join Class"', "join_class = JoinClass(group_class=answer.result[0])"]


def test_a_story_told_before_a_question_scopes_it(school):
    """ "I'm an advanced player. What classes do you have?": the story's KB value (a level) is part of the search."""
    _s, (first,) = talk(school, "I'm an advanced player. What classes do you have?")
    said = statements(first)
    assert len(said) == 1 and said[0].startswith("answer(") and "advanced" in said[0].lower(), said
    assert "Violin Ensemble" in first.response and "Guitar Basics" not in first.response
