"""The dependency graph (networkx) and its pyvis drawing (offline HTML)."""

import json
import re
from pathlib import Path

import pytest

from components.graph import model as gmod
from components.graph.drawing import render_pyvis
from core_engine.lint import lint
from core_engine.loaders import load_spec
from core_engine.spec.model import Field, Spec, Worksheet

SAMPLES = Path(__file__).resolve().parents[1] / "sample_projects"


def sample(name: str) -> Spec:
    return load_spec(SAMPLES / name / "spec.json")


def edges(g, kind):
    return {(u, v) for u, v, d in g.edges(data=True) if d["kind"] == kind}


def test_restaurant_has_every_node_and_edge_kind_it_should():
    g = gmod.build_graph(sample("restaurant_reservation"))
    kinds = {d["kind"] for _, d in g.nodes(data=True)}
    assert kinds == {"worksheet", "field", "kb", "type", "api"}
    assert g.nodes["ws:BookRestaurant"]["kind"] == "worksheet"
    assert g.nodes["kb:restaurants"]["kind"] == "kb" and g.nodes["type:Restaurant"]["kind"] == "type"
    assert ("ws:BookRestaurant", "f:BookRestaurant.date") in edges(g, "has_field")
    assert ("f:BookRestaurant.restaurant", "type:Restaurant") in edges(g, "nests")
    assert ("f:UserInfo.user_task", "ws:BookRestaurant") in edges(g, "activates")  # WS predicate
    assert ("type:Restaurant", "ws:BookRestaurant") in edges(g, "proposes")  # propose(...) in its actions
    assert ("ws:BookRestaurant", "api:book_restaurant") in edges(g, "calls")
    kb_edge = next(d for u, v, d in g.edges(data=True) if d["kind"] == "kb_column")
    assert "cuisines" in kb_edge["columns"] and "reviews" not in kb_edge["columns"]


def test_predicate_reads_resolve_self_nested_and_record_paths():
    g = gmod.build_graph(sample("course_enrollment"))
    assert ("f:CoursesToTake.course_3_details", "f:CoursesToTake.more_courses_3") in edges(g, "reads")
    g = gmod.build_graph(sample("bank_fraud"))
    reads = edges(g, "reads")
    assert ("f:Main.second_authentication_details", "f:FirstAuthentication.account_number") in reads
    assert ("f:FirstAuthentication.pin", "f:FirstAuthentication.account_number") in reads


def test_lint_problems_mark_their_nodes():
    spec = sample("restaurant_reservation")
    spec.worksheet("BookRestaurant").field("date").predicate = "self.no_such == 1"
    spec.worksheet("BookRestaurant").predicate = "user_taskk == 1"
    g = gmod.build_graph(spec, lint(spec))
    assert g.nodes["f:BookRestaurant.date"]["severity"] == "error"
    assert any("no_such" in p for p in g.nodes["f:BookRestaurant.date"]["problems"])
    assert g.nodes["ws:BookRestaurant"]["severity"] == "error"
    assert g.nodes["f:BookRestaurant.time"]["problems"] == []
    collapsed = gmod.collapse_fields(g)
    assert any(p.startswith("date:") for p in collapsed.nodes["ws:BookRestaurant"]["problems"])


def test_bad_code_does_not_break_the_graph():
    spec = Spec(worksheets=[Worksheet(name="Main", predicate="((", fields=[
        Field(name="a", predicate="self.b ==", actions="def ("), Field(name="b", type="Nope[")])])
    g = gmod.build_graph(spec, lint(spec))
    assert set(g.nodes) == {"ws:Main", "f:Main.a", "f:Main.b"}


def test_filters_keep_neighbours_and_chosen_edge_kinds():
    g = gmod.build_graph(sample("ticket_submission"))
    view = gmod.filter_graph(g, worksheets=["LeaveOfAbsence"])
    assert "f:LeaveOfAbsence.form_status" in view and "ws:FormStatus" in view  # nested worksheet kept
    assert "ws:ChangeCourse" not in view
    only = gmod.filter_graph(g, edge_kinds=["nests"])
    assert {d["kind"] for *_, d in only.edges(data=True)} == {"nests"}
    assert only.number_of_nodes() == g.number_of_nodes()


def big_spec(n_ws: int = 30, fields_per_ws: int = 10) -> Spec:
    worksheets = []
    for i in range(n_ws):
        fields = [Field(name=f"f{j}", type=("int" if j % 3 else "str"),
                        predicate=f"self.f{j - 1} != None" if j else "") for j in range(fields_per_ws)]
        if i + 1 < n_ws:
            fields.append(Field(name=f"child{i}", type=f"W{i + 1}"))
        worksheets.append(Worksheet(name=f"W{i}", fields=fields))
    return Spec(worksheets=worksheets)


