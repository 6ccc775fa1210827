"""Turn shapes from session 24's reading of the development agents' root misreadings, pinned on a flat-inspection
and removals spec written here (not a sample, not a development agent). One test per mechanism; each fails
without it.
"""

from __future__ import annotations

import pytest

from tests.fakes.specs import agent_with_kb, field, record_values, statements, talk

SPEC = {
    "name": "keyholder_lettings", "starting_prompt": "Hello, Keyholder Lettings here.",
    "description": "Property inspections, removals and key handovers for landlords.",
    "settings": {"start_worksheet": "Main", "date_order": "day_first"},
    "worksheets": [
        {"name": "Main", "kind": "task", "fields": [field("task", "Enum", "What you would like to do", enum_values=[
            {"value": "Book Inspection", "description": "book a property inspection"},
            {"value": "Book Move", "description": "book a removal van"},
            {"value": "Cancel Visit", "description": "cancel an inspection already booked"},
            {"value": "Send Keys", "description": "post a set of keys to someone"},
        ])]},
        {"name": "BookInspection", "kind": "task", "predicate": 'task == "Book Inspection"', "api": "book_inspection",
         "description": "An inspection of a let property.", "fields": [
            field("service", "services", "The inspection to book"),
            field("bedrooms", "int", "How many bedrooms the property has"),
            field("bathrooms", "int", "How many bathrooms the property has"),
            field("inspection_date", "date", "The day of the inspection"),
            field("start_time", "time", "The time the inspector arrives"),
            field("tenant_email", "str", "The tenant's email address"),
            field("landlord_email", "str", "Your own email address for the report"),
            field("confirm", "confirm", "Confirm the inspection")]},
        {"name": "BookMove", "kind": "task", "predicate": 'task == "Book Move"', "api": "book_move",
         "description": "A removal.", "fields": [
            field("from_postcode", "str", "The postcode you are moving from"),
            field("to_postcode", "str", "The postcode you are moving to"),
            field("move_date", "date", "The day of the move"),
            field("confirm", "confirm", "Confirm the move")]},
        {"name": "CancelVisit", "kind": "task", "predicate": 'task == "Cancel Visit"', "api": "cancel_visit",
         "description": "A visit cancelled.", "fields": [
            field("visit_reference", "str", "The visit's reference, like KH-1234"),
            field("contact_name", "str", "Your full name"),
            field("reason", "str", "Why you are cancelling, in your own words", required=False),
            field("confirm", "confirm", "Confirm the cancellation")]},
        {"name": "SendKeys", "kind": "task", "predicate": 'task == "Send Keys"', "api": "send_keys",
         "description": "Keys sent by post.", "fields": [
            field("recipient_name", "str", "The name of the person receiving the keys"),
            field("delivery_address", "str", "The delivery address, with the postcode"),
            field("confirm", "confirm", "Confirm the delivery")]},
        {"name": "services", "kind": "kb", "fields": [field("id", primary_key=True), field("name"), field("price", "float"),
                                                      field("description")]},
    ],
    "apis": [{"name": "book_inspection"}, {"name": "book_move"}, {"name": "cancel_visit"}, {"name": "send_keys"}],
}
SERVICES = [
    {"id": "i1", "name": "Check-in Inventory", "price": 90.0, "description": "a full inventory when a tenant moves in"},
    {"id": "i2", "name": "Mid-term Inspection", "price": 60.0, "description": "a look round while the tenancy runs"},
    {"id": "i3", "name": "Check-out Report", "price": 95.0, "description": "the inventory checked when a tenant leaves"},
]
INSPECTION = "I'd like to book an inspection"


@pytest.fixture(scope="module")
def agent(tmp_path_factory):
    yield from agent_with_kb(tmp_path_factory, "keyholder", SPEC, {"services": (SERVICES, ["description"])})


values = record_values


def test_a_number_before_the_head_of_a_field_names_compound(agent):
    session, [r] = talk(agent, "I'd like to book an inspection for my 3 bed, 2 bath flat")
    assert values(session, "book_inspection").get("bedrooms") == 3
    assert values(session, "book_inspection").get("bathrooms") == 2


