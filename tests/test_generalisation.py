"""The offline parsers must not be grown on the samples: no sample name in their code.

Issue 12: a parser that names a sample's worksheet, field, enum value or KB value
understands that sample and little else. This collects every such name from the four
samples (specs and KB data) and fails on a string literal in the parser or the knowledge
parser that contains one as a word. Names that any agent uses are not sample-specific:
a name that also appears in a held-out agent's spec (tests/agents/*/spec.json: "name",
"date", "email", "confirm", ...) or in GENERIC is allowed. Docstrings are prose, not rules.
"""

import ast
import functools
import json
import re
from pathlib import Path

import pytest

from core_engine.loaders import load_spec

ROOT = Path(__file__).resolve().parents[1]
PARSER_CODE = [*sorted((ROOT / "core_engine" / "parsers" / "offline").rglob("*.py")), ROOT / "core_engine" / "knowledge" / "offline.py"]
GENERIC = {"text", "main", "others", "general", "days", "rating", "ratings", "reviews", "language", "letter",
           "summary", "title", "in person", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
           "sunday", "spring", "summer", "autumn", "winter"}  # calendar words: every agent's users say them
MIN_CHARS = 4  # shorter names ("id", "AP", "CS") are too common to mean a sample


@functools.lru_cache(maxsize=1)
def sample_names() -> frozenset[str]:
    names: set[str] = set()
    for spec_file in sorted((ROOT / "sample_projects").glob("*/spec.json")):
        for ws in load_spec(spec_file).worksheets:
            names.add(ws.name)
            for f in ws.fields:
                names |= {f.name, *(v.value for v in f.enum_values)}
        for data in sorted((spec_file.parent / "data").glob("*.jsonl")):
            for line in data.read_text(encoding="utf-8").splitlines():
                for value in json.loads(line).values():
                    items = value if isinstance(value, list) else [value]
                    names |= {v for v in items if isinstance(v, str) and len(v) < 40}
    held_out = " ".join(p.read_text(encoding="utf-8").lower() for p in (ROOT / "tests" / "agents").glob("*/spec.json"))
    candidates = {n.lower() for n in names if len(n) >= MIN_CHARS} - GENERIC
    return frozenset(n for n in candidates  # the substring test first: the word-boundary regex only when it can match
            if n not in held_out or not re.search(rf"(?<![a-z_]){re.escape(n)}(?![a-z_])", held_out))


def literals(path: Path):
    """(line, text) of the string literals of a module that are not docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            yield node.lineno, node.value


ENGLISH_IDIOMS = re.compile(r"\bof course\b", re.I)
"""Everyday phrases that contain a sample's word without naming it ("of course" is a yes)."""


def named_samples(paths: list[Path]) -> list[str]:
    names = sample_names()
    pattern = re.compile(r"(?<![A-Za-z_])(" + "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
                         + r")(?![A-Za-z_])", re.I)
    return [f"{p.name}:{line}: {m.group(1)!r}"
            for p in paths if p.is_file() for line, text in literals(p)
            for m in pattern.finditer(ENGLISH_IDIOMS.sub(" ", text))]


def test_the_check_finds_a_sample_name(tmp_path):
    bad = tmp_path / "rules.py"
    bad.write_text('"""Docstrings may say restaurant."""\nCUISINES = ["thai food", "a date", "Palo Alto"]\n')
    found = named_samples([bad])
    assert len(found) == 2 and "'thai'" in found[0] and "'Palo Alto'" in found[1]
    assert "palo alto" in sample_names() and "date" not in sample_names()  # "date" is every agent's word


def test_parsers_name_no_sample_worksheet_field_enum_or_kb_value():
    found = named_samples(PARSER_CODE)
    assert not found, f"{len(found)} sample names in parser code:\n" + "\n".join(found[:40])


AGENTS = sorted(p.parent for p in (ROOT / "tests" / "agents").glob("*/spec.json"))


