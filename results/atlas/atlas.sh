#!/usr/bin/env bash
# The 12-cell atlas: every rule on every grid up to 12 cells, one analyze folder each under
# results/atlas/<rule>-<R>x<C>/ (all its CSVs, no plots), and results/atlas/atlas.csv, one row per space.
#
#   bash results/atlas/atlas.sh [--small | --table | SPACE...] [BIN]    # BIN: ./build/stategraph by default
#
# SPACE (e.g. primeswap-2x6): only those spaces' folders, then the table. --table: only atlas.csv, from the
# folders there are.
# --small: the grids up to 10 cells only (2x2, 2x3, 2x4, 3x3, 2x5; about a minute on 2 cores), the rows of
# the larger grids kept from the atlas.csv already there. Without it, 2x6 and 3x4 too (hours: see
# results/atlas/README.md). primeswap 3x4 is not searched here: its row is read from results/primeswap-3x4/
# (hours of masked searches, `regenerate.sh --primeswap-3x4`). A transposed grid (3x2, 4x2, ...) gives the
# same graph with the cells renumbered, so only rows <= cols is listed. cardswap has a natural start on its
# 2x3 seed only. Timing columns differ from run to run; every other column is the same on any machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
small=0 table=0
bin=./build/stategraph
only=()
for a in "$@"; do
  case "$a" in
    --small) small=1 ;;
    --table) table=1 ;;
    -*) echo "atlas.sh: unknown flag $a" >&2; exit 2 ;;
    *-[0-9]x[0-9]) only+=("$a") ;;
    *) bin=$a ;;
  esac
done
((table)) || [ -x "$bin" ] || { echo "atlas.sh: no stategraph binary at $bin (bash setup.sh --build)" >&2; exit 2; }
grids=(2x2 2x3 2x4 3x3 2x5)
((small)) || grids+=(2x6 3x4)
((table)) && grids=()
dir=results/atlas
mkdir -p "$dir"
for grid in "${grids[@]}"; do
  rows=${grid%x*} cols=${grid#*x}
  for rule in sliding rotate rotate-both primeswap adjswap cardswap; do
    [[ $rule == cardswap && $grid != 2x3 ]] && continue
    [[ $rule == primeswap && $grid == 3x4 ]] && continue
    if ((${#only[@]})) && [[ " ${only[*]} " != *" $rule-$grid "* ]]; then continue; fi
    args=(--rule "$rule")
    [[ $rule == rotate-both ]] && args=(--rule rotate --directions both)
    "$bin" analyze "${args[@]}" --rows "$rows" --cols "$cols" --max-components 1000000 --threads 2 --no-plot \
      --quiet --out "$dir/$rule-$grid" >/dev/null
  done
done

# atlas.csv from the folders' summary.csv and run.csv (written whole: a temporary name, then renamed).
python3 - "$dir" <<'EOF'
import csv, os, sys
d = sys.argv[1]
order = {"sliding": 0, "rotate": 1, "rotate-both": 2, "primeswap": 3, "adjswap": 4, "cardswap": 5}
grids = ["2x2", "2x3", "2x4", "3x3", "2x5", "2x6", "3x4"]
cols = ["rule", "rows", "cols", "ranks", "reachable", "components", "largest_component", "goal_eccentricity",
        "antipodes", "diameter", "diameter_lower", "diameter_upper", "average_distance", "edges", "bfs_seconds",
        "graph_seconds", "revision"]
def row(rule, folder):
    s = next(csv.DictReader(open(os.path.join(folder, "summary.csv"))))
    run_path = os.path.join(folder, "run.csv")
    r = next(csv.DictReader(open(run_path))) if os.path.exists(run_path) else {}
    wall = r.get("wall_seconds", "")
    graph = f"{float(wall) - float(s['seconds']):.3f}" if wall else s.get("diameter_seconds", "")
    return {"rule": rule, "rows": s["rows"], "cols": s["cols"], "ranks": s["space_size"],
            "reachable": s["reachable"], "components": s["components"], "largest_component": s["largest_component"],
            "goal_eccentricity": s["max_depth"], "antipodes": s["antipodes"], "diameter": s["diameter"],
            "diameter_lower": s["diameter_lower"], "diameter_upper": s["diameter_upper"],
            "average_distance": s["average_distance"], "edges": s["edges"], "bfs_seconds": f"{float(s['seconds']):.3f}",
            "graph_seconds": graph, "revision": r.get("revision", "")}
rows = []
for grid in grids:
    for rule in order:
        folder = os.path.join(d, f"{rule}-{grid}")
        if rule == "primeswap" and grid == "3x4":
            folder = "results/primeswap-3x4"
        if os.path.exists(os.path.join(folder, "summary.csv")):
            rows.append(row(rule, folder))
tmp = os.path.join(d, ".atlas.csv.tmp")
with open(tmp, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=cols, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
os.replace(tmp, os.path.join(d, "atlas.csv"))
print(f"atlas.sh: {len(rows)} rows -> {d}/atlas.csv")
EOF