def test_an_agreement_before_the_value_asked_is_no_part_of_it(agent):
    session, [*_, r] = talk(agent, "I need to cancel an inspection", "yes it's KH-20931")
    assert values(session, "cancel_visit")["visit_reference"] == "KH-20931"
    session, [*_, r] = talk(agent, "I need to cancel an inspection", "yes")
    assert "visit_reference" not in values(session, "cancel_visit")  # a bare yes is still no value


def test_a_code_declined_then_found_fills_its_field(agent):
    session, [*_, r] = talk(agent, "I need to cancel an inspection", "don't have the reference to hand sorry",
                            "Ann Holt", "oh wait no it's in my emails, KH-58213")
    assert values(session, "cancel_visit")["visit_reference"] == "KH-58213"
    assert values(session, "cancel_visit").get("confirm") is not False


def test_two_postcodes_joined_by_an_arrow_are_the_two_ends(agent):
    session, [*_, r] = talk(agent, "I'd like to book a removal van", "SN1 4BJ -> GL50 3PR")
    assert values(session, "book_move")["from_postcode"] == "SN1 4BJ"
    assert values(session, "book_move")["to_postcode"] == "GL50 3PR"


def test_whose_email_decides_between_two_email_fields(agent):
    session, [r] = talk(agent, "I'd like to book an inspection, the tenant is Jo Lim and her email is jo.lim@proton.me")
    assert values(session, "book_inspection").get("tenant_email") == "jo.lim@proton.me"
    session, [r] = talk(agent, "I'd like to book an inspection, my email is me@lettings.co.uk")
    assert values(session, "book_inspection").get("landlord_email") == "me@lettings.co.uk"


def test_a_day_beside_the_row_chosen_fills_the_record(agent):
    session, [*_, r] = talk(agent, INSPECTION, "what have you got?", "the 2nd one looks good, can you do it on wednesday")
    assert statements(r) == ["book_inspection.service = answer.result[1]", 'book_inspection.inspection_date = "2024-07-03"']


def test_what_there_is_to_choose_from_lists_the_rows(agent):
    session, [*_, r] = talk(agent, INSPECTION, "what have you got?")
    assert statements(r) == ['book_inspection.service = answer("what have you got")']
    assert all(row["name"] in r.response for row in SERVICES)


def test_an_address_beside_a_name_keeps_its_towns_and_postcode(agent):
    session, [*_, r] = talk(agent, "can you post some keys for me", "Mrs Ann Holt, 12 Mill Lane, Knowle, Bristol BS4 2AG")
    got = values(session, "send_keys")
    assert got["recipient_name"] == "Mrs Ann Holt"
    assert got["delivery_address"] == "12 Mill Lane, Knowle, Bristol BS4 2AG"


def test_a_number_before_a_question_tag_answers():
    from core_engine.parsers.offline.parser import _said_before_tag
    assert _said_before_tag("let's say 4, I can always extend right?") == "let's say 4"
    assert _said_before_tag("how many units is CS 448?") is None
    assert _said_before_tag("4 people, or is 5 ok?") is None  # the question has a number of its own


def test_a_request_naming_a_held_field_changes_it(agent):
    session, [*_, r] = talk(agent, INSPECTION, "the mid-term one", "3", "1", "12 June", "10am",
                            "ah wait can we start at half 11?")
    assert values(session, "book_inspection")["start_time"] == "11:30"


# ---------------------------------------------------------------- round 2: times, names, addresses, doubts

SUPPER = {
    "name": "lantern_supper_club", "starting_prompt": "Hello, Lantern Supper Club.",
    "description": "Tables at a supper club.", "settings": {"start_worksheet": "Main"},
    "worksheets": [
        {"name": "Main", "kind": "task", "fields": [field("task", "Enum", "What you would like to do", enum_values=[
            {"value": "Book Table", "description": "book a table"}])]},
        {"name": "BookTable", "kind": "task", "predicate": 'task == "Book Table"', "api": "book_table",
         "description": "A table.", "fields": [
            field("seating", "Enum", "Where you would like to sit", enum_values=[
                {"value": "Window", "description": "by the window"}, {"value": "Garden", "description": "outside"}]),
            field("date", "date", "The day"), field("time", "time", "The time"),
            field("guests", "int", "How many people"), field("guest_name", "str", "The full name of the guest of honour"),
            field("booker_name", "str", "Your full name"), field("confirm", "confirm", "Confirm the table")]},
    ],
    "apis": [{"name": "book_table"}],
}