@pytest.mark.parametrize("folder", AGENTS, ids=lambda p: p.name)
def test_held_out_agents_are_well_formed(folder):
    """Clean lint, a KB, at least 10 annotated conversations whose statements parse, KB questions on real rows.

    An agent with no tests/ folder is a knowledge-question agent (wine_shop, trail_office): it needs 20 KB
    questions instead of the conversations. A KB-heavy agent (garden_centre, record_shop) has 20 KB questions
    and at least 4 conversations that mix questions and a task."""
    from core_engine.session.agent import Agent
    from core_engine.evaluation.metrics import canonical_statements, load_kb_questions
    from core_engine.lint import has_errors, lint
    from core_engine.evaluation.testing import find_tests, load_test
    agent = Agent.load(folder)
    assert not has_errors(lint(agent.spec)) and agent.kb_path is not None
    tests = [load_test(p) for p in find_tests(agent)]
    kb_only = not (folder / "tests").is_dir()
    kb_heavy = len(load_kb_questions(folder / "kb_questions.json")) >= 20
    assert (kb_only and not tests) or len(tests) >= (4 if kb_heavy else 10) and all(t["parser"] == "offline"
                                                                                   for t in tests)
    for test in tests:
        for turn in test["turns"]:
            assert {"statements", "acts"} & set(turn), (test["name"], turn["user"])  # every turn is annotated
            bad = [s for s in canonical_statements(turn.get("statements", [])) if s.startswith("<rejected>")]
            assert not bad, (test["name"], turn["user"], bad)
    ids = {str(json.loads(line)["id"]) for data in (folder / "data").glob("*.jsonl")
           for line in data.read_text(encoding="utf-8").splitlines()}
    questions = load_kb_questions(folder / "kb_questions.json")
    assert len(questions) >= (20 if kb_only else 5) and all(set(q["expected_ids"]) <= ids for q in questions)


FIRST_SCORES = {"dental_clinic": (27, 60), "shop_order": (7, 49), "it_helpdesk": (13, 42), "pet_grooming": (39, 65),
                "library_loans": (27, 31), "sports_centre": (18, 54), "hotel_desk": (26, 64)}
"""Turns fully right with --parser offline when each agent was written, before any tuning on it (docs/evaluation.md):
the first three on 262f1d0, pet_grooming on 0519e1d (where the others stood at 56/60, 28/49 and 29/42),
library_loans on a6af565 (never tuned on; 26/31 with the parser of 0519e1d), sports_centre on bad4be2 (the parser of
main bfd216e, before the changes of its branch), hotel_desk on b785004 (session 6, helper B, before its branch)."""
FLOORS = {"dental_clinic": 59, "shop_order": 49, "it_helpdesk": 38, "pet_grooming": 65, "library_loans": 31,
          "sports_centre": 54, "hotel_desk": 50}
"""Turns fully right today: a change that loses one fails here (raise the floor when a change gains)."""
FIRST_SCORES["catering_order"], FLOORS["catering_order"] = (12, 59), 59
"""catering_order (a list of dishes, each with its options): first score on b785004, before the list mechanisms of
session 6 (branch parserA, docs/evaluation.md)."""


FIRST_SCORES["vet_clinic"], FLOORS["vet_clinic"] = (24, 67), 60
FIRST_SCORES["utility_desk"], FLOORS["utility_desk"] = (24, 56), 52
"""vet_clinic (a visit with a nested pet, repeat prescriptions) and utility_desk (power cuts, billing disputes with a
nested bill, meter readings): first scores on e9c64e0, before the mechanisms of session 7, helper F (branch parserF,
docs/evaluation.md)."""


FIRST_SCORES["car_wash"], FLOORS["car_wash"] = (37, 76), 69
FIRST_SCORES["blood_donation"], FLOORS["blood_donation"] = (26, 71), 58
"""car_wash (a wash with a nested vehicle, gift vouchers) and blood_donation (a donation with a nested donor, moving an
appointment by reference): first scores on 8eaf0ad, before the mechanisms of session 8, helper H (branch parserH,
docs/evaluation.md)."""

