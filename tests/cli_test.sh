#!/usr/bin/env bash
# End-to-end tests of the stategraph binary: exit codes, files written, samples.
# Usage: cli_test.sh path/to/stategraph
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect CODE DESCRIPTION -- command...: exit code must match; stderr of a failure is one line.
expect() {
  local want=$1 what=$2; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" != "$want" ]; then bad "$what: exit $got, wanted $want ($(head -c 300 "$tmp/err"))"; return; fi
  if [ "$want" != 0 ] && [ "$(wc -l <"$tmp/err")" != 1 ]; then bad "$what: stderr is not one line"; cat "$tmp/err"; return; fi
  ok
}

expect 0 "help" -- "$bin" --help
expect 0 "rules" -- "$bin" rules
grep -q '^cardswap *2x3 *120 ' "$tmp/out" && ok || bad "rules lists cardswap 2x3 with 120 ranks"

expect 0 "analyze sliding 2x3" -- "$bin" analyze --rule sliding --rows 2 --cols 3 --out "$tmp/s23" --quiet
[ "$(head -1 "$tmp/s23/distribution.csv")" = "depth,states,cumulative,fraction,paths" ] && ok || bad "distribution header"
[ "$(tail -1 "$tmp/s23/distribution.csv" | cut -d, -f1,3)" = "21,360" ] && ok || bad "sliding 2x3: last depth 21, cumulative 360"
head -1 "$tmp/s23/summary.csv" | grep -q '^rule,rows,cols,space_size,reachable,max_depth,antipodes,variant,threads,seconds' && ok || bad "summary header"
[ "$(sed -n 2p "$tmp/s23/summary.csv" | cut -d, -f1-7)" = "sliding,2,3,360,360,21,1" ] && ok || bad "summary row: $(sed -n 2p "$tmp/s23/summary.csv")"
ls "$tmp/s23" | grep -q tmp && bad "temporary file left behind" || ok

expect 0 "analyze cardswap with start" -- "$bin" analyze --rule cardswap --start 'A B/***' --out "$tmp/c" --quiet
[ "$(sed -n 2p "$tmp/c/summary.csv" | cut -d, -f13)" = "12" ] && ok || bad "cardswap start A B/*** at distance 12"

expect 0 "analyze --all" -- "$bin" analyze --all --out "$tmp/all" --quiet
for d in sliding-3x3 rotate-3x3 primeswap-3x3 cardswap-2x3; do
  [ -s "$tmp/all/$d/distribution.csv" ] && [ -s "$tmp/all/$d/summary.csv" ] && ok || bad "--all wrote $d"
done
[ "$(sed -n 2p "$tmp/all/cardswap-2x3/summary.csv" | cut -d, -f13)" = "17" ] && ok || bad "seed cardswap at distance 17"

expect 0 "verify" -- "$bin" analyze --rule primeswap --rows 2 --cols 3 --verify --out "$tmp/v" --quiet

# Bad input: one line on stderr, exit 2, nothing written.
expect 2 "unknown rule" -- "$bin" analyze --rule nosuch --out "$tmp/bad1"
expect 2 "bad size" -- "$bin" analyze --rule sliding --rows 1 --cols 9 --out "$tmp/bad2"
expect 2 "too many cells" -- "$bin" analyze --rule sliding --rows 4 --cols 5 --out "$tmp/bad3"
expect 2 "rows without cols" -- "$bin" analyze --rule sliding --rows 3 --out "$tmp/bad4"
expect 2 "bad start" -- "$bin" analyze --rule cardswap --start 'A C/***' --out "$tmp/bad5"
expect 2 "start for a rule without one" -- "$bin" analyze --rule rotate --start '123456789' --out "$tmp/bad6"
expect 2 "unknown variant" -- "$bin" analyze --rule rotate --variant nope --out "$tmp/bad7"
expect 2 "not a number" -- "$bin" analyze --rule rotate --rows x --cols 3 --out "$tmp/bad8"
expect 2 "no rule" -- "$bin" analyze --out "$tmp/bad9"
expect 2 "unknown flag" -- "$bin" analyze --rule rotate --frobnicate
expect 2 "no subcommand" -- "$bin"
for i in 1 2 3 4 5 6 7 8 9; do [ -e "$tmp/bad$i" ] && bad "bad$i: output written for bad input" || ok; done

expect 1 "unwritable output" -- "$bin" analyze --rule sliding --rows 2 --cols 2 --out /proc/forbidden --quiet

