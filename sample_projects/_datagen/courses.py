"""Generate the course_enrollment tables ``courses``, ``offerings``, ``ratings`` and
``programs`` (columns of KITA figs. 16-19).

Course facts come from the hand-written catalogue; schedules, instructors, ratings,
reviews and hours are drawn with one seeded ``random.Random``. ``average_rating`` is a
float with one decimal (the figure says int). Pinned values make the Genie paper's
course-enrollment conversation (App. H.1.1) come out the same way: CS 108 is taught in
Java, CS 124 is rated above CS 108, CS 448B meets Monday/Wednesday 11:30 AM in autumn.
"""

from __future__ import annotations

import random
import re

from .course_catalog import CORE_COURSES, CourseSpec
from .course_catalog_ai import AI_COURSES
from .course_words import (
    BS_CORE,
    BS_TEMPLATE,
    FIRST_NAMES,
    LAST_NAMES,
    MS_FOUNDATIONS,
    MS_TEMPLATE,
    PHD_TEMPLATE,
    REVIEWS_GOOD,
    REVIEWS_MIXED,
    REVIEWS_POOR,
    TRACKS,
)

SEED = 20240615
SEASONS = ("autumn", "winter", "spring", "summer")
FOUNDATIONS = ("logic_automata_and_complexity", "probability", "algorithmic_analysis",
               "computer_organization_and_systems", "principles_of_computer_systems")
BREADTH = ("formal_foundations", "learning_and_modeling", "systems", "people_and_society")
GRADINGS = ("Letter or Credit/No Credit", "Letter (ABCD/NP)", "Credit/No Credit")
ACADEMIC_YEARS = ((2021, 2022), (2022, 2023), (2023, 2024))
# Meeting pattern -> (minutes per meeting, possible start times in minutes after midnight).
PATTERNS: dict[str, tuple[int, list[int]]] = {
    "Monday, Wednesday": (80, [540, 630, 690, 810, 900, 990]),
    "Tuesday, Thursday": (80, [540, 630, 720, 810, 900, 990]),
    "Monday, Wednesday, Friday": (50, [570, 630, 690, 810, 870, 930]),
    "Wednesday": (110, [810, 900]),
    "Friday": (110, [630, 810]),
}
PATTERN_WEIGHTS = (5, 5, 3, 1, 1)
PROGRAMS: list[tuple[str, str]] = [
    *[("BS", s) for s in ("AI", "Computational Biology", "Human-Computer Interaction",
                          "Information Management & Analytics", "Visual Computing", "Systems",
                          "Theoretical Computer Science", "Computer & Network Security",
                          "general")],
    *[("MS", s) for s in TRACKS],
    ("PhD", "general"),
]


def generate(seed: int = SEED) -> dict[str, list[dict]]:
    """The four tables keyed by file stem: courses, offerings, ratings, programs."""
    rng = random.Random(seed)
    specs = sorted(CORE_COURSES + AI_COURSES, key=lambda s: _code_key(s.codes[0]))
    course_ids = sorted(rng.sample(range(100000, 130000), len(specs)))
    pool = _instructor_pool(rng, 64)
    courses, offerings, ratings = [], [], []
    for course_id, spec in zip(course_ids, specs):
        staff = rng.sample(pool, rng.randint(1, 3))
        hours = spec.hours if spec.hours is not None else rng.randint(500, 2200) / 100
        courses.append(_course_row(course_id, spec, hours))
        seasons = _seasons(rng, spec)
        offerings.extend(_offering_rows(rng, course_id, spec, seasons, staff))
        ratings.extend(_rating_rows(rng, course_id, spec, seasons, staff, hours,
                                    first_id=len(ratings) + 1))
    tables = {"courses": courses, "offerings": offerings, "ratings": ratings,
              "programs": _program_rows()}
    check_guarantees(tables)
    return tables


def _code_key(code: str) -> tuple[str, int, str]:
    dept, number = code.split(" ")
    match = re.match(r"(\d+)(.*)", number)
    assert match is not None, code
    return dept, int(match.group(1)), match.group(2)


def _instructor_pool(rng: random.Random, size: int) -> list[str]:
    names: list[str] = []
    while len(names) < size:
        name = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
        if name not in names:
            names.append(name)
    return names