FIRST_SCORES["garden_centre"], FLOORS["garden_centre"] = (13, 21), 21
FIRST_SCORES["record_shop"], FLOORS["record_shop"] = (17, 24), 24
"""garden_centre (a plant finder: reserve plants for collection) and record_shop (second-hand vinyl: hold a record):
KB-heavy agents written in session 8 (helper I, branch parserI) before any change; first scores on 8eaf0ad."""


KB_FIRST_SCORES = {"wine_shop": (24, 34), "trail_office": (17, 34), "catering_order": (6, 6), "dental_clinic": (8, 8),
                   "hotel_desk": (9, 10), "it_helpdesk": (8, 8), "library_loans": (5, 5), "pet_grooming": (6, 7),
                   "shop_order": (7, 7), "sports_centre": (6, 6)}
"""KB questions answered right (genie eval, --parser offline) on e9c64e0, before session 7's knowledge-parser work
(helper E). wine_shop's and trail_office's first 20 questions were written then, before any change, as its
development set (14/20 and 10/20 on e9c64e0); their last 14 as a check after the first mechanisms (docs/evaluation.md)."""
KB_FIRST_SCORES.update({"garden_centre": (11, 20), "record_shop": (14, 20)})
"""The two KB-heavy agents of session 8 (helper I): 20 questions each, written and scored on 8eaf0ad before any change."""
KB_FLOORS = {"garden_centre": 20, "record_shop": 20, "wine_shop": 34, "trail_office": 32, "catering_order": 6, "dental_clinic": 8, "hotel_desk": 10,
             "it_helpdesk": 8, "library_loans": 5, "pet_grooming": 6, "shop_order": 7, "sports_centre": 6}
"""KB questions answered right today: a change that loses one fails here (raise the floor when a change gains)."""
KB_FIRST_SCORES.update({"car_wash": (4, 5), "blood_donation": (5, 5)})
KB_FLOORS.update({"car_wash": 4, "blood_donation": 5})
"""car_wash and blood_donation: written in session 8 (helper H), scored on 8eaf0ad; not tuned on."""
KB_FIRST_SCORES.update({"bike_hire": (15, 20), "evening_classes": (14, 20), "holiday_cottages": (13, 20)})
KB_FLOORS.update({"bike_hire": 19, "evening_classes": 18, "holiday_cottages": 16})
"""Knowledge-question agents of session 9 (helper K, branch parserK): written and scored on 76d28d7 before any
change (holiday_cottages after one row's features were made to agree with its hot_tub column: 12/20 before that
fix), then tuned on."""


FIRST_SCORES["bike_repair"], FLOORS["bike_repair"] = (44, 66), 58
FIRST_SCORES["self_storage"], FLOORS["self_storage"] = (29, 72), 70
"""bike_repair (a repair with a nested bike, checking on a repair by job number) and self_storage (renting a unit, giving
notice on one): first scores on 76d28d7, before the mechanisms of session 9, helper J (branch parserJ,
docs/evaluation.md)."""
KB_FIRST_SCORES.update({"bike_repair": (3, 5), "self_storage": (4, 5)})
KB_FLOORS.update({"bike_repair": 3, "self_storage": 4})
"""bike_repair and self_storage: written in session 9 (helper J), scored on 76d28d7; not tuned on."""

