"""Drawing a spec graph with pyvis, fully offline, readable at 30 worksheets / 300 fields.

`render_pyvis(G)` returns one self-contained HTML page (vis-network inlined with
`cdn_resources="in_line"`, pyvis's CDN bootstrap links stripped) for
`streamlit.components.v1.html`. Layout choices: a force layout that is
stabilised once and then frozen (physics off, so the picture stops moving and
dragging a node moves only that node), or a left-to-right hierarchy. Clicking a
node shows its attributes in a panel inside the frame (a components.html frame
cannot send the click back to Python; the page offers a node picker for that).

Labels, tooltips and the panel are set as text, never as HTML, so names and
descriptions from a spec cannot inject markup.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

import networkx as nx
from pyvis.network import Network

__all__ = ["EDGE_STYLES", "NODE_STYLES", "legend", "render_pyvis"]

NODE_STYLES: dict[str, dict[str, Any]] = {
    "worksheet": {"shape": "box", "color": {"background": "#dbeafe", "border": "#1d4ed8"}, "font": {"size": 16}},
    "field": {"shape": "dot", "size": 9, "color": {"background": "#e5e7eb", "border": "#6b7280"},
              "font": {"size": 12, "color": "#374151"}},
    "kb": {"shape": "database", "color": {"background": "#dcfce7", "border": "#15803d"}, "font": {"size": 15}},
    "type": {"shape": "hexagon", "size": 18, "color": {"background": "#fef3c7", "border": "#b45309"},
             "font": {"size": 15}},
    "api": {"shape": "triangle", "size": 14, "color": {"background": "#f3e8ff", "border": "#7e22ce"},
            "font": {"size": 13}},
}
EDGE_STYLES: dict[str, dict[str, Any]] = {
    "has_field": {"color": "#cbd5e1", "width": 1, "arrows": ""},
    "nests": {"color": "#1d4ed8", "width": 2, "label": "nests"},
    "reads": {"color": "#0891b2", "width": 1.5, "dashes": True, "label": "reads"},
    "activates": {"color": "#ea580c", "width": 2, "dashes": [8, 4], "label": "activates"},
    "proposes": {"color": "#be185d", "width": 2, "label": "proposes"},
    "kb_column": {"color": "#15803d", "width": 2, "dashes": [2, 4], "label": "kb columns"},
    "calls": {"color": "#7e22ce", "width": 1.5, "label": "calls"},
}
PROBLEM_COLORS = {"error": "#dc2626", "warning": "#f59e0b"}
_CDN = re.compile(r"<(link|script)[^>]*https://cdn\.jsdelivr\.net[^>]*>(\s*</script>)?", re.S)
_EMPTY_HEADING = re.compile(r"<center>\s*<h1>\s*</h1>\s*</center>", re.S)


def legend() -> list[tuple[str, str, str]]:
    """(kind, shape, colour) for the page's legend."""
    return [(k, s["shape"], s["color"]["border"]) for k, s in NODE_STYLES.items()]


def _tooltip(node: str, data: dict[str, Any]) -> str:
    lines = [f"{data.get('kind', '')}: {data.get('label', node)}"]
    for key in ("type", "predicate", "api", "description"):
        if data.get(key):
            lines.append(f"{key}: {str(data[key])[:160]}")
    lines += [str(p)[:200] for p in data.get("problems", [])[:5]]
    return "\n".join(lines)


def _panel_attrs(data: dict[str, Any]) -> dict[str, str]:
    out = {}
    for key, value in data.items():
        if key in ("label",) or value in ("", None, [], False) and key not in ("required",):
            continue
        out[key] = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return out


def _options(layout: str, n_nodes: int) -> dict[str, Any]:
    options: dict[str, Any] = {
        "interaction": {"hover": True, "navigationButtons": True, "keyboard": False, "tooltipDelay": 150,
                        "hideEdgesOnDrag": n_nodes > 150},
        "edges": {"smooth": {"type": "continuous"}, "font": {"size": 10, "align": "middle", "color": "#475569"},
                  "arrows": {"to": {"enabled": True, "scaleFactor": 0.6}}},
        "nodes": {"borderWidth": 1.5},
    }
    if layout == "hierarchical":  # worksheets as clusters: positions are fixed (cluster_positions)
        options["physics"] = {"enabled": False}
        options["edges"]["smooth"] = {"type": "curvedCW", "roundness": 0.18}
    else:
        options["layout"] = {"improvedLayout": n_nodes <= 150, "randomSeed": 7}
        options["physics"] = {
            "enabled": True, "solver": "forceAtlas2Based",
            "forceAtlas2Based": {"gravitationalConstant": -60, "springLength": 90, "springConstant": 0.06,
                                 "avoidOverlap": 0.4},
            "stabilization": {"enabled": True, "iterations": 400 if n_nodes > 150 else 250, "fit": True},
        }
    return options


