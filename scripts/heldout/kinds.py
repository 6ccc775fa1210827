"""Group the agents' gold-context failures (the output of `scores.py fails`) by kind: a value missing, wrong or extra,
by the type of its field (str, enum, int, bool, date, ...), and the task, KB question and exit statements.

    python scripts/heldout/kinds.py TAG "59 60 ..." [-v]     # -v: a few turns of each of the largest kinds

A KB search stored in a field (`answer("...")`) counts as wrong when its words differ, though `genie eval` scores
searches by where they go, not their words: read those kinds by hand.
"""
import ast
import collections
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]



def spec_of(setname, agent):
    n = setname[1:]
    if agent.startswith("samples/"):
        p = ROOT / "sample_projects" / agent.split("/")[1]
    else:
        b = Path(f"/work/blind/heldout{n}")
        p = (b if (b / agent).is_dir() else ROOT / "tests/heldout_sets" / f"heldout{n}") / agent
    return json.loads((p / "spec.json").read_text())

def types(spec):
    out = {}
    enums = {e["name"] for e in spec.get("enums", [])} if isinstance(spec.get("enums"), list) else set(spec.get("enums", {}) or {})
    for ws in spec["worksheets"]:
        for f in ws.get("fields", []):
            t = f.get("type", "str")
            base = t.split("[")[0] if not t.startswith("List") else "list"
            if t in enums or t.startswith("Enum") or f.get("enum") or "enum" in str(t).lower(): base = "enum"
            if any(t == w["name"] for w in spec["worksheets"]): base = "ws/" + next(w["kind"] for w in spec["worksheets"] if w["name"] == t)
            out[f["name"]] = base
    return out

def parse(stmts):
    out = {}
    for s in stmts:
        try:
            node = ast.parse(s).body[0]
        except SyntaxError:
            out[("?", s)] = s; continue
        if isinstance(node, ast.Assign):
            tgt = node.targets[0]; val = node.value
            if isinstance(tgt, ast.Attribute):
                out[(ast.unparse(tgt.value), tgt.attr)] = ast.unparse(val)
            elif isinstance(val, ast.Call):
                var = ast.unparse(tgt)
                out[(var, "__new__")] = ast.unparse(val.func)
                for kw in val.keywords:
                    out[(var, kw.arg)] = ast.unparse(kw.value)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            fn = ast.unparse(node.value.func)
            out[(fn, len([k for k in out if k[0] == fn]))] = ast.unparse(node.value)
    return out

def main():
    text = subprocess.run([sys.executable, str(ROOT / "scripts/heldout/scores.py"), "fails", *sys.argv[1:]], capture_output=True, text=True).stdout
    lines = text.splitlines()
    kinds = collections.Counter(); examples = collections.defaultdict(list)
    specs = {}
    for i, l in enumerate(lines):
        m = re.match(r"(h\d+) (.*?)/(.*?) #(\d+): (.*)$", l)
        if not m or not lines[i+1].strip().startswith("want"): continue
        setname, agent = m.group(1), m.group(2)
        if agent == "samples": agent = "samples/" + m.group(3).split("/")[0]
        key = (setname, agent)
        if key not in specs:
            try: specs[key] = types(spec_of(setname, agent))
            except Exception as e: specs[key] = {}
        ty = specs[key]
        want = parse(ast.literal_eval(lines[i+1].strip()[5:].strip()))
        got = parse(ast.literal_eval(lines[i+2].strip()[5:].strip()))
        diffs = set()
        for k in set(want) | set(got):
            if k[1] == "__new__": continue
            w, g = want.get(k), got.get(k)
            if w == g: continue
            if k[0] == "main" and k[1] == "task" or k[1] in ("user_task", "task"): cat = "task"
            elif k[0] in ("answer", "exitws", "?") or isinstance(k[1], int): cat = k[0]
            else:
                t = ty.get(k[1], "?")
                if w and w.startswith("answer"): t = "kbref"
                if w and re.match(r"^[a-z_0-9]+\.[a-z_]+", w or "") and not w.startswith("answer"): t = "ref"
                cat = t
            what = "missing" if g is None else "extra" if w is None else "wrong"
            if cat in ("answer", "exitws") and w and g: continue
            diffs.add(f"{what}:{cat}")
        for d in diffs or {"same-after-norm"}:
            kinds[d] += 1; examples[d].append(m.group(5)[:110])
    for k, c in kinds.most_common():
        print(f"{c:4} {k}")
    if "-v" in sys.argv:
        for k, c in kinds.most_common(12):
            print("==", k); [print("   ", e) for e in examples[k][:6]]

main()
