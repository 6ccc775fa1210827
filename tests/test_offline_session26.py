"""Turn shapes from session 26's reading of the development agents' root misreadings, pinned on a pottery studio
spec written here (not a sample, not a development agent). One test per mechanism; each fails without it.
"""

from __future__ import annotations

import pytest

from tests.fakes.specs import agent_with_kb, field, record_values, statements, talk

SPEC = {
    "name": "kiln_studio", "starting_prompt": "Hello, Kiln Studio here.",
    "description": "A pottery studio that runs classes, fires pieces and hosts studio visits.",
    "settings": {"start_worksheet": "Main", "date_order": "day_first"},
    "worksheets": [
        {"name": "Main", "kind": "task", "fields": [field("task", "Enum", "What you would like to do", enum_values=[
            {"value": "Book Class", "description": "book a place on a pottery class"},
            {"value": "Manage Booking", "description": "move or cancel a class booking already made"},
            {"value": "Drop Off Pieces", "description": "bring pieces in to be fired in the kiln"},
            {"value": "Check Firing Status", "description": "find out whether your fired pieces are ready to collect",
             "examples": ["are my pots ready yet", "is my bowl done"]},
            {"value": "Report Problem", "description": "tell us something went wrong with a piece or the studio"},
            {"value": "Book Visit", "description": "ask a technician to come to your own kiln"},
            {"value": "Cancel Clay Order", "description": "cancel an order of clay or glazes"},
        ])]},
        {"name": "CancelClayOrder", "kind": "task", "predicate": 'task == "Cancel Clay Order"', "api": "cancel_order",
         "description": "An order of clay or glazes cancelled.", "fields": [
            field("order_number", "str", "Your order number, like CL-2210"),
            field("confirm", "confirm", "Confirm the cancellation")]},
        {"name": "BookClass", "kind": "task", "predicate": 'task == "Book Class"', "api": "book_class",
         "description": "A place on a pottery class.", "fields": [
            field("teacher", "Teacher", "The teacher you would like, if you have a preference", required=False),
            field("class_date", "date", "The day of the class"),
            field("start_time", "time", "The time the class starts"),
            field("places", "int", "How many places you need"),
            field("slot", "Enum", "When in the day you would like to come", enum_values=[
                {"value": "Morning"}, {"value": "Evening"}, {"value": "Any Time"}]),
            field("student_name", "str", "Your full name"),
            field("group_name", "str", "The name of your group or club, if you have one", required=False),
            field("confirm", "confirm", "Confirm the booking")]},
        {"name": "ManageBooking", "kind": "task", "predicate": 'task == "Manage Booking"', "api": "manage_booking",
         "description": "Moving or cancelling a class booking.", "fields": [
            field("action", "Enum", "What to do with the booking", enum_values=[
                {"value": "Reschedule"}, {"value": "Cancel"}]),
            field("booking_reference", "str", "Your booking reference, like KS-4410"),
            field("new_time", "time", "The new start time", predicate='self.action == "Reschedule"'),
            field("confirm", "confirm", "Confirm the change")]},
        {"name": "DropOffPieces", "kind": "task", "predicate": 'task == "Drop Off Pieces"', "api": "drop_off",
         "description": "Pieces brought in for firing.", "fields": [
            field("pieces", "int", "How many pieces you are bringing"),
            field("glaze_notes", "str", "Anything we should know about the glazes, in your own words"),
            field("is_member", "bool", "Are you a studio member?"),
            field("member_number", "str", "Your member number, like KM-1234", predicate="self.is_member == True"),
            field("confirm", "confirm", "Confirm the drop-off")]},
        {"name": "CheckFiringStatus", "kind": "task", "predicate": 'task == "Check Firing Status"', "api": "status",
         "description": "Whether fired pieces are ready.", "fields": [
            field("ticket_number", "str", "The number on your firing ticket"),
            field("surname", "str", "The surname the pieces were booked in under")]},
        {"name": "ReportProblem", "kind": "task", "predicate": 'task == "Report Problem"', "api": "report",
         "description": "Something that went wrong.", "fields": [
            field("contact_name", "str", "Your full name"),
            field("details", "str", "What went wrong, in your own words"),
            field("confirm", "confirm", "Confirm the report")]},
        {"name": "BookVisit", "kind": "task", "predicate": 'task == "Book Visit"', "api": "book_visit",
         "description": "A technician's visit to your own kiln.", "fields": [
            field("visit_date", "date", "The day of the visit"),
            field("confirm", "confirm", "Confirm the visit")]},
        {"name": "Teacher", "kind": "kb", "fields": [field("id", primary_key=True), field("name"),
                                                      field("description")]},
    ],
    "apis": [{"name": n} for n in ("book_class", "manage_booking", "drop_off", "status", "report", "book_visit",
                                   "cancel_order")],
}
TEACHERS = [{"id": "t1", "name": "Ines Morgan", "description": "throwing on the wheel for beginners"},
            {"id": "t2", "name": "Kofi Mensah", "description": "hand building and raku firing"}]