def _course_row(course_id: int, spec: CourseSpec, hours: float) -> dict:
    """One row in the column order of KITA fig. 16."""
    return {
        "course_id": course_id,
        "max_units": spec.units[1],
        "title": spec.title,
        "grading": spec.grading,
        "course_codes": list(spec.codes),
        "general_requirements": list(spec.general),
        "min_units": spec.units[0],
        "description": spec.description,
        "average_hours_spent": hours,
        "foundations_requirements": spec.foundations,
        "significant_implementation_requirements": spec.impl,
        "breadth_requirement": spec.breadth,
        "prerequisite_course_codes": list(spec.prereqs),
    }


def _seasons(rng: random.Random, spec: CourseSpec) -> list[str]:
    if spec.seasons is not None:
        return list(spec.seasons)
    count = rng.choices((1, 2, 3), weights=(5, 3, 1))[0]
    chosen = rng.sample(SEASONS[:3], count)
    return [s for s in SEASONS if s in chosen]


def _clock(minutes: int) -> str:
    hour, minute = divmod(minutes, 60)
    suffix = "AM" if hour < 12 else "PM"
    return f"{(hour - 1) % 12 + 1}:{minute:02d} {suffix}"


def _offering_rows(rng: random.Random, course_id: int, spec: CourseSpec, seasons: list[str],
                   staff: list[str]) -> list[dict]:
    rows = []
    for season in seasons:
        if spec.schedule is not None:
            days, start, end = spec.schedule
        else:
            days = rng.choices(list(PATTERNS), weights=PATTERN_WEIGHTS)[0]
            length, starts = PATTERNS[days]
            begin = rng.choice(starts)
            start, end = _clock(begin), _clock(begin + length)
        teachers = rng.sample(staff, rng.randint(1, min(2, len(staff))))
        rows.append({"course_id": course_id, "days": days, "start_time": start,
                     "end_time": end, "instructor_names": teachers, "season": season})
    return rows


def _rating_rows(rng: random.Random, course_id: int, spec: CourseSpec, seasons: list[str],
                 staff: list[str], hours: float, first_id: int) -> list[dict]:
    pinned = spec.rating is not None
    centre = round(spec.rating * 10) if spec.rating is not None else rng.randint(30, 48)
    number = _code_key(spec.codes[0])[1]
    years = rng.sample(ACADEMIC_YEARS, rng.randint(1, 3))
    rows = []
    for offset, (start_year, end_year) in enumerate(sorted(years)):
        season = rng.choice(seasons)
        spread = 1 if pinned else 3
        tenths = min(50, max(10, centre + rng.randint(-spread, spread)))
        teachers = rng.sample(staff, rng.randint(1, min(2, len(staff))))
        rows.append({
            "rating_id": first_id + offset,
            "course_id": course_id,
            "instructor_names": teachers,
            "average_rating": tenths / 10,
            "num_ratings": rng.randint(80, 400) if 100 <= number < 112 else rng.randint(8, 140),
            "term_id": 1000 + (end_year % 100) * 10 + 2 * (SEASONS.index(season) + 1),
            "start_year": start_year,
            "end_year": end_year,
            "season": season,
            "reviews": _reviews(rng, tenths / 10, spec.title, teachers[0], hours),
        })
    return rows


def _reviews(rng: random.Random, rating: float, title: str, instructor: str,
             hours: float) -> list[str]:
    weights = (8, 2, 0) if rating >= 4.3 else (5, 4, 1) if rating >= 3.6 else (2, 4, 4)
    target = rng.randint(2, 5)
    texts: list[str] = []
    while len(texts) < target:
        tone = rng.choices((REVIEWS_GOOD, REVIEWS_MIXED, REVIEWS_POOR), weights=weights)[0]
        text = rng.choice(tone).format(instructor=instructor, title=title,
                                       hours=round(hours))
        if text not in texts:
            texts.append(text)
    return texts


def _program_rows() -> list[dict]:
    rows = []
    for program_id, (level, specialization) in enumerate(PROGRAMS, start=1):
        slug = re.sub(r"[^a-z0-9]+", "-", specialization.lower()).strip("-")
        rows.append({
            "program_id": program_id,
            "level": level,
            "specialization": specialization,
            "sheet_requirements": _requirements(level, specialization),
            "sheet_url": f"https://cs.example.edu/programs/{level.lower()}-{slug}-2024.pdf",
            "sheet_path": f"program_sheets/{level.lower()}_{slug.replace('-', '_')}.pdf",
        })
    return rows