@pytest.fixture(scope="module")
def supper(tmp_path_factory):
    from tests.fakes.specs import agent_of
    yield agent_of(tmp_path_factory.mktemp("supper"), SUPPER)


def test_an_evening_trades_clock_time_without_am_or_pm_is_the_evening(supper):
    session, [r] = talk(supper, "can I book a table for saturday at 7:30 for two")
    assert values(session, "book_table")["time"] == "19:30"


def test_a_new_hour_goes_to_the_side_of_noon_nearest_the_time_held(agent):
    session, [*_, r] = talk(agent, INSPECTION, "the mid-term one", "3", "1", "12 June", "2pm",
                            "actually can you make it 11 instead")
    assert values(session, "book_inspection")["start_time"] == "11:00"  # not 23:00


def test_a_guess_after_a_doubt_answers(supper):
    session, [*_, r] = talk(supper, "I'd like to book a table", "the window", "friday", "dunno, 7ish?")
    assert values(session, "book_table")["time"] == "19:00"


def test_a_name_to_an_option_question_fills_the_one_name_field_open(supper):
    session, [first, r] = talk(supper, "I'd like to book a table, it's for my mum's birthday, her name is Ann Lee",
                               "Priya Natarajan")
    assert values(session, "book_table")["guest_name"] == "Ann Lee"  # "her name": not the speaker's own
    assert statements(r) == ['book_table.booker_name = "Priya Natarajan"']  # not an option of the seating asked


def test_a_remark_that_it_was_said_before_is_no_part_of_a_value(supper):
    session, [*_, r] = talk(supper, "I'd like to book a table", "the window", "friday", "8pm", "4",
                            "for my dad, Revd Alan Marsh", "Joanne Fairley like I said")
    got = values(session, "book_table")
    assert got["booker_name"] == "Joanne Fairley"
    assert got["guest_name"] == "Revd Alan Marsh"  # another person's name keeps its title


def test_an_address_beside_other_values_keeps_its_flat_and_postcode():
    from core_engine.parsers.offline.parts.addresses import address_region
    assert address_region("it's Flat 2, 31 Redland Grove, Bristol BS6 6PR. I'm Priya and my mobile is 07911 123456") \
        == "Flat 2, 31 Redland Grove, Bristol BS6 6PR"
    assert address_region("we need someone at 4 Mill Lane, Hexby. 07700 900123") == "4 Mill Lane, Hexby"


# ---------------------------------------------------------------- round 3: ages, counts, clocks, surnames

def test_an_age_answers_a_yes_no_question_about_an_age_limit():
    from core_engine.parsers.offline.answering.age_flags import age_flag
    from core_engine.spec.model import Field
    over = Field(name="over_18", type="bool", description="Whether the volunteer is 18 or over")
    assert (age_flag(over, "I'm 19"), age_flag(over, "I'm 18"), age_flag(over, "she's 16")) == (True, True, False)
    assert age_flag(over, "yes") is None and age_flag(over, "I'm 19 and I like it") is None
    under = Field(name="child", type="bool", description="Whether the child is under 16")
    assert (age_flag(under, "he's 15"), age_flag(under, "he's 16")) == (True, False)
    strict = Field(name="adult", type="bool", description="Whether you are over 18")
    assert (age_flag(strict, "I'm 18"), age_flag(strict, "I'm 19")) == (False, True)


def test_just_her_counts_one(supper):
    session, [*_, r] = talk(supper, "I'd like to book a table", "the window", "friday", "8pm", "just her")
    assert values(session, "book_table")["guests"] == 1


def test_a_dotted_clock_beside_a_meal_is_a_time_not_a_count(supper):
    session, [r] = talk(supper, "can I book a table for tomorrow lunch, 12.30, 3 people")
    got = values(session, "book_table")
    assert (got.get("time"), got.get("guests")) == ("12:30", 3)  # never 12.3 people