FIRST_SCORES["parcel_courier"], FLOORS["parcel_courier"] = (55, 86), 71
FIRST_SCORES["driving_school"], FLOORS["driving_school"] = (61, 90), 62
KB_FIRST_SCORES.update({"parcel_courier": (11, 15), "driving_school": (12, 15)})
KB_FLOORS.update({"parcel_courier": 15, "driving_school": 12})
"""Session 11's blind sets heldout14 (parcel_courier: send a parcel with a nested address, track one, report a problem;
30 depots) and heldout15 (driving_school: lessons with an instructor from the KB and a nested pick-up address, mock
theory tests, changing a lesson; 32 instructors), written by two helpers who never read or ran the parser; first
scores on 7d15b72 before any change. parcel_courier was then the development set (helpers C and D); driving_school
stayed blind until this commit (docs/evaluation.md, session 11)."""

FIRST_SCORES["removals_desk"], FLOORS["removals_desk"] = (26, 89), 27
FIRST_SCORES["parking_desk"], FLOORS["parking_desk"] = (34, 89), 81
FIRST_SCORES["claims_line"], FLOORS["claims_line"] = (27, 90), 47
FIRST_SCORES["outpatients_line"], FLOORS["outpatients_line"] = (49, 87), 50
KB_FIRST_SCORES.update({"removals_desk": (14, 15), "parking_desk": (12, 15), "claims_line": (13, 15),
                        "outpatients_line": (11, 15)})
KB_FLOORS.update({"removals_desk": 15, "parking_desk": 14, "claims_line": 15, "outpatients_line": 11})
"""Session 14's blind sets, written by helpers who never read or ran the parser: heldout21 (removals_desk: a move with
collection and delivery addresses, quotes, changes, damage claims; 30 vans), heldout22 (parking_desk: permits with a
nested vehicle, fine appeals, broken machines; 30 car parks), heldout23 (claims_line: home-insurance claims with a
nested incident, status, adjuster visits; 30 repairers), first scored on 123db30 before any change; heldout24
(outpatients_line: hospital appointments, transport, letters; 30 clinics), written after round 1 and first scored on
3e4ea96. parking_desk and claims_line were development sets in round 1, removals_desk was blind in round 1 and a
development set in round 2, outpatients_line stayed blind until this commit (docs/evaluation.md, session 14)."""

FIRST_SCORES["ferry_line"], FLOORS["ferry_line"] = (40, 90), 40
FIRST_SCORES["lost_property"], FLOORS["lost_property"] = (63, 85), 63
FIRST_SCORES["boiler_service"], FLOORS["boiler_service"] = (53, 90), 54
KB_FIRST_SCORES.update({"ferry_line": (13, 15), "lost_property": (10, 15), "boiler_service": (13, 15)})
KB_FLOORS.update({"ferry_line": 13, "lost_property": 10, "boiler_service": 13})
"""Session 15's blind sets, written by helpers who never read or ran the parser: heldout25 (ferry_line: crossings with
a route from the KB, vehicles and cabins, cancellations; 30 routes), heldout26 (lost_property: a railway lost-property
office, reports, checks and claims by post or in person; 32 found items), heldout27 (boiler_service: engineer visits,
heating-oil orders, cancellations; 30 engineers), first scored on 517c730 before any change of the session. All three
stayed blind through the session's one round (docs/evaluation.md, session 15)."""

FLOORS.update({"blood_donation": 59, "claims_line": 48, "driving_school": 77, "outpatients_line": 57,
               "parcel_courier": 77, "removals_desk": 37})
FLOORS["outpatients_line"] = 56  # session 25: a business's reference is kept as typed ("OP 72245"), as the blind
# writers of sessions 23-25 kept it in 6 of the 7 turns where the two differ; this agent's writer wrote "OP-72245"
KB_FLOORS.update({"bike_repair": 4, "car_wash": 5, "driving_school": 15, "outpatients_line": 15, "pet_grooming": 7})
"""Floors raised to the scores at the end of session 15 (its KB mechanisms and three parser helpers)."""

