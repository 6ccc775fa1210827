"""Widgets of the Graph page: filters, the drawing, and the attribute panel of a picked node.

The pyvis drawing lives in an `st.iframe` (successor of `components.html`), which cannot send clicks back
to Python; a click shows the node's attributes inside the frame, and the "Find a
node" picker shows them on the page too (and zooms the drawing to that node).
"""

from __future__ import annotations

import hashlib
from typing import Any

import networkx as nx
import streamlit as st

from components.safe_text import plain

from components.graph import model as gmod
from components.graph import drawing as graph_view
from components import session

BIG_SPEC_FIELDS = 120  # above this many fields the worksheet-level view is the default
HEIGHT = 680


def controls(g: nx.MultiDiGraph) -> dict[str, Any]:
    worksheets = sorted({d["worksheet"] for _, d in g.nodes(data=True) if d.get("worksheet")})
    fields = sum(d.get("kind") == "field" for _, d in g.nodes(data=True))
    c1, c2, c3, c4 = st.columns([2.8, 2.8, 1.2, 1.8])  # the toggles' labels fit at 1280 px
    chosen = c1.multiselect("Worksheets", worksheets, key="graph.worksheets",
                            placeholder="all worksheets (pick some to focus)")
    kinds = c2.multiselect("Edge kinds", list(gmod.EDGE_KINDS), default=list(gmod.EDGE_KINDS), key="graph.edges")
    layout = c3.radio("Layout", ["force", "hierarchical"], key="graph.layout", horizontal=False)
    collapse = c4.toggle("Worksheets only", value=fields > BIG_SPEC_FIELDS, key="graph.collapse",
                         help="Fold fields into their worksheet (edges are lifted); the default for big specs.")
    labels = c4.toggle("Edge labels", value=fields <= BIG_SPEC_FIELDS, key="graph.labels")
    return {"worksheets": chosen or None, "edge_kinds": kinds, "layout": layout, "collapse": collapse,
            "labels": labels}


def view_of(g: nx.MultiDiGraph, opts: dict[str, Any]) -> nx.MultiDiGraph:
    view = gmod.filter_graph(g, worksheets=opts["worksheets"], edge_kinds=opts["edge_kinds"])
    return gmod.collapse_fields(view) if opts["collapse"] else view


def node_picker(g: nx.MultiDiGraph) -> str | None:
    nodes = sorted(g.nodes, key=lambda n: (gmod.NODE_KINDS.index(g.nodes[n].get("kind", "field")),
                                           str(g.nodes[n].get("label", n)).lower()))
    labels = {n: _label(g, n) for n in nodes}
    return st.selectbox("Find a node", nodes, index=None, format_func=labels.get, key="graph.node",
                        placeholder="type a worksheet, field, table or API name")


def _label(g: nx.MultiDiGraph, n: str) -> str:
    d = g.nodes[n]
    where = f" in {d['worksheet']}" if d.get("kind") == "field" else ""
    flag = " ⚠" if d.get("problems") else ""
    return f"{d.get('label', n)} ({d.get('kind')}{where}){flag}"


def draw(view: nx.MultiDiGraph, opts: dict[str, Any], focus: str | None,
         node_styles: dict[str, dict[str, Any]] | None = None) -> None:
    html = _html(view, opts["layout"], opts["labels"], focus, node_styles)
    st.iframe(html, height=HEIGHT + 12)  # our own HTML; spec text in it is JSON-escaped data


def _html(view: nx.MultiDiGraph, layout: str, labels: bool, focus: str | None,
          node_styles: dict[str, dict[str, Any]] | None) -> str:
    key = hashlib.sha256(repr((sorted(view.nodes(data=True), key=lambda x: x[0]),
                               sorted(view.edges(data=True), key=lambda e: (e[0], e[1], e[2].get("kind", ""))),
                               layout, labels, focus, node_styles)).encode()).hexdigest()
    return _cached_html(key, view, layout, labels, focus, node_styles)


@st.cache_data(max_entries=16, show_spinner=False)
def _cached_html(key: str, _view: nx.MultiDiGraph, _layout: str, _labels: bool, _focus: str | None,
                 _node_styles: dict[str, dict[str, Any]] | None) -> str:
    """Rendered HTML by content key (arguments starting with _ are not hashed by Streamlit)."""
    return graph_view.render_pyvis(_view, highlight=_focus, node_styles=_node_styles, height=HEIGHT,
                                   layout=_layout, show_edge_labels=_labels)


def attributes(g: nx.MultiDiGraph, node: str | None) -> None:
    if node is None or node not in g:
        st.caption("Pick a node above, or click one in the drawing, to see its attributes.")
        return
    attrs = gmod.node_attributes(g, node)
    st.markdown(f"**{plain(attrs.get('label', node))}** · {plain(attrs.get('kind'))}")
    for problem in attrs.pop("problems", []):
        (st.error if problem.startswith("error") else st.warning)(plain(problem))
    st.json({k: v for k, v in attrs.items() if k not in ("label", "severity")}, expanded=True)


def problems(g: nx.MultiDiGraph) -> None:
    flagged = [(n, d) for n, d in g.nodes(data=True) if d.get("problems")]
    if not flagged:
        st.success("No lint problems in this spec.", icon=":material/check_circle:")
        return
    with st.expander(f"{len(flagged)} node(s) with lint problems (outlined red or orange)", icon=":material/error:"):
        for n, d in flagged:
            st.markdown(f"- **{plain(_label(g, n))}**: " + "; ".join(plain(p) for p in d["problems"]))


def legend() -> None:
    kinds = " · ".join(f"**{k}** ({shape})" for k, shape, _ in graph_view.legend())
    st.caption(f"Nodes: {kinds}. Edges: nests (blue), reads (teal, dashed), activates (orange, dashed), "
               "proposes (pink), kb columns (green, dotted), calls (purple). Drag to pan, scroll to zoom, "
               "click a node for its attributes.")


def selected_node() -> str | None:
    return session.widget_value("graph.node")