def test_a_surname_said_by_its_label_in_the_opening():
    from core_engine.parsers.offline.opening.given_values import _SURNAME_SAID
    assert _SURNAME_SAID.search("can you check TRK-2290514? surname is Kowalski").group(1) == "Kowalski"
    assert _SURNAME_SAID.search("ticket HR-77104, surname Mbeki").group(1) == "Mbeki"
    assert _SURNAME_SAID.search("the surname is the same as before") is None


# ---------------------------------------------------------------- round 4: durations in minutes, short labels

COURTS = {
    "name": "riverside_padel", "starting_prompt": "Riverside Padel, hello.", "description": "Padel court bookings.",
    "settings": {"start_worksheet": "Main"},
    "worksheets": [
        {"name": "Main", "kind": "task", "fields": [field("task", "Enum", "What you would like to do", enum_values=[
            {"value": "Book Court", "description": "book a padel court"}])]},
        {"name": "BookCourt", "kind": "task", "predicate": 'task == "Book Court"', "api": "book_court",
         "description": "A court.", "fields": [
            field("date", "date", "The day"), field("start_time", "time", "When play starts"),
            field("duration_minutes", "int", "How long the court is booked for, in minutes"),
            field("rackets", "int", "How many rackets to hire"),
            field("membership_number", "str", "Your membership number"),
            field("confirm", "confirm", "Confirm the court")]},
    ],
    "apis": [{"name": "book_court"}],
}


@pytest.fixture(scope="module")
def courts(tmp_path_factory):
    from tests.fakes.specs import agent_of
    yield agent_of(tmp_path_factory.mktemp("courts"), COURTS)


def test_a_range_of_hours_fills_a_start_and_a_length_in_minutes(courts):
    session, [*_, r] = talk(courts, "I'd like to book a court", "friday", "8 till 9")
    got = values(session, "book_court")
    assert (got["start_time"], got["duration_minutes"]) == ("08:00", 60)  # a sports club's bare 8 is the morning


def test_an_hour_said_short_converts_to_a_field_counted_in_minutes(courts):
    session, [*_, r] = talk(courts, "I'd like to book a court", "friday at 7, for 1 hr")
    assert values(session, "book_court")["duration_minutes"] == 60


def test_a_code_after_a_field_name_said_short(courts):
    session, [*_, r] = talk(courts, "I'd like to book a court", "friday at 7 for 60 minutes", "just the one. memb no 44120")
    got = values(session, "book_court")
    assert (got.get("rackets"), got.get("membership_number")) == (1, "44120")


def test_short_labels():
    from core_engine.parsers.offline.answering.slots import short_label
    assert short_label("reg", {"registration"}) and short_label("acct", {"account", "number"})
    assert not short_label("num", {"number"}) and not short_label("re", {"registration"})


# ---------------------------------------------------------------- round 5: words that are no values

def test_a_word_said_in_passing_is_no_name(supper):
    session, [*_, r] = talk(supper, "I'd like to book a table", "the window", "friday", "8pm", "4",
                            "for my dad, Alan Marsh", "ouch. is there a corkage fee?")
    assert "booker_name" not in values(session, "book_table")


def test_one_of_the_group_is_no_new_count(supper):
    session, [*_, r] = talk(supper, "I'd like to book a table", "the window", "friday", "8pm", "6",
                            "sorry - one of the lads uses a wheelchair, is the window ok for that?")
    assert values(session, "book_table")["guests"] == 6


PHOTO = {
    "name": "brightlight_photography", "starting_prompt": "Brightlight Photography.", "description": "Event photographers.",
    "settings": {"start_worksheet": "Main"},
    "worksheets": [
        {"name": "Main", "kind": "task", "fields": [field("task", "Enum", "What you would like to do", enum_values=[
            {"value": "Book Shoot", "description": "book a photographer"}])]},
        {"name": "BookShoot", "kind": "task", "predicate": 'task == "Book Shoot"', "api": "book_shoot",
         "description": "A shoot.", "fields": [
            field("hours", "int", "How many hours of coverage you need"),
            field("second_shooter", "bool", "Whether you want a second photographer, at 40 pounds an hour"),
            field("venue_address", "str", "The address of the venue"),
            field("confirm", "confirm", "Confirm the shoot")]},
    ],
    "apis": [{"name": "book_shoot"}],
}


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    from tests.fakes.specs import agent_of
    yield agent_of(tmp_path_factory.mktemp("photo"), PHOTO)