FIRST_SCORES["box_office"], FLOORS["box_office"] = (39, 86), 39
FIRST_SCORES["council_waste"], FLOORS["council_waste"] = (38, 89), 42
FIRST_SCORES["optician"], FLOORS["optician"] = (57, 89), 57
KB_FIRST_SCORES.update({"box_office": (12, 15), "council_waste": (9, 15), "optician": (12, 15)})
KB_FLOORS.update({"box_office": 12, "council_waste": 9, "optician": 12})
"""Session 16's blind sets, written by helpers who never read or ran the parser: heldout28 (box_office: a theatre box
office, bookings, exchanges and refunds; 30 shows), heldout29 (council_waste: bulky-waste collections, missed bins,
replacement bins; 32 item types), heldout30 (optician: eye tests, glasses and contact-lens orders; 30 frames), first
scored on 0eede58 before the session's parser change. All three stayed blind through it (docs/evaluation.md, session
16): their scores did not move."""

FLOORS.update({"ferry_line": 48, "lost_property": 67, "boiler_service": 62})
"""Floors raised to the scores at the end of session 16 (its value-layer mechanisms)."""

FIRST_SCORES["locksmith"], FLOORS["locksmith"] = (22, 89), 23
FIRST_SCORES["swim_centre"], FLOORS["swim_centre"] = (14, 90), 15
KB_FIRST_SCORES.update({"locksmith": (14, 15), "swim_centre": (11, 15)})
KB_FLOORS.update({"locksmith": 14, "swim_centre": 11})
"""Session 16's late sets, heldout31 (locksmith: call-outs, lock changes, surveys, quotes; 30 engineers) and heldout32
(swim_centre: swims, lessons, memberships; 32 sessions), written by helpers who never read or ran the parser, first
scored on 0eede58. Their brief named value forms the session had just fixed ("6:45", "last tuesday", an address with
its postcode), so they test those mechanisms on new writers' wording rather than measure blind transfer
(docs/evaluation.md, session 16)."""

FIRST_SCORES["pharmacy_counter"], FLOORS["pharmacy_counter"] = (51, 90), 51
FIRST_SCORES["device_repair"], FLOORS["device_repair"] = (18, 89), 18
FIRST_SCORES["venue_hire"], FLOORS["venue_hire"] = (33, 89), 37
KB_FIRST_SCORES.update({"pharmacy_counter": (11, 15), "device_repair": (10, 15), "venue_hire": (11, 15)})
KB_FLOORS.update({"pharmacy_counter": 11, "device_repair": 10, "venue_hire": 11})
"""Session 17's blind sets, written by helpers who never read or ran the parser: heldout33 (pharmacy_counter: repeat
prescriptions, product reservations, pharmacy services, order tracking; 34 products), heldout34 (device_repair: phone,
tablet and laptop repairs, status checks, quotes; 33 repairs), heldout35 (venue_hire: rooms of a town hall and
community centres, bookings, changes, cancellations; 30 rooms), first scored on 317d4e0 before the session's parser
change. They stayed blind through its round (docs/evaluation.md, session 17): venue_hire 33 -> 37, the others the
same."""

FLOORS.update({"locksmith": 30, "swim_centre": 21, "claims_line": 51, "parcel_courier": 78})
"""Floors raised to the scores at the end of session 17's round (the choice of task)."""

FIRST_SCORES["tyre_garage"], FLOORS["tyre_garage"] = (21, 90), 21
FIRST_SCORES["allotments_office"], FLOORS["allotments_office"] = (31, 86), 31
KB_FIRST_SCORES.update({"tyre_garage": (10, 15), "allotments_office": (11, 15)})
KB_FLOORS.update({"tyre_garage": 10, "allotments_office": 11})
FLOORS.update({"optician": 58, "pharmacy_counter": 53, "venue_hire": 38})
"""Session 17's second pair of blind sets, heldout36 (tyre_garage: MOTs, services, tyres bought and fitted, cars in
the workshop; 31 tyres and 12 services) and heldout37 (allotments_office: plot applications, waiting lists, plots
given up, problems on sites; 30 plots), written by helpers who never read or ran the parser, first scored on 8280ddd.
The session's second round did not move them (docs/evaluation.md, session 17). Floors of the agents that round moved
raised to its scores."""

