"""Many concurrent sessions: no cross-talk between them (threads, processes, interleaved turns).

Each of SESSIONS sessions plays its own scripted 20-turn conversation (offline parser,
template responses) with values that only it uses (names, account numbers, PINs,
dates). Every run mode must reproduce, turn by turn, exactly what the same
conversation gives when it runs alone on a freshly loaded agent:

- threads: sessions of one shared Agent per sample, on a thread pool;
- interleaved: one thread, turn 1 of every session, then turn 2 of every session, ...;
- processes: a process pool (spawned workers).

Per-turn time growth and memory per idle session are measured in bench/bench_load.py.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from core_engine import Agent
from tests.robustness import SAMPLES_DIR

SESSIONS = 50
TURNS = 20
INTERLEAVED = 20  # sessions in the single-thread interleaving check
TODAY = dt.date(2024, 7, 5)
FIRST = ["Ana", "Ben", "Chloe", "Dmitri", "Eve", "Farah", "Goran", "Hana", "Ivan", "June", "Kofi", "Lena"]
LAST = ["Ruiz", "Okafor", "Nguyen", "Schmidt", "Haddad", "Kowalski", "Tanaka", "Silva", "Moreau", "Patel"]
# (sample, parser): the conversation in order, then turns sprinkled in at random places
CORE = {
    ("bank_fraud", "offline"): [
        "Hi, someone used my card and took out ${amount} at an ATM", "{first} {last}", "{account}", "{pin}",
        "There were {count} charges I did not make at {shop}"],
    ("ticket_submission", "offline"): [
        "I cannot find my AP credits in my transcript", "{month} {year}", "They were for AP {subject}",
        "{first} {last}", "yes"],
    ("bank_fraud", "formal"): [
        'main.full_name = "{first} {last}"', 'first_authentication.account_number = "{account}"',
        'first_authentication.pin = "{pin}"', 'main.fraud_report = "{count} charges at {shop}"'],
}
FILLERS = {
    ("bank_fraud", "offline"): ["thanks", "what can you do?", "actually my name is {first} {last2}", "hello?",
                                "my PIN is {pin}", "I was born on {birth}", "{pet}!", "no", "yes"],
    ("ticket_submission", "offline"): ["what is this about?", "thanks", "nothing else", "actually it was {month}",
                                       "my email is {first}.{last}@example.edu", "no", "correct"],
    ("bank_fraud", "formal"): ['main.full_name = "{first} {last2}"', 'answer("branch hours")', "",
                               'second_authentication.date_of_birth = "{birth}"', 'main.full_name = "NA"',
                               "bad statement (", 'exitws(nobody)'],
}
KINDS = list(CORE)


def person(index: int) -> tuple[str, str]:
    """A first and last name no other session (of the first 120) has."""
    return FIRST[index % len(FIRST)], LAST[(index // len(FIRST)) % len(LAST)]


def script(index: int) -> tuple[tuple[str, str], list[str]]:
    """Session `index`'s (sample, parser) and turns; its values are its own (seeded by the index)."""
    rng = random.Random(index)
    values = {
        "first": person(index)[0], "last": person(index)[1], "last2": rng.choice(LAST) + "-Lee",
        "account": str(10_000_000 + index * 7919), "pin": f"{(index * 37) % 10_000:04d}",
        "birth": f"March {1 + index % 28}, {1950 + index}", "pet": f"Rex{index}", "count": 2 + index % 5,
        "shop": f"Shop {index}", "amount": 100 + index, "month": rng.choice(["May", "June", "July"]),
        "year": 2020 + index % 5, "subject": rng.choice(["psychology", "biology", "history"]),
    }
    kind = KINDS[index % len(KINDS)]
    turns = list(CORE[kind])
    while len(turns) < TURNS:
        turns.insert(rng.randint(1, len(turns)), rng.choice(FILLERS[kind]))
    return kind, [t.format(**values) for t in turns]


@functools.cache
def shared_agent(sample: str) -> Agent:
    return Agent.load(SAMPLES_DIR / sample)


def _record(result: Any) -> list[Any]:
    return [result.acts, result.response, result.ok]


def play(index: int, agent: Agent | None = None) -> dict[str, Any]:
    """Run session `index` to the end; what each turn said and did, and the final state."""
    (sample, parser), turns = script(index)
    session = (agent or shared_agent(sample)).new_session(parser=parser, today=TODAY)
    out = [_record(session.turn(text)) for text in turns]
    return json.loads(json.dumps({"session": index, "turns": out, "state": session.state}))


def play_alone(index: int) -> dict[str, Any]:
    """The reference: the conversation on an agent loaded for it alone."""
    (sample, _), _ = script(index)
    return play(index, Agent.load(SAMPLES_DIR / sample))


_RUNS: dict[str, list[dict[str, Any]]] = {}


def _process_runs() -> dict[str, list[dict[str, Any]]]:
    """One pool of spawned workers plays every conversation alone and with a worker-wide shared agent."""
    if not _RUNS:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
            alone = pool.map(play_alone, range(SESSIONS), chunksize=5)
            shared = pool.map(play, range(SESSIONS), chunksize=5)
            _RUNS["solo"], _RUNS["processes"] = list(alone), list(shared)
    return _RUNS


def solo() -> list[dict[str, Any]]:
    return _process_runs()["solo"]


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def _own_values(index: int) -> set[str]:
    first, last = person(index)
    return {f"{first} {last}", str(10_000_000 + index * 7919)}


def test_scripts_are_distinct_and_do_real_work() -> None:
    runs = solo()
    assert len({person(i) for i in range(SESSIONS)}) == SESSIONS
    assert len({json.dumps(script(i)[1]) for i in range(SESSIONS)}) == SESSIONS
    assert all(len(r["turns"]) == TURNS for r in runs)
    acts = [a["act"] for r in runs for turn in r["turns"] for a in turn[0]]
    assert acts.count("ask") > SESSIONS * 5 and acts.count("report") >= SESSIONS // 3
    held = [_strings(r["state"]["records"]) for r in runs]
    assert sum(bool(held[i] & _own_values(i)) for i in range(SESSIONS)) > SESSIONS // 2  # real, personal work
    for i in range(SESSIONS):
        others = set().union(*(_own_values(j) for j in range(SESSIONS) if j != i))
        assert not held[i] & others, f"session {i} holds another session's values"


def test_threads_sharing_one_agent_do_not_cross_talk() -> None:
    with ThreadPoolExecutor(max_workers=8) as pool:
        runs = list(pool.map(play, range(SESSIONS)))
    assert runs == solo()


def test_interleaved_turns_do_not_cross_talk() -> None:
    sessions, outs = [], []
    for i in range(INTERLEAVED):
        (sample, parser), turns = script(i)
        sessions.append((shared_agent(sample).new_session(parser=parser, today=TODAY), turns))
        outs.append([])
    for k in range(TURNS):
        for (session, turns), out in zip(sessions, outs):
            out.append(_record(session.turn(turns[k])))
    runs = [json.loads(json.dumps({"session": i, "turns": outs[i], "state": sessions[i][0].state}))
            for i in range(INTERLEAVED)]
    assert runs == solo()[:INTERLEAVED]


def test_processes_do_not_cross_talk() -> None:
    assert _process_runs()["processes"] == solo()