def test_a_price_is_no_count_of_hours(photo):
    session, [*_, r] = talk(photo, "I'd like to book a photographer", "5", "£40 an hour on top? yeah ok, let's have one")
    assert values(session, "book_shoot")["hours"] == 5


def test_a_value_promised_for_later_is_no_value(photo):
    session, [*_, r] = talk(photo, "I'd like to book a photographer", "5", "no", "ill have to come back to u on the address, cheers")
    assert "venue_address" not in values(session, "book_shoot")


# ---------------------------------------------------------------- round 6: rows asked for by a word of their name

def test_a_booking_asked_for_a_row_by_one_word_of_its_name(agent):
    session, [r] = talk(agent, "can I book the mid-term please")
    assert 'main.task = "Book Inspection"' in statements(r)
    assert any(s.startswith("book_inspection = BookInspection(service=answer(") for s in statements(r))


def test_a_proposal_taken_in_words_with_values():
    from core_engine.parsers.offline.parser import _TAKES_IT
    assert _TAKES_IT.match("right let's do the Land Rover, for 10 days") and _TAKES_IT.match("ok I'll take it")
    assert not _TAKES_IT.match("what's the land rover like?") and not _TAKES_IT.match("let's see")


# ---------------------------------------------------------------- round 7: times moved in words, names as bookings say them

def test_a_clock_hour_changed_with_a_remark_after_it(agent):
    session, [*_, r] = talk(agent, INSPECTION, "the mid-term one", "3", "1", "12 June", "9am",
                            "actually can you change it to 10 not 9, i have to drop my son off")
    assert values(session, "book_inspection")["start_time"] == "10:00"
    session, [*_, r] = talk(agent, INSPECTION, "the mid-term one", "3", "1", "12 June", "2pm",
                            "ah actually make it 3, the tenant finishes work at 2")
    assert values(session, "book_inspection")["start_time"] == "15:00"


def test_make_it_with_a_small_count_held_is_left_alone(supper):
    session, [*_, r] = talk(supper, "I'd like to book a table", "the window", "friday", "8pm", "4", "make it 6")
    got = values(session, "book_table")
    assert got["time"] == "20:00"  # "make it 6" may be the party: the time is not moved on a guess


def test_a_code_found_when_prose_is_asked(agent):
    session, [*_, r] = talk(agent, "I need to cancel an inspection", "don't have the reference sorry", "Ann Holt",
                            "ah found it in my emails, it's KH-66104")
    assert "reason" not in values(session, "cancel_visit")  # the question asked prose; the code is not its answer
    assert values(session, "cancel_visit")["visit_reference"] == "KH-66104"


def test_a_name_said_the_way_a_booking_is_named():
    from core_engine.parsers.offline.answering.slots import _UNDER_NAME
    m = _UNDER_NAME.search("Under Dave Hughes. Could we do the following Sunday instead")
    assert m.group("name") == "Dave Hughes"
    assert _UNDER_NAME.search("its mb10552, name on it is Lucy Hart").group("name2") == "Lucy Hart"
    assert _UNDER_NAME.search("the key is under the mat") is None


def test_an_age_right_after_the_name_given():
    from core_engine.parsers.offline.initiatives import _AGE_AFTER_NAME
    assert _AGE_AFTER_NAME.match(", 27, hannah.lee@proton.me").group("age") == "27"
    assert _AGE_AFTER_NAME.match(", 27 Mill Lane") is None


def test_a_change_with_a_remark_naming_the_old_value(supper):
    session, [*_, r] = talk(supper, "I'd like to book a table", "the window", "friday", "8pm", "4",
                            "actually make it saturday, friday's gone mental at work")
    got = values(session, "book_table")
    assert got["date"] == "2024-07-06" and "booker_name" not in got and "guest_name" not in got