def render_pyvis(g: nx.MultiDiGraph, *, highlight: Iterable[str] | str | None = None,
                 node_styles: dict[str, dict[str, Any]] | None = None, height: int = 680,
                 layout: str = "force", show_edge_labels: bool = True) -> str:
    """A self-contained HTML page drawing `g` (see module docstring).

    `highlight`: nodes to select and zoom to. `node_styles`: per-node vis.js options
    (colour, borderWidth, shape, ...) merged over the kind's style, e.g. a live
    dialogue state drawn by the playground.
    """
    focus = [highlight] if isinstance(highlight, str) else list(highlight or [])
    focus = [n for n in focus if n in g]
    net = Network(height=f"{height}px", width="100%", directed=True, cdn_resources="in_line",
                  bgcolor="#ffffff")
    for node, data in g.nodes(data=True):
        kind = data.get("kind", "field")
        style = json.loads(json.dumps(NODE_STYLES.get(kind, NODE_STYLES["field"])))
        severity = data.get("severity")
        if severity in PROBLEM_COLORS:
            style["color"]["border"] = PROBLEM_COLORS[severity]
            style["borderWidth"] = 4
            style["shapeProperties"] = {"borderDashes": [6, 3]} if severity == "warning" else {}
        if node_styles and node in node_styles:
            style = _merge(style, node_styles[node])
        if kind == "field":
            level = 2
        elif kind in ("kb", "api"):
            level = 3
        else:
            level = 0 if kind == "worksheet" else 1
        net.add_node(node, label=str(data.get("label", node)), title=_tooltip(node, data),
                     kind=kind, attrs=_panel_attrs(data), level=level, **style)
    for u, v, data in g.edges(data=True):
        kind = data.get("kind", "")
        style = dict(EDGE_STYLES.get(kind, {}))
        if not show_edge_labels:
            style.pop("label", None)
        arrows = style.pop("arrows", None)
        extra = {"arrows": arrows} if arrows is not None else {}
        title = kind + (f": {', '.join(data['columns'])}" if data.get("columns") else "")
        if data.get("predicate"):  # a predicate edge says which condition it is
            title = f"{kind} when {data['predicate']}"
            if "label" in style:
                style["label"] = _cut(data["predicate"], 42)
        if layout == "hierarchical" and kind == "has_field":
            style["hidden"] = True  # the cluster itself shows which fields belong to a worksheet
        net.add_edge(u, v, title=title, kind=kind, **style, **extra)
    positions = cluster_positions(g) if layout == "hierarchical" else seeded_positions(g)
    for node in net.nodes:
        node.pop("level", None)
        if node["id"] in positions:
            node["x"], node["y"] = positions[node["id"]]
    net.set_options(json.dumps(_options(layout, g.number_of_nodes())))
    html = net.generate_html(notebook=False)
    html = _CDN.sub("", html)
    html = _EMPTY_HEADING.sub("", html)
    return html.replace("</body>", _script(focus) + "\n</body>", 1)