FIRST_SCORES["celebration_cakes"], FLOORS["celebration_cakes"] = (35, 90), 37
FIRST_SCORES["tutoring_agency"], FLOORS["tutoring_agency"] = (27, 90), 31
FIRST_SCORES["museum_groups"], FLOORS["museum_groups"] = (33, 87), 33
KB_FIRST_SCORES.update({"celebration_cakes": (13, 15), "tutoring_agency": (7, 15), "museum_groups": (12, 15)})
KB_FLOORS.update({"celebration_cakes": 13, "tutoring_agency": 7, "museum_groups": 12})
FLOORS.update({"locksmith": 39, "optician": 64, "box_office": 45, "tyre_garage": 33, "swim_centre": 26, "venue_hire": 46,
               "ferry_line": 51, "pharmacy_counter": 58, "council_waste": 49, "removals_desk": 41, "boiler_service": 63})
KB_FLOORS.update({"tyre_garage": 11})
"""Session 18's blind sets, heldout38 (celebration_cakes: custom cake orders, changes and cancellations; 31 cake
designs), heldout39 (tutoring_agency: tutors by subject, level and format, trial lessons, moved and cancelled lessons;
30 tutors) and heldout40 (museum_groups: group and school visits, cancellations, membership changes; 31 tours,
workshops and exhibitions), written by helpers who never read or ran the parser, first scored on 91a55ff before the
session's round (docs/evaluation.md, session 18): celebration_cakes 35 -> 37, the others the same; then, as a
development set, tutoring_agency 27 -> 31 (fields of minutes). Floors of the development agents the round moved
raised to its scores."""

FLOORS.update({"blood_donation": 60, "boiler_service": 65, "locksmith": 43, "parcel_courier": 80, "swim_centre": 30,
               "tutoring_agency": 44, "venue_hire": 49, "driving_school": 76})
KB_FLOORS.update({"self_storage": 5})
"""Floors moved to the scores at the end of session 19's round (what the conversation already said; values inside
sentences). driving_school went down by one turn, on purpose: after "do you have anyone in Ashford who does
automatic?", "Priya sounds good. can we book him in with her" now books an automatic lesson, which its test expected
to be asked again (its next turn is "automatic obviously lol")."""

FIRST_SCORES["airport_transfers"], FLOORS["airport_transfers"] = (17, 89), 36
FIRST_SCORES["print_shop"], FLOORS["print_shop"] = (20, 88), 22
FIRST_SCORES["rehearsal_studio"], FLOORS["rehearsal_studio"] = (28, 88), 37
KB_FIRST_SCORES.update({"airport_transfers": (13, 15), "print_shop": (14, 15), "rehearsal_studio": (14, 15)})
KB_FLOORS.update({"airport_transfers": 13, "print_shop": 14, "rehearsal_studio": 14})
"""Session 19's blind sets, heldout41 (airport_transfers: rides to and from five airports, changes, cancellations; 30
vehicles), heldout42 (print_shop: orders of cards, flyers, banners and invitations, changes, cancellations; 30
products) and heldout43 (rehearsal_studio: rooms booked by the hour, gear, problems, moved and cancelled sessions; 30
rooms), written by helpers who never read or ran the parser, first scored on 59e943c before the session's round. The
round left the three agents where they were (17, 20, 28); then, as development sets, 36, 22 and 37 (the
preposition of an option, contact details left over, hours in an opening, codes and units; docs/evaluation.md,
session 19)."""


FLOORS.update({"airport_transfers": 41, "claims_line": 52, "council_waste": 50, "device_repair": 21,
               "pharmacy_counter": 59, "print_shop": 21, "rehearsal_studio": 42, "tutoring_agency": 49, "tyre_garage": 37})
