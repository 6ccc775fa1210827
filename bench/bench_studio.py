"""Time to first render of every studio page, and of the Graph page for big specs, in headless Chromium.

Starts the studio (headless Streamlit on a free port, a temporary workspace with the
samples), opens each page by its url with the restaurant sample loaded and times
`goto` until the page's own content is drawn: the AgGrid rows on Worksheets and
Knowledge, the vis-network drawing laid out and frozen on Graph (the frame sets
`data-graph-ready`), the page's script run finished elsewhere. Each page is loaded
`repeat` times in fresh browser sessions; the first load is reported separately (cold
caches). The Graph page is also timed for the largest sample (by field count) and for
a generated spec of 30 worksheets and 300 fields, in its default worksheet-level view
and with every field drawn. The server-side share (lint + graph + pyvis HTML, grid
rows) is timed without a browser. Writes ``bench/results/studio.json``.

    python bench/bench_studio.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from e2e_tests.conftest import (CHROMIUM, CHROMIUM_ARGS, VIEWPORT, frame_with, start_studio,  # noqa: E402
                                stop_studio)

QUICK = {"repeat": 1}
SAMPLE = "restaurant_reservation"
BIG = "bench_big_30x300"
_GRAPH_READY = "() => document.body && document.body.getAttribute('data-graph-ready') === '1'"


def big_spec(n_ws: int = 30, fields: int = 300) -> Any:
    """A deterministic spec of `n_ws` task worksheets and `fields` fields in all, with nesting,
    predicates reading earlier fields, enums, confirmations and proposals in actions."""
    from core_engine.spec.model import Api, EnumValue, Field, Spec, Worksheet

    per = fields // n_ws
    worksheets = []
    for i in range(n_ws):
        fs = []
        for j in range(per):
            name = f"f{i}_{j}"
            if j == 0 and i + 1 < n_ws and i % 3 == 0:
                fs.append(Field(name=f"child_{i}", type=f"Step{i + 1}", description=f"nested step {i + 1}"))
                continue
            kind = ("str", "int", "Enum", "bool", "date")[j % 5]
            fs.append(Field(
                name=name, type=kind, description=f"field {j} of step {i}",
                enum_values=[EnumValue(value=v) for v in ("low", "medium", "high")] if kind == "Enum" else [],
                predicate=f"self.f{i}_{j - 1} != None" if j % 4 == 3 else "",
                confirm=j == per - 1,
                actions=f"propose(Step{(i + 5) % n_ws}, {{}})" if j == per - 2 and i % 7 == 0 else ""))
        worksheets.append(Worksheet(name=f"Step{i}", api=f"api_{i}" if i % 10 == 0 else None, fields=fs,
                                    predicate=f"f{i - 1}_1 == 'high'" if i % 3 == 2 else ""))
    apis = [Api(name=f"api_{i}") for i in range(0, n_ws, 10)]
    return Spec(name="big", worksheets=worksheets, apis=apis)


def _ms(seconds: float) -> float:
    return round(seconds * 1000.0, 1)


def _stats(values: list[float]) -> dict[str, float]:
    return {"first_ms": values[0], "median_ms": round(statistics.median(values), 1), "max_ms": max(values),
            "runs": len(values)}


def _ready_grid(page) -> None:
    frame = frame_with(page, "WS Name")
    frame.locator(".ag-row").first.wait_for()


def _ready_graph(page) -> None:
    """Until a graph frame is laid out (and is not one marked stale before a redraw)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for frame in page.frames[1:]:
            try:
                if frame.evaluate(_GRAPH_READY) and not frame.evaluate("() => !!window.genieStale"):
                    return
            except Exception:  # a frame being replaced during the rerun
                continue
        page.wait_for_timeout(20)
    raise TimeoutError("the graph was not drawn in 60 s")


def _ready_knowledge(page) -> None:
    frame = frame_with(page, "Page 1 of")
    frame.locator(".ag-row").first.wait_for()


PAGES: dict[str, tuple[str, Callable[[Any], None] | None]] = {
    "projects": ("projects", None),
    "worksheets": ("worksheets", _ready_grid),
    "graph": ("graph", _ready_graph),
    "knowledge": ("knowledge", _ready_knowledge),
    "playground": ("playground", None),
    "tests": ("tests", None),
    "settings": ("settings", None),
}


_IDLE = ("() => { const a = document.querySelector('[data-testid=stApp]');"
         " return !!a && a.getAttribute('data-test-script-state') === 'notRunning'"
         " && document.querySelector('h1') !== null; }")


def _load(browser, url: str, ready: Callable[[Any], None] | None, after: Callable[[Any], None] | None = None
          ) -> tuple[float, float]:
    """(shell, content) seconds: until the page script's first run finished with its title drawn, and
    until the page's own content (grid rows, laid-out graph) is on screen. No fixed sleeps."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        started = time.perf_counter()
        page.goto(url)
        page.wait_for_function(_IDLE, timeout=60_000, polling=20)
        shell = time.perf_counter() - started
        if ready is not None:
            ready(page)
        content = time.perf_counter() - started
        if after is not None:
            started = time.perf_counter()
            after(page)
            shell = content = time.perf_counter() - started
        return shell, content
    finally:
        context.close()


def _sidebar_tour(browser, url: str) -> dict[str, float]:
    """Seconds per page when moving through the sidebar in one session (warm browser, as users do)."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(60_000)
    out = {}
    try:
        page.goto(url)
        page.wait_for_function(_IDLE, timeout=60_000, polling=20)
        titles = {"projects": "Projects", "worksheets": "Worksheets", "graph": "Graph", "knowledge": "Knowledge",
                  "playground": "Playground", "tests": "Tests", "settings": "Settings"}
        for name in [*list(PAGES)[1:], "projects"]:
            for frame in page.frames[1:]:
                try:
                    frame.evaluate("() => { window.genieStale = true; }")
                except Exception:
                    continue
            started = time.perf_counter()
            page.get_by_test_id("stSidebarNav").get_by_role("link", name=titles[name]).click()
            page.wait_for_function(f"() => location.pathname.endsWith('/{PAGES[name][0]}')", polling=20)
            page.wait_for_function(_IDLE, timeout=60_000, polling=20)
            ready = PAGES[name][1]
            if ready is not None:
                ready(page)
            out[name] = time.perf_counter() - started
    finally:
        context.close()
    return out