# --- graph ---
# Components, diameters, antipodes, path counts (issue 4); reuses the --all run above.
col() { # col FILE NAME: the value of column NAME in row 2 of a CSV without quoted commas
  awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i } NR == 2 { print $c }' "$1"
}
for d in sliding-3x3 rotate-3x3 primeswap-3x3 cardswap-2x3; do
  for f in components.csv component_sizes.csv antipodes.csv; do
    [ -s "$tmp/all/$d/$f" ] && ok || bad "--all wrote $d/$f"
  done
  [ "$(head -1 "$tmp/all/$d/components.csv")" = "component,size,representative,eccentricity_of_representative,diameter" ] && ok || bad "$d components header"
  [ "$(head -1 "$tmp/all/$d/component_sizes.csv")" = "size,count" ] && ok || bad "$d component_sizes header"
  [ "$(head -1 "$tmp/all/$d/antipodes.csv")" = "rank,state" ] && ok || bad "$d antipodes header"
done
head -1 "$tmp/all/sliding-3x3/summary.csv" | grep -q ',start_distance,components,largest_component,diameter,goal_component_size,average_distance,edges,diameter_bfs_runs,diameter_seconds,diameter_method$' && ok || bad "summary graph columns"
s=$tmp/all/sliding-3x3/summary.csv
[ "$(col "$s" components),$(col "$s" diameter),$(col "$s" goal_component_size),$(col "$s" edges)" = "1,31,181440,241920" ] && ok || bad "8-puzzle: 1 component, diameter 31, 241920 edges"
[ "$(sed -n 2p "$tmp/all/sliding-3x3/components.csv")" = "0,181440,_ 1 2/3 4 5/6 7 8,31,31" ] && ok || bad "8-puzzle component row: $(sed -n 2p "$tmp/all/sliding-3x3/components.csv")"
[ "$(wc -l <"$tmp/all/sliding-3x3/antipodes.csv")" = 3 ] && ok || bad "8-puzzle: 2 antipodes listed"
r=$tmp/all/rotate-3x3/summary.csv
[ "$(col "$r" diameter),$(col "$r" diameter_method),$(col "$r" diameter_bfs_runs)" = "15,cayley,0" ] && ok || bad "rotate 3x3: Cayley diameter 15"
p=$tmp/all/primeswap-3x3/summary.csv
[ "$(col "$p" goal_component_size),$(col "$p" largest_component)" = "177872,177872" ] && ok || bad "primeswap 3x3 goal component"
[ -n "$(col "$p" diameter)" ] && ok || bad "primeswap 3x3 diameter determined"
[ "$(awk -F, 'NR > 1 { s += $1 * $2 } END { print s }' "$tmp/all/primeswap-3x3/component_sizes.csv")" = 362880 ] && ok || bad "primeswap histogram covers every rank"
[ "$(sed -n 2p "$tmp/s23/distribution.csv")" = "0,1,1,0.002777777778,1" ] && ok || bad "paths column at depth 0: $(sed -n 2p "$tmp/s23/distribution.csv")"
# Limits: --max-components keeps the largest, --max-antipodes caps the list, --no-graph skips.
expect 0 "primeswap 2x3 limits" -- "$bin" analyze --rule primeswap --rows 2 --cols 3 --max-components 2 --max-antipodes 1 --out "$tmp/g1" --quiet
[ "$(wc -l <"$tmp/g1/components.csv")" = 3 ] && ok || bad "--max-components 2 writes 2 rows"
[ "$(wc -l <"$tmp/g1/antipodes.csv")" = 2 ] && ok || bad "--max-antipodes 1 writes 1 row"
[ "$(col "$tmp/g1/summary.csv" components)" -gt 2 ] && ok || bad "summary counts every component"
expect 0 "exact diameter" -- "$bin" analyze --rule sliding --rows 2 --cols 3 --exact-diameter --out "$tmp/g2" --quiet
[ "$(col "$tmp/g2/summary.csv" diameter),$(col "$tmp/g2/summary.csv" diameter_method)" = "21,exact" ] && ok || bad "sliding 2x3 exact diameter 21"
expect 0 "no graph" -- "$bin" analyze --rule sliding --rows 2 --cols 3 --no-graph --out "$tmp/g3" --quiet
[ ! -e "$tmp/g3/components.csv" ] && [ -z "$(col "$tmp/g3/summary.csv" components)" ] && ok || bad "--no-graph writes no graph files"
expect 2 "bad max-components" -- "$bin" analyze --rule sliding --rows 2 --cols 2 --max-components 0 --out "$tmp/g4"
[ ! -e "$tmp/g4" ] && ok || bad "g4: output written for bad input"
# --- end graph ---

echo "cli_test: $pass passed, $fail failed"
[ "$fail" = 0 ]