def _cut(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def seeded_positions(g: nx.MultiDiGraph, seed: int = 7) -> dict[str, tuple[float, float]]:
    """Start positions from a seeded spring layout: the same spec is drawn the same way on every visit."""
    if not g.number_of_nodes():
        return {}
    simple = nx.Graph(g.to_undirected()) if g.is_multigraph() else g.to_undirected()
    pos = nx.spring_layout(simple, seed=seed, iterations=60, scale=60.0 * max(1, g.number_of_nodes()) ** 0.5)
    return {n: (round(float(x), 1), round(float(y), 1)) for n, (x, y) in pos.items()}


CLUSTER_WIDTH, FIELD_STEP, MAX_COLUMN_FIELDS = 250, 46, 14


def cluster_positions(g: nx.MultiDiGraph) -> dict[str, tuple[float, float]]:
    """Worksheets as clusters: each worksheet heads a column with its fields below it; columns run left to
    right with the start worksheets first and what they nest after; an API sits above its caller."""
    kinds = nx.get_node_attributes(g, "kind")
    heads = [n for n in g if kinds.get(n) in ("worksheet", "kb", "type")]
    nests = nx.DiGraph()
    nests.add_nodes_from(heads)
    for u, v, d in g.edges(data=True):
        if d.get("kind") == "nests":
            owner = g.nodes[u].get("worksheet")
            src = next((h for h in heads if g.nodes[h].get("worksheet") == owner), u)
            if src in nests and v in nests and src != v:
                nests.add_edge(src, v)
    depth: dict[str, int] = {}
    for h in heads:  # longest nesting path from a root (cycles are lint errors; they get depth 0)
        try:
            depth[h] = max((len(p) - 1 for r in heads if nests.in_degree(r) == 0
                            for p in nx.all_simple_paths(nests, r, h, cutoff=6)), default=0)
        except nx.NetworkXError:
            depth[h] = 0
    order = sorted(heads, key=lambda h: (depth[h], ["worksheet", "type", "kb"].index(kinds[h]), heads.index(h)))
    pos: dict[str, tuple[float, float]] = {}
    x = 0.0
    for h in order:
        pos[h] = (x, 0.0)
        fields = [v for _, v, d in g.out_edges(h, data=True) if d.get("kind") == "has_field"]
        for i, f in enumerate(fields):
            col, row = divmod(i, MAX_COLUMN_FIELDS)
            pos[f] = (x + col * (CLUSTER_WIDTH * 0.55), FIELD_STEP * (row + 1.4))
        x += CLUSTER_WIDTH * (1 + 0.55 * ((len(fields) - 1) // MAX_COLUMN_FIELDS if fields else 0))
    others = [n for n in g if n not in pos]  # APIs: above the worksheet that calls them
    taken: dict[float, int] = {}
    for i, n in enumerate(others):
        callers = [u for u, _, d in g.in_edges(n, data=True) if d.get("kind") == "calls" and u in pos]
        x_at = pos[callers[0]][0] if callers else i * CLUSTER_WIDTH * 0.7
        taken[x_at] = taken.get(x_at, 0) + 1
        pos[n] = (x_at + (taken[x_at] - 1) * 90.0, -110.0)
    return pos


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in extra.items():
        out[key] = _merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def _js_json(value: Any) -> str:
    """JSON safe inside a <script> element."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _script(focus: list[str]) -> str:
    """Freeze the layout after stabilisation; a click shows the node's attributes; focus nodes."""
    return """
<style>
  body { margin: 0; font-family: system-ui, sans-serif; }
  #mynetwork { border: 1px solid #e2e8f0 !important; }
  #genie-panel { position: absolute; bottom: 40px; right: 8px; max-width: 320px; max-height: 55%;
    overflow: auto; background: rgba(255,255,255,0.96); border: 1px solid #cbd5e1; border-radius: 6px;
    padding: 8px 10px; font-size: 12px; display: none; box-shadow: 0 2px 6px rgba(0,0,0,.12); }
  #genie-panel h4 { margin: 0 0 6px 0; font-size: 14px; }
  #genie-panel dt { font-weight: 600; color: #334155; }
  #genie-panel dd { margin: 0 0 4px 8px; white-space: pre-wrap; word-break: break-word; }
  #genie-status { position: absolute; bottom: 6px; left: 8px; font-size: 11px; color: #64748b; }
</style>
<div id="genie-panel" data-testid="graph-node-panel"></div>
<div id="genie-status"></div>
<script>
(function () {
  var FOCUS = __FOCUS__;
  var panel = document.getElementById('genie-panel');
  var status = document.getElementById('genie-status');
  window.genieNetwork = network;
  window.genieNodes = nodes;
  function show(id) {
    var n = nodes.get(id);
    if (!n) { panel.style.display = 'none'; return; }
    panel.textContent = '';
    var h = document.createElement('h4');
    h.textContent = n.label + ' (' + n.kind + ')';
    panel.appendChild(h);
    var dl = document.createElement('dl');
    var attrs = n.attrs || {};
    Object.keys(attrs).forEach(function (k) {
      var dt = document.createElement('dt'); dt.textContent = k;
      var dd = document.createElement('dd'); dd.textContent = attrs[k];
      dl.appendChild(dt); dl.appendChild(dd);
    });
    panel.appendChild(dl);
    panel.style.display = 'block';
    panel.setAttribute('data-node', id);
  }
  window.genieShow = show;
  network.on('click', function (params) {
    if (params.nodes.length) { show(params.nodes[0]); } else { panel.style.display = 'none'; }
  });
  var done = false;
  function ready() {
    if (done) { return; }
    done = true;
    network.setOptions({ physics: { enabled: false } });
    document.body.setAttribute('data-graph-ready', '1');
    status.textContent = nodes.length + ' nodes, ' + edges.length + ' edges';
    if (FOCUS.length) {
      network.selectNodes(FOCUS);
      if (FOCUS.length === 1) {
        network.focus(FOCUS[0], { scale: 1.1, animation: false });
      } else { network.fit({ nodes: FOCUS, animation: false }); }
    }
  }
  var physicsOn = network.physics && network.physics.physicsEnabled;
  // the layout may finish before this handler is attached (its event then never comes, and the drawing was never
  // marked ready: a browser test failed on a loaded machine now and then), so ready() also runs after 4 s
  if (physicsOn) { network.once('stabilizationIterationsDone', ready); setTimeout(ready, 4000); }
  else { setTimeout(ready, 0); }
})();
</script>""".replace("__FOCUS__", _js_json(focus))
