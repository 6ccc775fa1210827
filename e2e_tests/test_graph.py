"""Graph page in a real browser: find a node, click it in the drawing, see lint problems highlighted."""

import time

from conftest import ensure_project, frame_with, goto, wait_idle

PROJECT = "e2e_graph"


def graph_frame(page, timeout_ms: float | None = None):
    frame = frame_with(page, "nodes,", **({"timeout_ms": timeout_ms} if timeout_ms else {}))  # laid out
    frame.wait_for_function("() => document.body.getAttribute('data-graph-ready') === '1'", timeout=timeout_ms)
    return frame


def _node_ids_once(page, redrawn, timeout_s: float = 45) -> set[str]:
    """The drawing's node ids once `redrawn(ids)` holds: a filter replaces the drawing's frame, and on a loaded
    machine the old frame can still be the one found right after the rerun, or go away while it is read (each
    look waits at most 5 s for a frame, so a detached one is given up soon; else the last ids seen)."""
    deadline = time.monotonic() + timeout_s
    seen: set[str] = set()
    while True:
        try:
            ids = set(graph_frame(page, timeout_ms=5_000).evaluate("() => window.genieNodes.getIds()"))
        except Exception:  # the old frame went away mid-read: look again
            ids = set()
        seen = ids or seen
        if redrawn(ids) and ids or time.monotonic() > deadline:
            return ids or seen
        page.wait_for_timeout(200)


def test_find_a_node_and_click_it(studio, page):
    ensure_project(studio, PROJECT, "ticket_submission")
    goto(page, studio, "graph", f"project={PROJECT}")
    frame = graph_frame(page)
    assert frame.evaluate("() => window.genieNodes.get('ws:ExternalTestCredits').label") == "ExternalTestCredits"

    picker = page.get_by_test_id("stSelectbox").filter(has_text="Find a node").first
    picker.click()
    page.keyboard.type("student_task (field")
    page.get_by_role("option", name="student_task (field in Main)").click()
    wait_idle(page)
    panel = page.get_by_test_id("stJson").first
    panel.wait_for()
    text = panel.inner_text()
    assert "activates -> TroubleShootStudentEnrollment" in text and "Enum" in text

    frame = graph_frame(page)  # redrawn, zoomed to the picked node
    assert frame.evaluate("() => window.genieNetwork.getSelectedNodes()") == ["f:Main.student_task"]
    # a real click on a node of the canvas shows its attributes inside the drawing
    x, y = frame.evaluate("""() => { const n = window.genieNetwork;
        const p = n.getPositions(['ws:LeaveOfAbsence'])['ws:LeaveOfAbsence'];
        n.moveTo({position: p, scale: 1.2, animation: false});
        const d = n.canvasToDOM(p); return [d.x, d.y]; }""")
    frame.locator("#mynetwork canvas").click(position={"x": x, "y": y})
    node_panel = frame.locator("#genie-panel")
    node_panel.wait_for(state="visible")
    assert node_panel.get_attribute("data-node") == "ws:LeaveOfAbsence"
    assert "LeaveOfAbsence (worksheet)" in node_panel.inner_text()


def test_lint_problems_are_highlighted(studio, page):
    ensure_project(studio, PROJECT, "ticket_submission")
    project = studio.open_workspace().open(PROJECT)
    spec = project.spec()
    spec.worksheet("Main").field("full_name").predicate = "self.no_such_field == 1"
    project.save_spec(spec, "break a predicate")
    goto(page, studio, "graph", f"project={PROJECT}")
    frame = graph_frame(page)
    border = frame.evaluate("() => window.genieNodes.get('f:Main.full_name').color.border")
    assert border == "#dc2626"
    assert frame.evaluate("() => window.genieNodes.get('f:Main.extra_details').color.border") != "#dc2626"
    page.get_by_text("1 node(s) with lint problems").wait_for()


def test_filters_by_worksheet_and_edge_kind(studio, page):
    ensure_project(studio, PROJECT, "ticket_submission")
    goto(page, studio, "graph", f"project={PROJECT}")
    graph_frame(page)
    box = page.get_by_test_id("stMultiSelect").filter(has_text="Worksheets").first
    box.click()
    page.get_by_role("option", name="LeaveOfAbsence", exact=True).click()
    page.keyboard.press("Escape")
    wait_idle(page)
    ids = _node_ids_once(page, lambda got: "ws:ChangeCourse" not in got)
    assert "ws:LeaveOfAbsence" in ids and "f:LeaveOfAbsence.form_status" in ids
    assert "ws:ChangeCourse" not in ids  # unrelated worksheet filtered out
    assert "ws:FormStatus" in ids  # what it nests stays
