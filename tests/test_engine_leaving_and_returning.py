"""A user leaves a task and comes back to it, or takes back a no (blind-set writers' engine notes).

Found by the writers of two blind sets while replaying their expected statements (no parser involved):
a lone `exitws(...)` reopened the task the user had just left, values for the left task were written
into the abandoned record and then asked again, the next copy of a task could not be named in the turn
that opened it, and after "no" at the summary a later "ok, go ahead" was refused.
"""

from __future__ import annotations

from core_engine import Agent, Spec

PARCELS = [
    {"name": "Main", "fields": [
        {"name": "errand", "type": "Enum", "enum_values": ["Send Parcel", "Track Parcel"],
         "description": "What you would like to do"}]},
    {"name": "SendParcel", "predicate": 'errand == "Send Parcel"', "api": "send_parcel", "fields": [
        {"name": "contents", "type": "str", "description": "What is in the parcel"},
        {"name": "weight_kg", "type": "float", "description": "Its weight in kilograms"},
        {"name": "go_ahead", "type": "confirm", "description": "Send it?"}]},
    {"name": "TrackParcel", "predicate": 'errand == "Track Parcel"', "fields": [
        {"name": "tracking_code", "type": "str", "description": "The tracking code"}]},
]
APIS = [{"name": "send_parcel", "kind": "mock", "mock_result": {"ref": "{transaction_id}"}}]


def session():
    return Agent(spec=Spec.model_validate({"worksheets": PARCELS, "apis": APIS})).new_session(parser="formal")


def asks(result) -> list[tuple]:
    return [(a.get("var"), a.get("field")) for a in result.acts if a["act"] == "ask"]


def records(result) -> dict:
    return {r["var"]: r for r in result.state["records"]}


def test_leaving_a_task_takes_back_the_choice_that_opened_it():
    s = session()
    s.turn('main.errand = "Send Parcel"\nsend_parcel.contents = "books"')
    r = s.turn("exitws(send_parcel)")
    recs = records(r)
    assert recs["send_parcel"]["status"] == "abandoned"
    assert "errand" not in recs["main"]["values"]  # not reopened as send_parcel_2 in the same turn
    assert "send_parcel_2" not in recs and asks(r) == [("main", "errand")]


def test_values_for_a_left_task_go_to_its_new_copy():
    s = session()
    s.turn('main.errand = "Send Parcel"\nsend_parcel.contents = "books"')
    s.turn("exitws(send_parcel)")
    r = s.turn('main.errand = "Send Parcel"\nsend_parcel.contents = "a lamp"\nsend_parcel.weight_kg = 2.5')
    recs = records(r)
    assert recs["send_parcel"]["values"] == {"contents": "books"}  # the left record is kept as it was
    assert recs["send_parcel_2"]["values"] == {"contents": "a lamp", "weight_kg": 2.5}
    assert asks(r) == [("send_parcel_2", "go_ahead")]


def test_the_next_copy_of_a_task_can_be_named_in_the_turn_that_opens_it():
    s = session()
    s.turn('main.errand = "Send Parcel"\nsend_parcel.contents = "books"')
    s.turn("exitws(send_parcel)\nmain.errand = None")  # the choice taken back too, as a parser may say it
    r = s.turn('main.errand = "Send Parcel"\nsend_parcel_2.contents = "a lamp"')
    assert not (r.trace.get("interpret") or {}).get("rejected")
    assert records(r)["send_parcel_2"]["values"] == {"contents": "a lamp"}
    assert asks(r) == [("send_parcel_2", "weight_kg")]


def test_only_the_next_copy_is_made_by_its_name():
    s = session()
    r = s.turn('main.errand = "Track Parcel"\nsend_parcel_3.contents = "a lamp"')
    assert "send_parcel_3" not in records(r)
    assert (r.trace.get("interpret") or {}).get("rejected")


def test_a_no_at_the_summary_can_be_changed_to_yes_while_nothing_changed():
    s = session()
    s.turn('main.errand = "Send Parcel"\nsend_parcel.contents = "books"\nsend_parcel.weight_kg = 1.5')
    s.turn("send_parcel.go_ahead = False")
    r = s.turn("send_parcel.go_ahead = True")
    assert [a["act"] for a in r.acts][:1] == ["report"] and records(r)["send_parcel"]["status"] == "completed"


def test_a_yes_out_of_turn_is_still_refused_when_no_no_was_given():
    s = session()
    s.turn('main.errand = "Send Parcel"\nsend_parcel.contents = "books"')
    r = s.turn("send_parcel.weight_kg = 1.5\nsend_parcel.go_ahead = True")
    assert (r.trace.get("interpret") or {}).get("rejected")
    assert asks(r) == [("send_parcel", "go_ahead")] and records(r)["send_parcel"]["status"] == "active"


def test_a_no_the_agent_never_asked_for_does_not_open_the_way_to_a_yes():
    """Issue 13's rule holds: a statement-level no before the summary was shown, then a yes, runs nothing."""
    s = session()
    s.turn('main.errand = "Send Parcel"\nsend_parcel.contents = "books"\nsend_parcel.weight_kg = 1.5\n'
           'send_parcel.go_ahead = False')  # the no was never an answer to a summary
    r = s.turn("send_parcel.go_ahead = True")
    assert all(a["act"] != "report" for a in r.acts) and records(r)["send_parcel"]["status"] == "active"
