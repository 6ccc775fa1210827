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
    """A description's case is kept in the summary (str.capitalize() lowered 'PNR'); its example is left out."""
    spec = Spec.model_validate({"name": "t", "worksheets": [{"name": "Main", "fields": [
        {"name": "reference", "type": "str", "description": "The PNR of the booking, like WR-4821"},
        {"name": "confirm", "type": "confirm", "description": "Confirm"}]}],
        "settings": {"start_worksheet": "Main"}})
    result = Agent(spec=spec).new_session(parser="formal").turn('main = Main(reference="WR-5530")')
    assert "- The PNR of the booking: WR-5530" in result.response, result.response  # the example is left out


def test_a_description_with_its_own_determiner_is_asked_mid_sentence():
    """"Could you tell me A promotion code" / "the why you need to change" (a blind-set writer's note)."""
    spec = Spec.model_validate({"name": "t", "worksheets": [{"name": "Main", "fields": [
        {"name": "promo", "type": "str", "description": "A promotion code, if you have one"},
        {"name": "reason", "type": "str", "description": "Why you need to change"}]}],
        "settings": {"start_worksheet": "Main"}})
    s = Agent(spec=spec).new_session(parser="formal")
    assert s.turn('main = Main()').response == "Could you tell me a promotion code, if you have one?"
    assert s.turn('main.promo = "SPRING10"').response == "Could you tell me why you need to change?"


def test_questions_from_clauses_and_yes_no_descriptions_are_english():
    """Blind-set writers (session 11): "What you would like to do?", "Whether the recipient must sign? (yes or
    no)", a date example fixed in 2024 whatever today is, and the summary repeating the description's example."""
    spec = Spec.model_validate({"name": "t", "worksheets": [{"name": "Main", "fields": [
        {"name": "task", "type": "str", "description": "What you would like to do"},
        {"name": "signature", "type": "bool", "description": "Whether the recipient must sign"},
        {"name": "day", "type": "date", "description": "The collection date"},
        {"name": "reference", "type": "str", "description": "The booking reference, like DS-20931"},
        {"name": "confirm", "type": "confirm", "description": "Confirm"}]}],
        "settings": {"start_worksheet": "Main"}})
    s = Agent(spec=spec).new_session(parser="formal")
    assert s.turn('main = Main()').response == "What would you like to do?"
    assert s.turn('main.task = "send"').response == "Could you tell me whether the recipient must sign? (yes or no)"
    asked = s.turn('main.signature = True').response
    assert asked.startswith("Could you tell me the collection date?") and "2024" not in asked
    s.turn('main.day = "2025-03-14"')
    summary = s.turn('main.reference = "DS-44120"').response
    assert "- The booking reference: DS-44120" in summary and "DS-20931" not in summary, summary


def test_a_list_of_records_is_summed_up_by_their_values():
    """A prescription's list of medicines was summed up as "medicine_2, medicine_3" (a blind-set writer's note)."""
    spec = Spec.model_validate({"name": "t", "worksheets": [
        {"name": "Main", "fields": [
            {"name": "medicines", "type": "List[Medicine]", "description": "The medicines you need"},
            {"name": "confirm", "type": "confirm", "description": "Confirm"}]},
        {"name": "Medicine", "kind": "task", "fields": [
            {"name": "medicine_name", "type": "str", "description": "The medicine's name"},
            {"name": "strength", "type": "str", "description": "Its strength"}]}],
        "settings": {"start_worksheet": "Main"}})
    session = Agent(spec=spec).new_session(parser="formal")
    session.turn('main = Main(medicines=[Medicine(medicine_name="Amlodipine", strength="5 mg"), '
                 'Medicine(medicine_name="Salbutamol", strength="100 mcg")])')
    result = session.turn("confirm(main.medicines)")
    assert "1. The medicine's name: Amlodipine; Its strength: 5 mg" in result.response, result.response
    assert "2. The medicine's name: Salbutamol; Its strength: 100 mcg" in result.response
    assert "medicine_" not in result.response


def test_a_birth_date_and_a_past_date_are_asked_with_past_examples():
    spec = Spec.model_validate({"name": "t", "worksheets": [{"name": "Main", "fields": [
        {"name": "date_of_birth", "type": "date", "description": "Your date of birth"},
        {"name": "sent_on", "type": "date", "description": "The day the form was sent"},
        {"name": "visit", "type": "date", "description": "The day of the visit"}]}],
        "settings": {"start_worksheet": "Main"}})
    session = Agent(spec=spec).new_session(parser="formal")
    assert session.turn("main = Main()").response.endswith("(for example, 14 March 1990)")
    assert session.turn('main.date_of_birth = "1980-02-03"').response.endswith("(for example, last Monday or 3 March)")
    assert session.turn('main.sent_on = "2024-02-03"').response.endswith("(for example, next Friday or 14 March)")
