"""Fuzzing the spec loaders, the linter and the start of a session with mutated specs.

The sample specs (canonical JSON) and the paper-layout sheets (CSV) are mutated:
keys deleted, values swapped for other JSON types, predicates and actions garbled,
names replaced by unicode or huge strings, rows and cells moved, dropped or
duplicated. Whatever comes in, loading either raises a clear `GenieError` or gives a
`Spec` that lints without raising, writes back losslessly in both formats, and
runs a first turn soundly. Loading never changes the file it reads.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core_engine import Agent, GenieError, Spec
from core_engine.lint import lint
from core_engine.loaders import dumps_json, dumps_paper_csv, loads_spec
from core_engine.loaders.canonical import loads_json
from core_engine.loaders.paper_csv import loads_paper_csv
from tests.fuzz_profile import fuzz
from tests.robustness import ROOT, SAMPLES, SAMPLES_DIR, assert_clear_error, assert_turn_sound, file_digest

JSON_SPECS = {name: json.loads((SAMPLES_DIR / name / "spec.json").read_text()) for name in SAMPLES}
JSON_SPECS["restaurant_test"] = json.loads((ROOT / "tests/data/specs/restaurant.json").read_text())
CSV_SPECS = {p.stem: p.read_text() for p in (ROOT / "tests/data/specs").glob("*.csv")}
CSV_SPECS.update({f"{n}_written": dumps_paper_csv(Spec.model_validate(d)) for n, d in JSON_SPECS.items()})

HOSTILE_TEXT = [
    "__import__('os').system('echo pwned')", "open('/etc/passwd').read()", "self.__class__.__bases__",
    "'; DROP TABLE restaurants; --", "lambda: 1", "1/0", "while True: pass", "{{ 7*7 }}", "${jndi:ldap://x}",
    "\x00", "\ud7ff\ue000\U0010ffff", "é\u0301ñ", "\u202eevil", "a\r\nb", '"', "'", ",", "\t", "List[List[",
    "Enum", "confirm", "Main", "self", "NA", "True", "None", "", " ", "\n\n",
]
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=30), st.sampled_from(HOSTILE_TEXT),
)
JSON_VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.text(max_size=10), inner, max_size=3), max_leaves=8)
GARBLE = st.one_of(
    st.sampled_from(HOSTILE_TEXT),
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=40),
    st.builds(lambda c, n: c * n, st.sampled_from("x(é[\"\\"), st.integers(1_000, 120_000)),
)


def _nodes(tree: Any, path: tuple = ()) -> list[tuple]:
    """Every (path) to a value inside `tree`, the root excluded."""
    out = []
    if isinstance(tree, dict):
        for k, v in tree.items():
            out.append(path + (k,))
            out += _nodes(v, path + (k,))
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            out.append(path + (i,))
            out += _nodes(v, path + (i,))
    return out


def _parent(tree: Any, path: tuple) -> Any:
    for key in path[:-1]:
        tree = tree[key]
    return tree


@st.composite
def mutated_spec(draw: st.DrawFn) -> dict[str, Any]:
    data = copy.deepcopy(JSON_SPECS[draw(st.sampled_from(sorted(JSON_SPECS)))])
    for _ in range(draw(st.integers(1, 5))):
        nodes = _nodes(data)
        if not nodes:
            break
        path = draw(st.sampled_from(nodes))
        parent, key = _parent(data, path), path[-1]
        op = draw(st.sampled_from(["delete", "retype", "garble", "append", "duplicate", "rename"]))
        value = parent[key]
        if op == "delete":
            del parent[key]
        elif op == "retype":
            parent[key] = draw(JSON_VALUES)
        elif op == "garble":
            text = draw(GARBLE)
            if isinstance(value, str) and draw(st.booleans()):
                cut = draw(st.integers(0, len(value)))
                parent[key] = value[:cut] + text + value[cut:]
            else:
                parent[key] = text
        elif op == "append" and isinstance(value, str):
            parent[key] = value + draw(st.sampled_from(HOSTILE_TEXT))
        elif op == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(value))
        elif op == "rename" and isinstance(parent, dict):
            parent[draw(st.text(max_size=12))] = parent.pop(key)
    return data


@st.composite
def mutated_sheet(draw: st.DrawFn) -> str:
    rows = list(csv.reader(io.StringIO(CSV_SPECS[draw(st.sampled_from(sorted(CSV_SPECS)))])))
    for _ in range(draw(st.integers(1, 5))):
        if not rows:
            break
        r = draw(st.integers(0, len(rows) - 1))
        op = draw(st.sampled_from(["cell", "cell", "delete_row", "duplicate_row", "swap_rows", "drop_column",
                                   "insert_row", "truncate_row"]))
        if op == "cell" and rows[r]:
            c = draw(st.integers(0, len(rows[r]) - 1))
            rows[r][c] = draw(st.one_of(GARBLE, st.sampled_from(["TRUE", "x", "no", "int", "List[str]", "kb",
                                                                  "type", "spec", "api", "{}", "[]", "{"])))
        elif op == "delete_row":
            del rows[r]
        elif op == "duplicate_row":
            rows.insert(r, list(rows[r]))
        elif op == "swap_rows":
            s = draw(st.integers(0, len(rows) - 1))
            rows[r], rows[s] = rows[s], rows[r]
        elif op == "drop_column" and rows[0]:
            c = draw(st.integers(0, len(rows[0]) - 1))
            rows = [row[:c] + row[c + 1:] for row in rows]
        elif op == "insert_row":
            rows.insert(r, draw(st.lists(GARBLE, max_size=16)))
        elif op == "truncate_row":
            rows[r] = rows[r][: draw(st.integers(0, len(rows[r])))]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def sheet_normalised(spec: Spec) -> Spec:
    """What the sheet layout keeps: names, types, kinds and enum values are stripped (paper_csv.py)."""
    data = spec.model_dump(mode="json")
    for ws in data["worksheets"]:
        ws["name"] = ws["name"].strip()
        ws["api"] = (ws["api"] or "").strip() or None
        for f in ws["fields"]:
            f["name"], f["type"] = f["name"].strip(), f["type"].strip()
            f["enum_values"] = [{**ev, "value": ev["value"].strip()} for ev in f["enum_values"]
                                if ev["value"].strip()]  # a blank enum value row is a blank row
    return Spec.model_validate(data)


def check_spec_text(text: str, source: str) -> Spec | None:
    """Load `text`: a clear error, or a spec that lints, round-trips and runs a first turn soundly."""
    try:
        spec = loads_spec(text, source=source)
    except GenieError as exc:
        assert_clear_error(exc)
        return None
    diags = lint(spec)
    for d in diags:
        assert d.severity in ("error", "warning") and d.message
        json.dumps(d.to_dict())
    assert loads_json(dumps_json(spec)) == spec, "canonical JSON does not round-trip"
    try:
        again = loads_paper_csv(dumps_paper_csv(spec))
    except GenieError as exc:  # a spec the sheet layout cannot hold is refused on export or import
        assert_clear_error(exc)
    else:
        assert again == sheet_normalised(spec), "paper CSV does not round-trip"
    session = Agent(spec=spec).new_session(parser="formal")
    result = session.turn("")
    assert_turn_sound(result)
    return spec


@fuzz(60)
@given(mutated_spec())
def test_mutated_json_specs_load_or_fail_clearly(data: dict[str, Any]) -> None:
    check_spec_text(json.dumps(data, ensure_ascii=False), "fuzz.json")


@fuzz(60)
@given(mutated_sheet())
def test_mutated_csv_sheets_load_or_fail_clearly(text: str) -> None:
    check_spec_text(text, "fuzz.csv")


@fuzz(40)
@given(st.one_of(st.text(max_size=300), st.binary(max_size=300).map(lambda b: b.decode("latin-1"))),
       st.sampled_from(["fuzz.json", "fuzz.csv", "<string>"]))
def test_arbitrary_text_loads_or_fails_clearly(text: str, source: str) -> None:
    check_spec_text(text, source)


@fuzz(25)
@given(mutated_spec(), st.booleans())
def test_loading_a_project_never_changes_its_files(data: dict[str, Any], as_csv: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        name = "spec.csv" if as_csv else "spec.json"
        try:
            text = dumps_paper_csv(Spec.model_validate(data)) if as_csv else json.dumps(data)
        except Exception:  # noqa: BLE001 - an invalid spec has no CSV form; write its JSON as the sheet
            text = json.dumps(data)
        (folder / name).write_text(text, encoding="utf-8")
        before = {p.name: file_digest(p) for p in folder.iterdir()}
        try:
            Agent.load(folder).new_session(parser="offline").turn("hello")
        except GenieError as exc:
            assert_clear_error(exc)
        assert {p.name: file_digest(p) for p in folder.iterdir()} == before


@pytest.mark.parametrize("name", sorted(JSON_SPECS))
def test_unmutated_samples_are_clean_and_round_trip(name: str) -> None:
    """The seeds of the fuzzing are valid: a mutation is what makes a spec bad."""
    spec = check_spec_text(json.dumps(JSON_SPECS[name]), f"{name}.json")
    assert spec is not None and not [d for d in lint(spec) if d.severity == "error"]