CLASS = "I'd like to book a pottery class"


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    yield from agent_with_kb(tmp_path_factory, "kiln", SPEC, {"Teacher": (TEACHERS, ["description"])})


values = record_values


def rules(result) -> list[str]:
    return [r["rule"] for r in result.trace["parse"]["rules"]]


def test_an_apology_after_a_correction_is_not_part_of_the_old_value(agent):
    session, [*_, r] = talk(agent, CLASS, "dont mind who", "Saturday 13th July", "10am", "3", "morning",
                            "Ada Okafor", "no group", "4 not 3 sorry")
    assert values(session, "book_class")["places"] == 4


def test_a_surname_first_name_is_turned_round(agent):
    session, [*_, r] = talk(agent, CLASS, "dont mind who", "Saturday 13th July", "10am", "3", "morning",
                            "Okafor, Ada")
    assert values(session, "book_class")["student_name"] == "Ada Okafor"


def test_no_preference_declines_an_optional_row_and_chooses_an_any_option(agent):
    session, [_, r] = talk(agent, CLASS, "doesn't matter, anyone is fine")
    assert values(session, "book_class")["teacher"] == "NA"
    session, [*_, r] = talk(agent, CLASS, "dont mind who", "Saturday 13th July", "10am", "3", "no preference")
    assert values(session, "book_class")["slot"] == "Any Time"
    session, [_, r] = talk(agent, CLASS, "whoever's best at raku")  # a criterion: a search, not "NA"
    assert values(session, "book_class").get("teacher") != "NA"


def test_a_cancel_asked_as_a_favour_after_a_story_asks_to_stop(agent):
    session, [*_, r] = talk(agent, CLASS, "dont mind who",
                            "oh hang on, my sister says she's already booked us on one next week. can you cancel this one")
    assert "control-cancel" in rules(r) and statements(r) == []
    assert "stop" in r.response.lower()


def test_a_cancel_said_while_another_action_is_held_chooses_the_cancel_option(agent):
    session, [*_, r] = talk(agent, "I need to reschedule my class booking", "KS-4410",
                            "actually you know what, just cancel it. I'll rebook when I'm less busy")
    assert values(session, "manage_booking")["action"] == "Cancel"


def test_a_verb_that_is_an_option_of_a_task_opens_that_task(agent):
    session, [r] = talk(agent, "I need to reschedule my class booking")  # not Book Class, whose words it also has
    assert statements(r)[0] == 'main.task = "Manage Booking"'
    assert values(session, "manage_booking")["action"] == "Reschedule"


def test_oh_wait_no_switches_to_the_task_asked_for(agent):
    session, [*_, r] = talk(agent, "I want to drop off some pieces for firing",
                            "oh wait no sorry, I need to report a problem with a mug you fired")
    assert statements(r)[:2] == ["exitws(drop_off_pieces)", 'main.task = "Report Problem"']


def test_a_task_told_as_done_switches_to_the_task_the_rest_asks_for_by_meaning(agent):
    session, [*_, r] = talk(agent, "I want to drop off some pieces for firing",
                            "oh sorry, I already dropped them off last week, I just want to know if they're done yet")
    assert statements(r)[:2] == ["exitws(drop_off_pieces)", 'main.task = "Check Firing Status"']


def test_a_visit_or_a_repair_asked_as_a_question_is_a_request():
    from core_engine.parsers.offline.intents import task_request
    assert task_request("our kiln keeps tripping, could someone come out and have a look at it?")
    assert task_request("can you lot fix that?")
    assert not task_request("could someone tell me when you open?")


def test_a_story_fills_a_field_described_as_the_users_own_words(agent):
    session, [r] = talk(agent, "I want to report a problem, the glaze on my big serving bowl came out all bubbly and "
                               "rough. can you lot fix that?")
    assert 'main.task = "Report Problem"' in statements(r)
    assert "bubbly" in values(session, "report_problem").get("details", "")