def _requirements(level: str, specialization: str) -> str:
    required, choices = TRACKS[specialization]
    label = "no specialization" if specialization == "general" else specialization
    if level == "PhD":
        return PHD_TEMPLATE.format(choices=_join(choices))
    pick = 3 if level == "BS" else 4
    if required:
        track = (f"The {label} track requires {_join(required)} and at least {pick} courses "
                 f"from {_join(choices, 'or')}.")
    else:
        track = f"Students choose at least {pick} courses from {_join(choices, 'or')}."
    if level == "BS":
        units = 60 if specialization == "general" else 63
        return BS_TEMPLATE.format(label=label, core=_join(BS_CORE), track=track, units=units)
    return MS_TEMPLATE.format(label=specialization, foundations=_join(MS_FOUNDATIONS), track=track)


def _join(items: list[str], word: str = "and") -> str:
    if len(items) <= 2:
        return f" {word} ".join(items)
    return f"{', '.join(items[:-1])}, {word} {items[-1]}"


def sentence_count(text: str) -> int:
    """Sentences in a plain description (ends of sentence followed by space or the end)."""
    return len(re.findall(r"[.!?](?:\s|$)", text))


REQUIRED_CODES = (
    "CS 103 CS 106A CS 106B CS 107 CS 108 CS 109 CS 110 CS 111 CS 124 CS 129 CS 131 CS 140 "
    "CS 143 CS 144 CS 145 CS 147 CS 148 CS 149 CS 155 CS 157 CS 161 CS 221 CS 224N CS 224W "
    "CS 229 CS 230 CS 231N CS 238 CS 242 CS 246 CS 248 CS 255 CS 261 CS 343D CS 369Z CS 448 "
    "CS 448B CS 448H"
)


def check_guarantees(tables: dict[str, list[dict]]) -> None:
    """Raise AssertionError unless the tables are consistent and answer the paper's questions."""
    def require(condition: bool, message: str) -> None:
        if not condition:
            raise AssertionError(f"courses: {message}")

    courses = tables["courses"]
    ids = [c["course_id"] for c in courses]
    require(len(set(ids)) == len(ids), "duplicate course ids")
    codes = [code for c in courses for code in c["course_codes"]]
    require(len(set(codes)) == len(codes), "duplicate course codes")
    require(sum(any(code.startswith("CS ") for code in c["course_codes"]) for c in courses) >= 70,
            "fewer than 70 CS courses")
    by_code = {code: c for c in courses for code in c["course_codes"]}
    paired = re.findall(r"CS \S+", REQUIRED_CODES)
    require(all(code in by_code for code in paired), "a required course code is missing")
    for course in courses:
        require(course["grading"] in GRADINGS, f"grading of {course['title']}")
        require(course["foundations_requirements"] in ("", *FOUNDATIONS), course["title"])
        require(course["breadth_requirement"] in ("", *BREADTH), course["title"])
        require(course["min_units"] <= course["max_units"], f"units of {course['title']}")
        require(2 <= sentence_count(course["description"]) <= 4,
                f"description of {course['title']} must have 2-4 sentences")
    known = set(ids)
    for name in ("offerings", "ratings"):
        require(all(row["course_id"] in known for row in tables[name]), f"orphan {name}")
    require(set(ids) <= {row["course_id"] for row in tables["offerings"]}, "course never offered")
    cs108, cs124 = by_code["CS 108"], by_code["CS 124"]
    require("object-oriented programming" in cs108["description"].lower()
            and "Java" in cs108["description"], "CS 108 description")
    rated = {cid: [r["average_rating"] for r in tables["ratings"] if r["course_id"] == cid]
             for cid in (cs108["course_id"], cs124["course_id"])}
    require(min(rated[cs124["course_id"]]) > max(rated[cs108["course_id"]]),
            "CS 124 must be rated above CS 108")
    require(by_code["CS 448B"]["max_units"] == 4 and by_code["CS 147"]["max_units"] == 5,
            "units of CS 448B / CS 147")
    require(any(o["course_id"] == by_code["CS 448B"]["course_id"] and o["season"] == "autumn"
                and o["days"] == "Monday, Wednesday" and o["start_time"] == "11:30 AM"
                for o in tables["offerings"]), "CS 448B schedule")
    require(by_code["CS 224N"]["course_codes"] == ["CS 224N", "LINGUIST 284"]
            and "CS 124" not in by_code["CS 224N"]["prerequisite_course_codes"], "CS 224N")