def test_a_big_spec_collapses_to_worksheets():
    g = gmod.build_graph(big_spec())
    assert sum(d["kind"] == "field" for _, d in g.nodes(data=True)) == 329
    h = gmod.collapse_fields(g)
    assert h.number_of_nodes() == 30
    assert ("ws:W0", "ws:W1") in edges(h, "nests")  # lifted from the field child0
    assert not edges(h, "reads")  # reads inside one worksheet vanish at that level


def test_node_attributes_describe_edges():
    g = gmod.build_graph(sample("ticket_submission"))
    attrs = gmod.node_attributes(g, "f:Main.student_task")
    assert attrs["type"] == "Enum" and attrs["worksheet"] == "Main"
    assert "activates -> TroubleShootStudentEnrollment" in attrs["out"]
    assert "trouble_shoot_student_enrollment -> reads" in attrs["in"]


def _vis_data(html: str, what: str) -> list[dict]:
    match = re.search(rf"{what} = new vis\.DataSet\((\[.*?\])\);", html, re.S)
    assert match, what
    return json.loads(match.group(1))


def test_pyvis_html_is_offline_and_styles_nodes():
    spec = sample("restaurant_reservation")
    spec.worksheet("BookRestaurant").field("date").predicate = "self.no_such == 1"
    g = gmod.build_graph(spec, lint(spec))
    html = render_pyvis(g, highlight="ws:BookRestaurant", node_styles={"f:BookRestaurant.time": {
        "color": {"background": "#00ff00"}}})
    assert "cdn.jsdelivr.net" not in html and "cdnjs.cloudflare.com/ajax/libs/vis-network" not in html
    assert "vis-network" in html and len(html) > 100_000  # the library is inlined
    nodes = {n["id"]: n for n in _vis_data(html, "nodes")}
    assert nodes["ws:BookRestaurant"]["shape"] == "box" and nodes["kb:restaurants"]["shape"] == "database"
    assert nodes["f:BookRestaurant.date"]["color"]["border"] == "#dc2626"  # lint error
    assert nodes["f:BookRestaurant.time"]["color"] == {"background": "#00ff00", "border": "#6b7280"}
    assert 'var FOCUS = ["ws:BookRestaurant"]' in html
    assert len(_vis_data(html, "edges")) == g.number_of_edges()


def test_spec_text_cannot_inject_markup_into_the_drawing():
    spec = Spec(worksheets=[Worksheet(name="Main", description="</script><script>alert(1)</script>",
                                      fields=[Field(name="x", description="<img src=x onerror=alert(1)>")])])
    html = render_pyvis(gmod.build_graph(spec), highlight="ws:Main")
    assert "</script><script>alert(1)" not in html and "<img src=x" not in html


@pytest.mark.parametrize("layout", ["force", "hierarchical"])
def test_layouts_freeze_physics(layout):
    html = render_pyvis(gmod.build_graph(big_spec(5, 3)), layout=layout)
    options = json.loads(re.search(r"var options = (\{.*?\});\n", html, re.S).group(1))
    nodes = {n["id"]: n for n in _vis_data(html, "nodes")}
    if layout == "hierarchical":  # worksheets as clusters: each heads its own column, its fields below it
        assert not options["physics"]["enabled"]
        heads = [n for n in nodes.values() if n["kind"] == "worksheet"]
        assert len({n["x"] for n in heads}) == len(heads) and all(n["y"] == 0 for n in heads)
        for head in heads:
            fields = [n for n in nodes.values() if n["kind"] == "field" and n["id"].startswith(
                "f:" + head["label"] + ".")]
            assert fields and all(f["x"] == head["x"] and f["y"] > 0 for f in fields)
    else:
        assert options["physics"]["stabilization"]["enabled"]
    again = {n["id"]: n for n in _vis_data(render_pyvis(gmod.build_graph(big_spec(5, 3)), layout=layout), "nodes")}
    assert {k: (n["x"], n["y"]) for k, n in nodes.items()} == {k: (n["x"], n["y"]) for k, n in again.items()}
    assert "physics: { enabled: false }" in html  # frozen once laid out


def test_predicate_edges_are_labelled_with_the_predicate():
    html = render_pyvis(gmod.build_graph(sample("restaurant_reservation")))
    labels = [e.get("label") for e in _vis_data(html, "edges") if e["kind"] == "activates"]
    assert any("==" in (label or "") for label in labels)
