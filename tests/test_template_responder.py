"""The template responder's questions: descriptions written about "the user" are said to the user."""

from core_engine import Agent
from core_engine.responders.template import _second_person
from core_engine.spec.model import Spec


def test_descriptions_about_the_user_become_second_person():
    assert _second_person("The task the user wants to do") == "The task you want to do"
    assert _second_person("the user's email address") == "your email address"
    assert _second_person("Whether the user has a membership") == "Whether you have a membership"
    assert _second_person("the phone number of the user") == "your phone number"
    assert _second_person("What the user is looking for") == "What you are looking for"
    assert _second_person("the name of the dentist") == "the name of the dentist"  # nothing about the user


def test_an_asked_field_is_phrased_to_the_user():
    spec = Spec.model_validate({"name": "t", "worksheets": [{"name": "Main", "fields": [
        {"name": "email", "type": "str", "description": "The email address of the user"}]}],
        "settings": {"start_worksheet": "Main"}})
    result = Agent(spec=spec).new_session(parser="formal").turn('main = Main()')
    assert result.response == "Could you tell me your email address?"


def test_the_summary_keeps_the_case_of_a_description():
    """'like WR-4821' in a description stays upper case in the summary (str.capitalize() lowered it)."""
    spec = Spec.model_validate({"name": "t", "worksheets": [{"name": "Main", "fields": [
        {"name": "reference", "type": "str", "description": "The booking reference, like WR-4821"},
        {"name": "confirm", "type": "confirm", "description": "Confirm"}]}],
        "settings": {"start_worksheet": "Main"}})
    result = Agent(spec=spec).new_session(parser="formal").turn('main = Main(reference="WR-5530")')
    assert "- The booking reference, like WR-4821: WR-5530" in result.response, result.response


def test_a_description_with_its_own_determiner_is_asked_mid_sentence():
    """"Could you tell me A promotion code" / "the why you need to change" (a blind-set writer's note)."""
    spec = Spec.model_validate({"name": "t", "worksheets": [{"name": "Main", "fields": [
        {"name": "promo", "type": "str", "description": "A promotion code, if you have one"},
        {"name": "reason", "type": "str", "description": "Why you need to change"}]}],
        "settings": {"start_worksheet": "Main"}})
    s = Agent(spec=spec).new_session(parser="formal")
    assert s.turn('main = Main()').response == "Could you tell me a promotion code, if you have one?"
    assert s.turn('main.promo = "SPRING10"').response == "Could you tell me why you need to change?"
