#!/usr/bin/env python3
"""networkx as an independent check of stategraph (ctest: networkx_check).

For every rule on 2x3 and 2x4 (sliding, rotate, rotate both ways, primeswap, adjswap), the
cardswap seed and a definition file, this exports the graph with `stategraph export`,
loads it with networkx, and compares what networkx computes with what `stategraph analyze`
wrote: the BFS distance distribution from the goal, the number of edges, the number and
sizes of the components (strongly connected for directed rules), and the exact diameter
of each component (every eccentricity for components up to 1,000 states; above, 64 sampled
eccentricities must not exceed it, and must equal it on a Cayley graph). Exit 0 when all agree, 1 with every disagreement listed, 77 (ctest's
SKIP) with a message when Python's networkx is missing (setup.sh installs python3-networkx).

Usage: networkx_check.py path/to/stategraph SOURCE_DIR
"""
import csv
import os
import random
import subprocess
import sys
import tempfile

try:
    import networkx as nx
except ImportError:
    print("SKIPPED: python3-networkx is not installed (apt-get install -y python3-networkx); "
          "the networkx cross-check did not run")
    sys.exit(77)

BIN, SRC = sys.argv[1], sys.argv[2]
failures = []


def run(*args):
    p = subprocess.run([BIN, *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"stategraph {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return p


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def load(folder, directed, fmt):
    """The exported graph as networkx reads it, with vertices.csv's rows by id."""
    vertices = {int(r["id"]): r for r in rows(os.path.join(folder, "vertices.csv"))}
    path = os.path.join(folder, "graph." + fmt)
    if fmt == "el":
        g = nx.read_edgelist(path, nodetype=int, create_using=nx.DiGraph if directed else nx.Graph)
    else:
        g = nx.read_graphml(path)
        g = nx.relabel_nodes(g, {n: int(n[1:]) for n in g.nodes})
    g.add_nodes_from(vertices)  # isolated vertices have no edge line
    return g, vertices


def diameter(g):
    """The exact diameter of a connected (strongly, if directed) graph: networkx's
    eccentricity of every state."""
    return 0 if g.number_of_nodes() == 1 else nx.diameter(g)


def check(name, args, directed, cayley_directed=False):
    with tempfile.TemporaryDirectory() as tmp:
        a, reached, whole, ml = (os.path.join(tmp, x) for x in ("a", "r", "w", "ml"))
        run("analyze", *args, "--out", a, "--no-plot", "--quiet", "--max-components", "1000000")
        summary = rows(os.path.join(a, "summary.csv"))[0]
        dist = {int(r["depth"]): int(r["states"]) for r in rows(os.path.join(a, "distribution.csv"))}
        comps = rows(os.path.join(a, "components.csv"))
        run("export", *args, "--out", reached, "--format", "el", "--quiet")
        run("export", *args, "--out", whole, "--format", "el", "--whole-space", "--quiet")
        g, vertices = load(reached, directed, "el")
        # 1. The BFS distance distribution from the goal (toward it: the reverse graph).
        goals = [i for i, r in vertices.items() if r["depth"] == "0"]
        h = g.reverse(copy=False) if directed else g
        depth = nx.multi_source_dijkstra_path_length(h, set(goals)) if len(goals) > 1 else \
            nx.single_source_shortest_path_length(h, goals[0])
        got = {}
        for d in depth.values():
            got[d] = got.get(d, 0) + 1
        if got != dist:
            failures.append(f"{name}: networkx distribution {sorted(got.items())[:5]}... != analyze's")
        if any(int(vertices[i]["depth"]) != d for i, d in depth.items()):
            failures.append(f"{name}: vertices.csv depths differ from networkx's")
        # 2. The edges among the reached states.
        if g.number_of_edges() != int(summary["edges"]):
            failures.append(f"{name}: networkx counts {g.number_of_edges()} edges, analyze {summary['edges']}")
        # 3. Components of the whole space (sliding: the ranked parity class).
        w, wv = load(whole, directed, "el")
        parts = list(nx.strongly_connected_components(w) if directed else nx.connected_components(w))
        sizes = sorted((len(p) for p in parts), reverse=True)
        theirs = sorted((int(c["size"]) for c in comps), reverse=True)
        if name.startswith("sliding"):  # analyze adds the other parity class's copies
            theirs = sorted(theirs[: len(theirs) // 2] if len(theirs) > 1 else theirs, reverse=True)
        if sizes != theirs:
            failures.append(f"{name}: networkx components {sizes[:6]} != analyze's {theirs[:6]}")
        # Each component's label in vertices.csv is one networkx component.
        for p in parts:
            labels = {wv[i]["component"] for i in p}
            if len(labels) != 1:
                failures.append(f"{name}: a networkx component spans labels {sorted(labels)[:4]}")
                break
        # 4. The exact diameter of each component (directed: exhaustive on 2x3; on 2x4 the
        # goal's eccentricity by vertex-transitivity, checked on 64 random sources).
        by_label = {}
        for p in parts:
            by_label[int(wv[next(iter(p))]["component"])] = p
        for index, c in enumerate(comps[: len(by_label)]):
            p = by_label.get(index)
            if p is None:
                continue
            sub = w.subgraph(p)
            want = None
            want = int(c["diameter"]) if c["diameter"] not in ("", "-1") else None
            if len(p) > 1000:
                # All eccentricities would take minutes in Python here (the 2x4 spaces hold
                # 20,160-40,320 states, most with an eccentricity near the diameter): 64
                # random states must not exceed the diameter, and for a Cayley graph
                # (vertex-transitive) each must equal it.
                nodes = sorted(p)
                random.seed(7)
                eccs = {max(nx.single_source_shortest_path_length(sub, s).values())
                        for s in random.sample(nodes, 64)}
                cayley = c["diameter_method"] == "cayley"
                if (cayley and eccs != {want}) or max(eccs) > want:
                    failures.append(f"{name}: component {index}: sampled eccentricities {sorted(eccs)}, "
                                    f"diameter {want} ({c['diameter_method']})")
                continue
            d = diameter(sub)
            if want is not None and d != want:
                failures.append(f"{name}: component {index}: networkx diameter {d}, analyze {want}")
        # 5. GraphML of the seed-size spaces carries the same graph.
        if len(vertices) <= 5000:
            run("export", *args, "--out", ml, "--format", "graphml,el", "--quiet")
            gm, _ = load(ml, directed, "graphml")
            if gm.number_of_edges() != g.number_of_edges() or gm.number_of_nodes() != g.number_of_nodes():
                failures.append(f"{name}: GraphML holds {gm.number_of_nodes()}/{gm.number_of_edges()}, "
                                f"the edge list {g.number_of_nodes()}/{g.number_of_edges()}")
    print(f"ok {name}" if not any(f.startswith(name + ":") for f in failures) else f"FAIL {name}", flush=True)


for rows_, cols in ((2, 3), (2, 4)):
    grid = ["--rows", str(rows_), "--cols", str(cols)]
    check(f"sliding {rows_}x{cols}", ["--rule", "sliding", *grid], False)
    check(f"rotate {rows_}x{cols}", ["--rule", "rotate", *grid], True, cayley_directed=True)
    check(f"rotate-both {rows_}x{cols}", ["--rule", "rotate", "--directions", "both", *grid], False)
    check(f"primeswap {rows_}x{cols}", ["--rule", "primeswap", *grid], False)
    check(f"adjswap {rows_}x{cols}", ["--rule", "adjswap", *grid], False)
check("cardswap 2x3", ["--rule", "cardswap"], False)
check("pancake-6", ["--rule", "file:" + os.path.join(SRC, "results/defs/pancake-6.tws")], False)

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