def test_a_bare_hour_asked_as_can_it_be_moves_the_time(agent):
    session, [*_, r] = talk(agent, "I need to reschedule my class booking", "KS-4410", "1pm",
                            "hmm no wait, I've got a meeting at 1 on thursdays. can it be 3 instead")
    assert values(session, "manage_booking")["new_time"] == "15:00"


def test_a_count_settled_on_in_the_answer_is_not_a_clock_time(agent):
    session, [*_, r] = talk(agent, CLASS, "dont mind who", "Saturday 13th July", "10am",
                            "8, or actually make it 9, Dave's coming")
    got = values(session, "book_class")
    assert got["places"] == 9 and got["start_time"] == "10:00"


def test_a_change_asked_in_one_clause_beside_a_reason(agent):
    session, [*_, r] = talk(agent, CLASS, "dont mind who", "Saturday 13th July", "10am", "3", "morning",
                            "Ada Okafor", "no group", "hmm actually we're away saturday. make it mon 15/7")
    assert values(session, "book_class")["class_date"] == "2024-07-15"


def test_a_name_with_the_kept_as_typed(agent):
    session, [*_, r] = talk(agent, CLASS, "dont mind who", "Saturday 13th July", "10am", "3", "morning",
                            "Ada Okafor", "The Muddy Hands")
    assert values(session, "book_class")["group_name"] == "The Muddy Hands"


def test_its_and_a_name_while_a_date_is_asked_fills_the_name(agent):
    session, [*_, r] = talk(agent, CLASS, "dont mind who", "it's Ada Okafor")
    assert values(session, "book_class").get("student_name") == "Ada Okafor"


def test_a_question_after_hang_on_is_a_question():
    from core_engine.parsers.offline.intents import is_question
    assert is_question("hang on how much is this going to cost me")


def test_hedged_and_texted_yeses():
    from core_engine.parsers.offline.words.values import yes_no
    assert yes_no("i think so? it said waitlist available")[:2] == (True, "i think so")
    assert yes_no("yh")[0] is True and yes_no("ok?") is None


def test_a_cry_for_help_is_not_part_of_the_story():
    from core_engine.parsers.offline.words.values import free_text
    assert free_text("HELP someone just emptied my savings account") == "someone just emptied my savings account"
    assert free_text("helpful staff were rude") == "helpful staff were rude"


def test_a_plural_room_word_is_no_room_number():
    from core_engine.parsers.offline.parts.rooms import _GROUP
    assert _GROUP.search("I need to move rooms asap") is None
    assert _GROUP.search("flat 3 room 12").group("value") == "3"


DROP_OFF = ("I want to drop off some pieces for firing", "three. no sorry, two",
            "they're a celadon glaze over a dark stoneware body, please keep them away from the element")


def test_a_number_said_after_a_slip_is_the_one_settled_on(agent):
    session, [*_, r] = talk(agent, *DROP_OFF[:2])
    assert values(session, "drop_off_pieces")["pieces"] == 2


def test_a_code_after_a_yes_with_its_label_fills_the_field_the_yes_opens(agent):
    session, [*_, r] = talk(agent, *DROP_OFF, "I am yes, number is KM-4471")
    got = values(session, "drop_off_pieces")
    assert (got.get("is_member"), got.get("member_number")) == (True, "KM-4471")


def test_an_answer_after_asking_why_it_is_needed(agent):
    session, [*_, r] = talk(agent, *DROP_OFF, "yes", "do you really need that? fine, KM-2231")
    assert values(session, "drop_off_pieces").get("member_number") == "KM-2231"
    session, [*_, r] = talk(agent, *DROP_OFF, "yes", "do you really need that? it's private")
    assert "member_number" not in values(session, "drop_off_pieces")


def test_a_persons_title_is_dropped_from_their_name(agent):
    session, [*_, r] = talk(agent, CLASS, "dont mind who", "Saturday 13th July", "10am", "3", "morning",
                            "Mrs Ada Okafor")
    assert values(session, "book_class")["student_name"] == "Ada Okafor"


def test_a_lost_source_declines_the_number_and_a_labelled_value_after_it_is_read(agent):
    session, [*_, r] = talk(agent, "are my pots ready yet?", "uhh I've lost the ticket. surname's O'Donnell if that helps")
    got = values(session, "check_firing_status")
    assert (got.get("ticket_number"), got.get("surname")) == ("NA", "O'Donnell")