KB_FLOORS.update({"pharmacy_counter": 12})
"""Floors moved to the scores at the end of session 20's round (agreement in other words, things declined beside
other values, hours by their shape, rows picked by a word, purposes that order rows, codes written like the example).
print_shop went 22 -> 25 -> 21 within the round: after the attack pass a count beside a chosen row needs "of them" or
the count's own word, so "just a normal pvc one to tie on the railings" no longer sets the quantity to 1 (from "one");
that wrong reading had put the rest of its banner conversation back on track by luck."""

FIRST_SCORES["florist_delivery"], FLOORS["florist_delivery"] = (40, 86), 40
FIRST_SCORES["escape_rooms"], FLOORS["escape_rooms"] = (24, 90), 29
FIRST_SCORES["translation_agency"], FLOORS["translation_agency"] = (40, 89), 40
KB_FIRST_SCORES.update({"florist_delivery": (12, 15), "escape_rooms": (12, 15), "translation_agency": (11, 15)})
KB_FLOORS.update({"florist_delivery": 12, "escape_rooms": 12, "translation_agency": 12})
"""Session 20's blind sets, heldout44 (florist_delivery: flower deliveries, changed and cancelled orders; 31
arrangements), heldout45 (escape_rooms: sessions by theme, difficulty and group size, gift vouchers, moved bookings;
30 rooms) and heldout46 (translation_agency: translation orders by language pair and specialism, order status; 30
translators), written by helpers who never read or ran the parser, first scored on 7a91b72 before the session's
round. After the round: florist_delivery 40, escape_rooms 29, translation_agency 40 (docs/evaluation.md, session 20)."""

FIRST_SCORES["campsite_pitches"], FLOORS["campsite_pitches"] = (33, 90), 34
FIRST_SCORES["photo_studio"], FLOORS["photo_studio"] = (30, 89), 30
FIRST_SCORES["home_cleaning"], FLOORS["home_cleaning"] = (36, 90), 35
KB_FIRST_SCORES.update({"campsite_pitches": (17, 20), "photo_studio": (15, 20), "home_cleaning": (16, 20)})
KB_FLOORS.update({"campsite_pitches": 19, "photo_studio": 20, "home_cleaning": 20})
"""Session 21's blind sets, heldout47 (campsite_pitches: pitch and glamping bookings, cancellations, problem reports;
32 pitches), heldout48 (photo_studio: photographer bookings, print orders, rescheduling; 30 photographers) and
heldout49 (home_cleaning: cleans by package, complaints, cancellations; 30 packages), written by helpers who never
read or ran the parser, first scored on 14d344d before the session's knowledge-parser round and scored blind after
it (KB 17/18/17 of 20); then development sets. home_cleaning's floor is one turn under its first score: a follow-up
"anything in Camden that would cover a 2 bedroom flat?" now reads "at least 2 bedrooms" (right) and finds more
rows than the one it used to, and the parser does not carry "end of tenancy" over from the turn before.
campsite_pitches' KB floor is 19 of the 20 it reached: "which shepherd's huts have their own shower?" was right while
the last word of a list value named it ("shower" for "Private Shower"), which the second attack pass showed to be
wrong in general ("5 minutes walk from the showers", "space for 12 children", "venues on one floor")."""

FIRST_SCORES["party_hire"], FLOORS["party_hire"] = (29, 90), 29
FIRST_SCORES["sports_courts"], FLOORS["sports_courts"] = (37, 90), 38
FIRST_SCORES["language_school"], FLOORS["language_school"] = (35, 89), 44
KB_FIRST_SCORES.update({"party_hire": (11, 20), "sports_courts": (11, 20), "language_school": (13, 20)})
KB_FLOORS.update({"party_hire": 16, "sports_courts": 19, "language_school": 18})
"""Session 21's second round, heldout50 (party_hire: event equipment hire, delivery changes, damage reports; 35
items), heldout51 (sports_courts: court and pitch bookings, cancellations, joining the club; 31 courts) and heldout52
(language_school: enrolments, course switches, refunds; 31 courses), written by helpers who never read the parser,
first scored on 14d344d. Their brief named the kinds of KB question the session's first round had just handled
(money against a second money column, ages, people, status words), so they test those mechanisms on new writers'
wording rather than measure blind transfer: KB 11/11/13 of 20 at the start of the session, 15/15/14 after the first
round (scored without looking at them), then development sets."""