def _show_fields(page) -> None:
    """Switch the big spec's graph from the worksheet-level view to every field (and wait for it)."""
    for frame in page.frames[1:]:
        try:
            frame.evaluate("() => { window.genieStale = true; }")
        except Exception:
            continue
    page.get_by_text("Worksheets only", exact=True).click()
    _ready_graph(page)


def server_side(spec: Any, repeat: int) -> dict[str, Any]:
    """Lint + graph + pyvis HTML and grid rows for one spec, without a browser."""
    from components.graph import model as graph_model
    from components.graph import drawing as graph_view
    from components.worksheets import grid_model
    from core_engine.lint import lint

    timings: dict[str, list[float]] = {"lint": [], "build_graph": [], "render_full": [], "render_collapsed": [],
                                       "grid_rows": []}
    html_kib = 0.0
    for _ in range(max(repeat, 3)):
        t = time.perf_counter(); diags = lint(spec); timings["lint"].append(_ms(time.perf_counter() - t))
        t = time.perf_counter(); g = graph_model.build_graph(spec, diags)
        timings["build_graph"].append(_ms(time.perf_counter() - t))
        t = time.perf_counter(); html = graph_view.render_pyvis(g)
        timings["render_full"].append(_ms(time.perf_counter() - t))
        html_kib = round(len(html) / 1024, 1)
        t = time.perf_counter(); graph_view.render_pyvis(graph_model.collapse_fields(g))
        timings["render_collapsed"].append(_ms(time.perf_counter() - t))
        t = time.perf_counter(); grid_model.spec_to_rows(spec, diags)
        timings["grid_rows"].append(_ms(time.perf_counter() - t))
    return {**{k: round(statistics.median(v), 1) for k, v in timings.items()}, "graph_html_kib": html_kib,
            "worksheets": len(spec.worksheets), "fields": sum(len(w.fields) for w in spec.worksheets)}


def run(repeat: int = 3) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    from storage import Workspace

    base = Path(tempfile.mkdtemp(prefix="genie-bench-studio-"))
    workspace = Workspace(base / "workspace")
    workspace.ensure_samples()
    sizes = {i.name: sum(len(w.fields) for w in workspace.open(i.name).spec().worksheets)
             for i in workspace.list()}
    largest = max(sizes, key=sizes.get)
    workspace.create(BIG, big_spec()).close()
    studio = start_studio(base / "workspace", base / "streamlit.log")
    result: dict[str, Any] = {"pages": {}, "graph": {}, "repeat": repeat, "sample": SAMPLE,
                              "largest_sample": {"name": largest, "fields": sizes[largest]}}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            for name, (path, ready) in PAGES.items():
                url = f"{studio.url}/{path}?project={SAMPLE}"
                runs = [_load(browser, url, ready) for _ in range(repeat)]
                result["pages"][name] = {**_stats([_ms(c) for _, c in runs]),
                                         "script_done_median_ms": round(statistics.median(_ms(s) for s, _ in runs), 1)}
            tours = [_sidebar_tour(browser, f"{studio.url}/projects?project={SAMPLE}") for _ in range(repeat)]
            result["pages_sidebar"] = {name: _stats([_ms(t[name]) for t in tours]) for name in tours[0]}
            for label, project, after in ((largest, largest, None), (f"{BIG} (worksheet view)", BIG, None),
                                          (f"{BIG} (all fields)", BIG, _show_fields)):
                url = f"{studio.url}/graph?project={project}"
                result["graph"][label] = _stats([_ms(_load(browser, url, _ready_graph, after)[1])
                                                 for _ in range(repeat)])
            browser.close()
    finally:
        stop_studio(studio)
    result["server_side_ms"] = {largest: server_side(workspace.open(largest).spec(), repeat),
                                BIG: server_side(big_spec(), repeat)}
    result["note"] = ("median_ms: from navigation to the page's content drawn (grid rows, laid-out graph; the "
                      "title for other pages), a fresh browser session each load, no fixed sleeps; "
                      "script_done: until the page script's first run finished; pages_sidebar: moving to the page with the "
                      "sidebar in one session (warm browser, how users move); 'all fields': the time after "
                      "switching the big graph from the worksheet view to every field")
    result["machine"] = {"python": platform.python_version(), "platform": platform.platform()}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    result = run(repeat=args.repeat)
    out = ROOT / "bench" / "results" / "studio.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({"pages": {k: v["median_ms"] for k, v in result["pages"].items()},
                      "pages_sidebar": {k: v["median_ms"] for k, v in result["pages_sidebar"].items()},
                      "graph": {k: v["median_ms"] for k, v in result["graph"].items()}}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