def test_a_title_with_a_full_stop_in_an_introduction_is_no_name():
    from core_engine.parsers.offline.initiatives import _INTRO
    assert _INTRO.search("Hi, my name's Dr. Helen Marsh, my card was stolen").group("name") == "Helen Marsh"


def test_a_cancel_said_to_the_summary_of_a_cancellation_confirms_it(agent):
    session, [*_, r] = talk(agent, "I need to cancel my clay order", "CL-2210", "ok well cancel it anyway")
    assert statements(r) == ["cancel_clay_order.confirm = True"]


def test_coming_back_later_with_nothing_under_way_opens_nothing(agent):
    session, [*_, r] = talk(agent, "which teachers do raku?", "cool cheers, gonna talk to my partner and come back")
    assert statements(r) == [] and "task" not in values(session, "main")


def test_a_title_in_an_opening_is_no_part_of_the_callers_name(agent):
    session, [r] = talk(agent, "Hi, I'd like to book a pottery class on Saturday 13th July. This is Mrs Ada Okafor, "
                               "07700 900123")
    assert values(session, "book_class")["student_name"] == "Ada Okafor"


STAYS = {
    "name": "pet_hotel", "starting_prompt": "Hello, the pet hotel here.", "description": "A hotel for cats and dogs.",
    "settings": {"start_worksheet": "Main", "date_order": "day_first"},
    "worksheets": [
        {"name": "Main", "kind": "task", "fields": [field("task", "Enum", "What you would like to do", enum_values=[
            {"value": "Book Stay", "description": "book a stay for your pet"},
            {"value": "Reschedule Stay", "description": "new dates for a stay already booked"}])]},
        {"name": "BookStay", "kind": "task", "predicate": 'task == "Book Stay"', "api": "book_stay",
         "description": "A pet's stay.", "fields": [
            field("pet_name", "str", "Your pet's name"),
            field("check_in_date", "date", "The day the pet arrives"),
            field("check_out_date", "date", "The day the pet goes home"),
            field("last_booster_date", "date", "The date of the pet's last booster"),
            field("confirm", "confirm", "Confirm the stay")]},
        {"name": "RescheduleStay", "kind": "task", "predicate": 'task == "Reschedule Stay"', "api": "move_stay",
         "description": "A stay moved to other dates.", "fields": [
            field("booking_reference", "str", "Your booking reference, like PH-2210"),
            field("new_check_in_date", "date", "The new day the pet arrives"),
            field("confirm", "confirm", "Confirm the change")]},
    ],
    "apis": [{"name": "book_stay"}, {"name": "move_stay"}],
}


@pytest.fixture(scope="module")
def hotel(tmp_path_factory):
    from tests.fakes.specs import agent_of
    return agent_of(tmp_path_factory.mktemp("pet_hotel"), STAYS)


def test_two_days_of_one_month_are_a_range(hotel):
    session, [r] = talk(hotel, "I'd like to book a stay for Zeus, 18th to 20th July")
    got = values(session, "book_stay")
    assert (got.get("check_in_date"), got.get("check_out_date")) == ("2024-07-18", "2024-07-20")


def test_an_everyday_verb_of_a_task_name_chooses_it_over_the_words_of_another(hotel):
    session, [r] = talk(hotel, "I need to move my stay booking, something's come up")
    assert statements(r)[0] == 'main.task = "Reschedule Stay"'


def test_a_reference_of_digit_groups_and_letters_is_one_code():
    from core_engine.parsers.offline.answering.slots import code_value
    assert code_value("card 3391-AOW-0412").value == "3391-AOW-0412"
    assert code_value("card no. 5512-OW-2231").value == "5512-OW-2231"
    assert code_value("2-3pm") is None


def test_a_value_not_to_hand_is_declined(agent):
    session, [*_, r] = talk(agent, "are my pots ready yet?", "its on a card somewhere at home, havent got it on me")
    assert values(session, "check_firing_status").get("ticket_number") == "NA"


def test_a_number_settled_on_after_a_doubt(agent):
    session, [*_, r] = talk(agent, "I want to drop off some pieces for firing", "not sure.. 6 maybe, with the lids? put 6")
    assert values(session, "drop_off_pieces").get("pieces") == 6


def test_a_name_spelt_again_corrects_the_part_said(agent):
    session, [*_, r] = talk(agent, CLASS, "dont mind who", "Saturday 13th July", "10am", "3", "morning",
                            "Tom Rudge", "no group", "sorry my surname's spelt Rudd, not Rudge")
    assert values(session, "book_class")["student_name"] == "Tom Rudd"
