"""Word lists for the course generator: instructor names, review phrases, degree programs."""

from __future__ import annotations

FIRST_NAMES: list[str] = [
    "Amara", "Benedikt", "Carmen", "Dmitri", "Elena", "Farid", "Greta", "Hiroshi", "Ines",
    "Jonah", "Kavya", "Lorenzo", "Maya", "Nikhil", "Odette", "Pablo", "Quinn", "Rosalind",
    "Samir", "Tamsin", "Umberto", "Vera", "Wendell", "Ximena", "Yusuf", "Zora",
]
LAST_NAMES: list[str] = [
    "Abernathy", "Bellweather", "Castellanos", "Dunmore", "Ekwueme", "Falkenrath", "Greenhalgh",
    "Hollister", "Ivanova", "Jablonski", "Kettering", "Lindqvist", "Marchetti", "Nakashima",
    "Okonkwo", "Pemberton", "Quintero", "Radcliffe", "Szymanski", "Thorvaldsen", "Underhill",
    "Vasquez-Moreno", "Whitcombe", "Yamaguchi", "Zellweger",
]

REVIEWS_GOOD: list[str] = [
    "One of the best classes I have taken here.",
    "{instructor} explains hard ideas clearly and is very approachable in office hours.",
    "The assignments were challenging but incredibly rewarding.",
    "Expect around {hours} hours a week, but you learn a ton.",
    "Great course if you are interested in {title}.",
    "Office hours were well staffed and the course staff really cared.",
    "Lectures were engaging and the examples were well chosen.",
    "I use what I learned in this class all the time.",
]
REVIEWS_MIXED: list[str] = [
    "Interesting material, but the workload spikes near the end of the quarter.",
    "Lectures were fine; the real learning happens in the assignments.",
    "Good content, though the exams felt rushed.",
    "Be ready to spend {hours} hours a week on it.",
    "Worth taking, but start the projects early.",
    "{instructor} knows the material well, but lectures can be dense.",
]
REVIEWS_POOR: list[str] = [
    "The assignments were poorly specified and the grading felt arbitrary.",
    "Lectures moved too fast and rarely connected to the homework.",
    "Far too much work for the number of units.",
]

# Specialization -> (courses every student takes, courses to choose from).
TRACKS: dict[str, tuple[list[str], list[str]]] = {
    "AI": (["CS 221"], ["CS 124", "CS 224N", "CS 228", "CS 229", "CS 231N", "CS 234", "CS 238"]),
    "Computational Biology": (
        ["CS 273A"], ["CS 221", "CS 228", "CS 229", "CS 246", "CS 279"]),
    "Human-Computer Interaction": (
        ["CS 147"], ["CS 194H", "CS 247A", "CS 247B", "CS 278", "CS 347", "CS 448B"]),
    "Information Management & Analytics": (
        ["CS 145"], ["CS 124", "CS 224W", "CS 245", "CS 246", "CS 329S"]),
    "Visual Computing": (
        ["CS 148"], ["CS 131", "CS 231A", "CS 231N", "CS 248", "CS 348B", "CS 448", "CS 448B"]),
    "Software Theory": (
        ["CS 242"], ["CS 143", "CS 157", "CS 243", "CS 343D", "CS 154"]),
    "Systems": (
        ["CS 140"], ["CS 143", "CS 144", "CS 145", "CS 149", "CS 240", "CS 244", "CS 245"]),
    "Theoretical Computer Science": (
        ["CS 154"], ["CS 166", "CS 168", "CS 254", "CS 255", "CS 261", "CS 265", "CS 369Z"]),
    "Computer & Network Security": (
        ["CS 155"], ["CS 144", "CS 251", "CS 253", "CS 255", "CS 244"]),
    "general": (
        [], ["CS 140", "CS 143", "CS 145", "CS 148", "CS 154", "CS 221", "CS 229", "CS 147"]),
}

BS_CORE = ["CS 103", "CS 106B", "CS 107", "CS 109", "CS 161"]
MS_FOUNDATIONS = ["CS 103", "CS 107", "CS 109", "CS 110", "CS 161"]

BS_TEMPLATE = (
    "The BS in Computer Science ({label}) requires the mathematics and science sequence, the "
    "CS core ({core}) and a senior project (CS 194 or CS 194H). {track} Students also take "
    "enough elective units to reach {units} units in computer science. Every course counted "
    "toward the major must be taken for a letter grade unless it is only offered "
    "Credit/No Credit, and at most one course may be double-counted with another major."
)
MS_TEMPLATE = (
    "The MS in Computer Science ({label} depth) requires 45 units of coursework. Students must "
    "satisfy the foundations requirement ({foundations}, or approved equivalents), take at "
    "least one course in three of the four breadth areas, and complete a depth area. "
    "{track} At least 36 units must be taken for a letter grade, and students must keep a "
    "3.0 grade point average in courses counted toward the degree."
)
PHD_TEMPLATE = (
    "PhD students in Computer Science complete breadth coursework in formal foundations, "
    "learning and modeling, systems, and people and society by the end of their second year, "
    "pass the qualifying examination, and rotate through at least two research groups in the "
    "first year. Students serve as course assistants for two quarters, present a thesis "
    "proposal, and defend a dissertation describing original research. Suggested first-year "
    "courses include {choices}."
)