def test_a_sentence_is_no_name():
    from core_engine.parsers.offline.words.answers import not_a_name
    assert not_a_name("Friday'S Gone Mental At Work") and not_a_name("Is That Ok")
    assert not not_a_name("Will Smith") and not not_a_name("June May") and not not_a_name("Mary de la Cruz")


def test_the_one_code_in_a_sentence_answers_the_code_asked(agent):
    session, [*_, r] = talk(agent, "I need to cancel an inspection", "the letting agent gave me one, KH-REF-7781")
    assert values(session, "cancel_visit")["visit_reference"] == "KH-REF-7781"
    session, [*_, r] = talk(agent, "I need to cancel an inspection", "no idea, my flight is BA2491 if that helps")
    assert values(session, "cancel_visit").get("visit_reference") != "BA2491"


# ---------------------------------------------------------------- the attack pass: near misses that must not fire

def test_attack_a_count_before_another_noun_is_no_room_count(agent):
    session, [r] = talk(agent, "I'd like to book an inspection, and please check the 2 bath mats")
    assert "bathrooms" not in values(session, "book_inspection")


def test_attack_only_a_count_alone_before_a_tag(supper):
    from core_engine.parsers.offline.parser import _said_before_tag
    assert _said_before_tag("the max is 8, right?") is None and _said_before_tag("she's 12, is that ok?") is None
    assert _said_before_tag("tickets are 22 pounds each, right?") is None


def test_attack_an_age_limit_for_a_group_or_a_pet_is_not_one_persons_age():
    from core_engine.parsers.offline.answering.age_flags import age_flag
    from core_engine.spec.model import Field
    assert age_flag(Field(name="all_adults", type="bool", description="Whether everyone in the party is 18 or over"),
                    "I'm 19") is None
    assert age_flag(Field(name="senior_pet", type="bool", description="Whether the pet is over 8 years old"),
                    "I'm 70") is None


def test_attack_whose_email_is_a_persons_not_a_contraction(agent):
    session, [r] = talk(agent, "I'd like to book an inspection, my email's me@lettings.co.uk")
    assert values(session, "book_inspection").get("landlord_email") == "me@lettings.co.uk"
    assert "tenant_email" not in values(session, "book_inspection")


def test_attack_an_email_asked_is_its_answer_not_the_other_email(agent):
    session, [*_, r] = talk(agent, INSPECTION, "the mid-term one", "3", "1", "12 June", "10am", "jo@tenant.me")
    got = values(session, "book_inspection")
    assert got.get("tenant_email") == "jo@tenant.me" and "landlord_email" not in got


def test_attack_a_code_of_another_thing_fills_no_declined_reference(agent):
    session, [*_, r] = talk(agent, "I need to cancel an inspection", "don't have the reference sorry", "Ann Holt",
                            "yes cancel it, my flight is BA2490 so I can't make it")
    assert values(session, "cancel_visit").get("visit_reference") != "BA2490"


def test_attack_a_daytime_trade_keeps_a_morning_hour(agent):
    session, [*_, r] = talk(agent, INSPECTION, "the mid-term one", "3", "1", "12 June", "5pm",
                            "actually change the time to 10")
    assert values(session, "book_inspection")["start_time"] == "10:00"  # not 22:00


def test_attack_lengths_in_hours_to_a_minutes_field():
    from core_engine.parsers.offline.words.measures.durations import converted_duration
    assert [converted_duration(t, "minute") for t in ("1.5 hours", "2 hours 30 minutes", "1 hr 15", "2 hrs 30")] == \
        [90, 150, 75, 150]


def test_attack_a_pets_name_is_no_persons(agent):
    from core_engine.parsers.offline.opening.given_values import _PET
    assert _PET.search("an appointment for my dog, her name is Bella")


def test_attack_a_number_before_a_count_word_is_no_short_labelled_code(agent):
    session, [r] = talk(agent, "I need to cancel an inspection, I booked it through the app 12 days ago")
    assert values(session, "cancel_visit").get("visit_reference") is None