FIRST_SCORES["pest_control"], FLOORS["pest_control"] = (20, 89), 26
FIRST_SCORES["coworking_desk"], FLOORS["coworking_desk"] = (37, 89), 46
FIRST_SCORES["tailor_shop"], FLOORS["tailor_shop"] = (33, 89), 43
KB_FIRST_SCORES.update({"pest_control": (8, 15), "coworking_desk": (12, 15), "tailor_shop": (12, 15)})
KB_FLOORS.update({"pest_control": 11, "coworking_desk": 15, "tailor_shop": 15})
"""Session 22's blind sets, heldout53 (pest_control: treatment visits, moved visits, quote callbacks; 31 treatments),
heldout54 (coworking_desk: room and desk bookings, memberships, problem reports; 30 spaces) and heldout55
(tailor_shop: alterations, order status, fittings; 31 services), written by helpers who never read or ran the parser,
first scored on cd68584 (turns right with values compared without letter case, as `same_value` does since this
session), then the session's development sets; the floors are their scores at the end of the session."""

FIRST_SCORES["hair_salon"], FLOORS["hair_salon"] = (55, 90), 55
FIRST_SCORES["car_rental"], FLOORS["car_rental"] = (41, 90), 41
FIRST_SCORES["window_gutter_cleaning"], FLOORS["window_gutter_cleaning"] = (39, 90), 40
KB_FIRST_SCORES.update({"hair_salon": (9, 15), "car_rental": (14, 15), "window_gutter_cleaning": (9, 15)})
KB_FLOORS.update({"hair_salon": 11, "car_rental": 14, "window_gutter_cleaning": 11})
"""Session 22's second round, heldout56 (hair_salon: appointments by service and stylist, moved or cancelled
appointments, gift vouchers; 31 services), heldout57 (car_rental: rentals by class and extras, extensions,
breakdowns; 32 cars) and heldout58 (window_gutter_cleaning: cleans by service and property size, paused rounds,
missed-clean complaints; 30 services), briefed without the session's mechanisms and first scored on cd68584; scored
blind after the first round's turn and KB rules (no change: 135/270 turns own, KB 32/45), then their KB questions
were looked at (KB 36/45 at the end)."""


@pytest.mark.parametrize("name", sorted(KB_FLOORS))
def test_held_out_agents_keep_their_kb_question_score(name):
    from core_engine.session.agent import Agent
    from core_engine.evaluation.metrics import evaluate_kb_questions, load_kb_questions
    folder = ROOT / "tests" / "agents" / name
    result = evaluate_kb_questions(Agent.load(folder), load_kb_questions(folder / "kb_questions.json"))
    assert result["n"] == KB_FIRST_SCORES[name][1]  # the questions were not edited to fit the parser
    assert result["right"] >= KB_FLOORS[name], [(q["question"], q["ids"]) for q in result["questions"] if not q["right"]]


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_held_out_agents_keep_their_score(name):
    from core_engine.session.agent import Agent
    from core_engine.evaluation.testing import run_tests
    results = run_tests(Agent.load(ROOT / "tests" / "agents" / name))
    turns = [c for r in results for c in r.turns]
    right = sum(not c.problems for c in turns)
    assert len(turns) == FIRST_SCORES[name][1]  # the conversations were not edited to fit the parser
    assert right >= FLOORS[name], [(r.name, c.index, c.user, c.problems) for r in results for c in r.turns
                                   if c.problems]

