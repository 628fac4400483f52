#!/usr/bin/env bash
# End-to-end tests of the stategraph binary: exit codes, files written, samples.
# Usage: cli_test.sh path/to/stategraph
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
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
grep -q '^adjswap *3x3 *362880 ' "$tmp/out" && ok || bad "rules lists adjswap 3x3 with 362880 ranks"

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
for d in sliding-3x3 rotate-3x3 primeswap-3x3 cardswap-2x3; do
  [ "$(sed -n 2p "$tmp/all/$d/run.csv" | cut -d, -f4,6)" = "analyze,${d%-*}" ] && ok || bad "--all: $d/run.csv names its rule"
done

expect 0 "verify" -- "$bin" analyze --rule primeswap --rows 2 --cols 3 --verify --out "$tmp/v" --quiet

# Bad input: one line on stderr, exit 2, nothing written.
expect 2 "unknown rule" -- "$bin" analyze --rule nosuch --out "$tmp/bad1"
expect 2 "bad size" -- "$bin" analyze --rule sliding --rows 1 --cols 9 --out "$tmp/bad2"
expect 2 "too many cells" -- "$bin" analyze --rule sliding --rows 4 --cols 5 --out "$tmp/bad3"
expect 2 "rows without cols" -- "$bin" analyze --rule sliding --rows 3 --out "$tmp/bad4"
expect 2 "bad start" -- "$bin" analyze --rule cardswap --start 'A C/***' --out "$tmp/bad5"
expect 2 "malformed start for a rule searching from it" -- "$bin" analyze --rule rotate --start 1234 --out "$tmp/bad6"
expect 2 "unknown variant" -- "$bin" analyze --rule rotate --variant nope --out "$tmp/bad7"
expect 2 "not a number" -- "$bin" analyze --rule rotate --rows x --cols 3 --out "$tmp/bad8"
expect 2 "no rule" -- "$bin" analyze --out "$tmp/bad9"
expect 2 "unknown flag" -- "$bin" analyze --rule rotate --frobnicate
expect 2 "no subcommand" -- "$bin"
for i in 1 2 3 4 5 6 7 8 9; do [ -e "$tmp/bad$i" ] && bad "bad$i: output written for bad input" || ok; done

expect 2 "--max-memory below the need" -- "$bin" analyze --rule sliding --rows 3 --cols 4 --max-memory 10M --out "$tmp/mem1"
grep -q "needs at least" "$tmp/err" && ok || bad "--max-memory message names the need: $(cat "$tmp/err")"
[ -e "$tmp/mem1" ] && bad "--max-memory refusal created the output folder" || ok
expect 2 "--variant hybrid over --max-memory" -- "$bin" analyze --rule sliding --rows 3 --cols 4 --variant hybrid --max-memory 40M --out "$tmp/mem2"
expect 2 "space too large for memory" -- "$bin" analyze --rule rotate --rows 4 --cols 4 --out "$tmp/mem3"
expect 2 "bad --max-memory" -- "$bin" analyze --rule rotate --max-memory 12Q --out "$tmp/mem4"
expect 0 "--max-memory that fits" -- "$bin" analyze --rule rotate --rows 2 --cols 3 --max-memory 1M --out "$tmp/mem5" --quiet
expect 1 "unwritable output" -- "$bin" analyze --rule sliding --rows 2 --cols 2 --out /proc/forbidden --quiet

# --- solve ---
# Samples of each rule end to end; exit codes; table files; bad input.
# answer RULE INPUT EXPECTED [ARGS...]: stdin INPUT (printf format) gives stdout EXPECTED.
answer() {
  local rule=$1 input=$2 want=$3; shift 3
  local got
  got=$(printf -- "$input" | "$bin" solve --rule "$rule" "$@" 2>"$tmp/err")
  local rc=$?
  [ "$rc" = 0 ] && [ "$got" = "$want" ] && ok || bad "solve $rule $*: got '$got' (exit $rc, $(head -c 200 "$tmp/err")), wanted '$want'"
}
answer rotate '2\n1 2 3\n4 5 6\n7 8 9\n1 5 2\n4 6 3\n7 8 9\n' $'0\n3'
answer primeswap '2\n7 3 2\n4 1 5\n6 8 9\n\n9 8 5\n2 4 1\n3 7 6\n' $'6\n-1'
answer cardswap '* A\n**B\n' '17'
answer cardswap 'A B\n***\n' '12'
answer cardswap '* A\r\n**B' '17'
answer sliding '1\n6 3 8\n1 4 5\n2 7 9\n' '20 count=2' --count
answer sliding '1\n6 3 8\n1 4 5\n2 7 0\n' '20' --variant twobit
answer sliding '2\n1 2 3 4\n5 6 7 0\n1 2 3 4\n5 6 0 7\n' $'0\n1' --rows 2 --cols 4
answer rotate '1\r\n1 5 2\r\n4 6 3\r\n7 8 9\r\n' '3 count=1 path=r1c2,r1c2,r1c2' --path --count
answer adjswap '1\n2 1 3\n4 5 6\n7 8 9\n' '1 count=1 path=r1c1-r1c2' --path --count
expect 0 "solve --state" -- "$bin" solve --rule sliding --state 638145279 --path --boards
[ "$(head -1 "$tmp/out" | cut -d' ' -f1)" = 20 ] && [ "$(wc -l <"$tmp/out")" = 22 ] && ok || bad "--state --path --boards: $(head -2 "$tmp/out")"
printf '2\n1 2 3\n4 5 6\n7 8 9\n1 5 2\n4 6 3\n7 8 9\n' >"$tmp/rot.txt"
expect 0 "solve --input" -- "$bin" solve --rule rotate --input "$tmp/rot.txt"
[ "$(cat "$tmp/out")" = $'0\n3' ] && ok || bad "solve --input answers"

# Table files: build, solve from the mapped table, refuse mismatches.
expect 0 "table build" -- "$bin" table build --rule rotate --out "$tmp/rot.sgdt"
ls "$tmp" | grep -q 'sgdt.tmp' && bad "table build left a temporary file" || ok
expect 0 "solve --table" -- "$bin" solve --rule rotate --table "$tmp/rot.sgdt" --input "$tmp/rot.txt"
[ "$(cat "$tmp/out")" = $'0\n3' ] && ok || bad "solve --table answers: $(cat "$tmp/out")"
expect 0 "solve --table, rule from the table" -- "$bin" solve --table "$tmp/rot.sgdt" --state 152463789
[ "$(cat "$tmp/out")" = 3 ] && ok || bad "solve --table without --rule"
expect 2 "table of another rule" -- "$bin" solve --rule primeswap --table "$tmp/rot.sgdt" --state 123456789
grep -q 'built for rotate 3x3' "$tmp/err" && ok || bad "mismatch message: $(cat "$tmp/err")"
expect 2 "table of another size" -- "$bin" solve --rule rotate --rows 2 --cols 3 --table "$tmp/rot.sgdt" --state 123456
cp "$tmp/rot.sgdt" "$tmp/bad.sgdt"
printf '\x55' | dd of="$tmp/bad.sgdt" bs=1 seek=5000 conv=notrunc status=none
expect 2 "corrupted table" -- "$bin" solve --table "$tmp/bad.sgdt" --state 152463789
grep -q checksum "$tmp/err" && ok || bad "checksum message: $(cat "$tmp/err")"
# A table of format version 1 (tests/data/, written by the stategraph before XXH3).
expect 2 "table of an older format" -- "$bin" solve --table "$(dirname "$0")/data/rotate_2x3_v1.sgdt" --state 123456
grep -q "format version 1, this build reads version 2: written by an older stategraph, build it again" "$tmp/err" && ok ||
  bad "older table message: $(cat "$tmp/err")"
expect 2 "missing table" -- "$bin" solve --table "$tmp/none.sgdt" --state 152463789
expect 2 "mod3 for a directed rule" -- "$bin" table build --rule rotate --encoding mod3 --out "$tmp/m.sgdt"
[ -e "$tmp/m.sgdt" ] && bad "table written for a refused encoding" || ok
expect 1 "unwritable table" -- "$bin" table build --rule rotate --rows 2 --cols 2 --out /proc/forbidden/t.sgdt

# Bad input: one line on stderr naming query and line, exit 2.
solve_bad() {
  local what=$1 rule=$2 input=$3 fragment=$4
  printf -- "$input" >"$tmp/in.txt"
  expect 2 "$what" -- "$bin" solve --rule "$rule" --input "$tmp/in.txt"
  grep -q -- "$fragment" "$tmp/err" && ok || bad "$what: '$fragment' not in: $(cat "$tmp/err")"
}
solve_bad "empty input" rotate '' 'empty input'
solve_bad "negative T" rotate '-1\n' 'line 1'
solve_bad "truncated grid" rotate '1\n1 2 3\n4 5 6\n' 'query 1, line 4'
solve_bad "extra tokens" rotate '1\n1 2 3 4\n5 6 7\n8 9 1\n' 'query 1, line 2'
solve_bad "repeated tile" primeswap '1\n1 2 3\n4 5 6\n7 8 8\n' 'query 1, line 4: number 8 appears twice'
solve_bad "tile out of range" sliding '1\n1 2 3\n4 5 6\n7 8 10\n' 'query 1, line 4'
solve_bad "T larger than the grids" rotate '2\n1 2 3\n4 5 6\n7 8 9\n' 'query 2'
solve_bad "not a card" cardswap '* X\n**B\n' "query 1, lines 1-2"
expect 2 "bad --state" -- "$bin" solve --rule rotate --state 12345678
printf '3\n1 2 3\n4 5 6\n7 8 9\n1 2 2\n4 5 6\n7 8 9\n1 5 2\n4 6 3\n7 8 9\n' >"$tmp/kg.txt"
"$bin" solve --rule rotate --keep-going --input "$tmp/kg.txt" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] && [ "$(cat "$tmp/out")" = $'0\nerror\n3' ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'query 2, line 5' "$tmp/err" \
  && ok || bad "--keep-going: exit $rc, out '$(cat "$tmp/out")', err '$(cat "$tmp/err")'"
# --- graph ---
# Components, diameters, antipodes, path counts; reuses the --all run above.
col() { # col FILE NAME: the value of column NAME in row 2 of a CSV without quoted commas
  awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i } NR == 2 { print $c }' "$1"
}
for d in sliding-3x3 rotate-3x3 primeswap-3x3 cardswap-2x3; do
  for f in components.csv component_sizes.csv antipodes.csv; do
    [ -s "$tmp/all/$d/$f" ] && ok || bad "--all wrote $d/$f"
  done
  [ "$(head -1 "$tmp/all/$d/components.csv")" = "component,size,representative,eccentricity_of_representative,diameter,diameter_lower,diameter_upper,diameter_method,diameter_bfs_runs,mirror_of,diameter_image_sources" ] && ok || bad "$d components header"
  [ "$(head -1 "$tmp/all/$d/component_sizes.csv")" = "size,count" ] && ok || bad "$d component_sizes header"
  [ "$(head -1 "$tmp/all/$d/antipodes.csv")" = "rank,state" ] && ok || bad "$d antipodes header"
done
head -1 "$tmp/all/sliding-3x3/summary.csv" | grep -q ',start_distance,components,largest_component,diameter,goal_component_size,average_distance,edges,diameter_bfs_runs,diameter_seconds,diameter_method,diameter_lower,diameter_upper,' && ok || bad "summary graph columns"
s=$tmp/all/sliding-3x3/summary.csv
[ "$(col "$s" components),$(col "$s" diameter),$(col "$s" goal_component_size),$(col "$s" edges)" = "2,31,181440,241920" ] && ok || bad "8-puzzle: 2 components (both parity classes), diameter 31, 241920 edges"
[ "$(sed -n 2p "$tmp/all/sliding-3x3/components.csv" | cut -d, -f1-7)" = "0,181440,_ 1 2/3 4 5/6 7 8,31,31,31,31" ] && ok || bad "8-puzzle component row: $(sed -n 2p "$tmp/all/sliding-3x3/components.csv")"
[ "$(sed -n 3p "$tmp/all/sliding-3x3/components.csv" | cut -d, -f1-7)" = "1,181440,_ 2 1/3 4 5/6 7 8,31,31,31,31" ] && ok || bad "8-puzzle other class row: $(sed -n 3p "$tmp/all/sliding-3x3/components.csv")"
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

# --- defs: --rule file:PATH, --metric, rotate --directions ---
defs="$(cd "$(dirname "$0")/.." && pwd)/results/defs"
expect 0 "defined rotate 3x3" -- "$bin" analyze --rule "file:$defs/rotate-3x3.tws" --rows 3 --cols 3 --out "$tmp/d1" --quiet
expect 0 "built-in rotate 3x3" -- "$bin" analyze --rule rotate --out "$tmp/d2" --quiet
for f in distribution.csv components.csv component_sizes.csv antipodes.csv; do
  cmp -s "$tmp/d1/$f" "$tmp/d2/$f" && ok || bad "defined rotate 3x3 $f differs from the built-in's"
done
[ "$(sed -n 2p "$tmp/d1/summary.csv" | cut -d, -f1)" = "rotate3x3" ] && ok || bad "summary names the definition"
[ "$(sed -n 2p "$tmp/d1/summary.csv" | cut -d, -f2-7,14-19)" = "$(sed -n 2p "$tmp/d2/summary.csv" | cut -d, -f2-7,14-19)" ] && ok || bad "defined rotate summary differs"
published="1 8 52 328 1996 11336 51582 130042 125929 39706 1880 20"
expect 0 "rotate --directions both" -- "$bin" analyze --rule rotate --directions both --out "$tmp/d3" --quiet
[ "$(tail -n +2 "$tmp/d3/distribution.csv" | cut -d, -f2 | tr '\n' ' ')" = "$published " ] && ok || bad "rotate both 3x3 distribution"
[ "$(sed -n 2p "$tmp/d3/summary.csv" | cut -d, -f1)" = "rotate-both" ] && ok || bad "summary names rotate-both"
expect 0 "defined both, given" -- "$bin" analyze --rule "file:$defs/rotate-3x3-both.tws" --rows 3 --cols 3 --out "$tmp/d4" --quiet
expect 0 "defined cw, --metric inverses" -- "$bin" analyze --rule "file:$defs/rotate-3x3.tws" --metric inverses --rows 3 --cols 3 --out "$tmp/d5" --quiet
for d in d4 d5; do cmp -s "$tmp/d3/distribution.csv" "$tmp/$d/distribution.csv" && ok || bad "$d: distribution differs from rotate both"; done
expect 0 "--metric powers" -- "$bin" analyze --rule "file:$defs/rotate-3x3.tws" --metric powers --no-graph --out "$tmp/d6" --quiet
[ "$(col "$tmp/d6/summary.csv" max_depth)" -lt 11 ] && ok || bad "half-turn metric is shallower than 11"
expect 0 "solve defined" -- "$bin" solve --rule "file:$defs/rotate-3x3.tws" --rows 3 --cols 3 --state '4 1 3/5 2 6/7 8 9' --path --count
[ "$(cat "$tmp/out")" = "3 count=1 path=r1c1,r1c1,r1c1" ] && ok || bad "solve defined: $(cat "$tmp/out")"
expect 0 "solve rotate both" -- "$bin" solve --rule rotate --directions both --state '4 1 3 5 2 6 7 8 9' --path
[ "$(cat "$tmp/out")" = "1 path=r1c1'" ] && ok || bad "solve rotate both: $(cat "$tmp/out")"
expect 0 "table build defined" -- "$bin" table build --rule "file:$defs/rotate-3x3-both.tws" --out "$tmp/d.sgd"
expect 0 "solve --table defined" -- "$bin" solve --rule "file:$defs/rotate-3x3-both.tws" --table "$tmp/d.sgd" --state 413526789
[ "$(cat "$tmp/out")" = "1" ] && ok || bad "solve --table defined: $(cat "$tmp/out")"
expect 2 "table of a definition without --rule" -- "$bin" solve --table "$tmp/d.sgd" --state 123456789
expect 2 "table of another definition" -- "$bin" solve --rule "file:$defs/rotate-3x3.tws" --table "$tmp/d.sgd" --state 123456789
expect 0 "table build rotate-both" -- "$bin" table build --rule rotate --directions both --rows 2 --cols 3 --out "$tmp/rb.sgd"
expect 0 "solve --table rotate-both (rule from the header)" -- "$bin" solve --table "$tmp/rb.sgd" --state 213456
printf 'Name x\nSet P 4 1\nSolved\nEnd\nMove A\nP\n2 3 4 4\nEnd\n' >"$tmp/bad.tws"
expect 2 "malformed permutation" -- "$bin" analyze --rule "file:$tmp/bad.tws" --out "$tmp/bd1"
grep -q "bad.tws:7: move 'A' is not a permutation" "$tmp/err" && ok || bad "error names file and line: $(cat "$tmp/err")"
printf 'Name x\nSet P 4 3\n' >"$tmp/orient.tws"
expect 2 "orientations" -- "$bin" analyze --rule "file:$tmp/orient.tws" --out "$tmp/bd2"
expect 2 "missing file" -- "$bin" analyze --rule "file:$tmp/nosuch.tws" --out "$tmp/bd3"
expect 2 "bad metric" -- "$bin" analyze --rule "file:$defs/rotate-3x3.tws" --metric quarter --out "$tmp/bd4"
expect 2 "metric on a built-in" -- "$bin" analyze --rule rotate --metric powers --out "$tmp/bd5"
expect 2 "bad directions" -- "$bin" analyze --rule rotate --directions up --out "$tmp/bd6"
expect 2 "directions on sliding" -- "$bin" analyze --rule sliding --directions both --out "$tmp/bd7"
expect 2 "rows x cols not n" -- "$bin" analyze --rule "file:$defs/rotate-3x3.tws" --rows 2 --cols 4 --out "$tmp/bd8"
expect 2 "bad defined query" -- "$bin" solve --rule "file:$defs/rotate-3x3.tws" --state '1 1 3 4 5 6 7 8 9'
for i in 1 2 3 4 5 6 7 8; do [ -e "$tmp/bd$i" ] && bad "bd$i: output written for bad input" || ok; done
# --- end defs ---
# --- compare and plots ---
have_gnuplot=0; command -v gnuplot >/dev/null 2>&1 && have_gnuplot=1
is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
is_svg() { grep -v '^<?xml' "$1" | grep -v '^ *$' | head -1 | grep -q '^<svg' && tail -c 32 "$1" | grep -q '</svg>'; }
expect 0 "compare" -- "$bin" compare --rule sliding --rows 2 --cols 3 --variants hybrid,serial,reference --threads 1,2 --repeat 2 --out "$tmp/cmp"
cp "$tmp/out" "$tmp/cmp_stdout"
[ "$(head -1 "$tmp/cmp/compare.csv")" = "rule,rows,cols,variant,threads,repeat,seconds,states_per_s,edges_per_s,peak_bytes,bits_per_state" ] && ok || bad "compare.csv header"
[ "$(head -1 "$tmp/cmp/compare_levels.csv")" = "rule,rows,cols,variant,threads,repeat,depth,direction,seconds" ] && ok || bad "compare_levels.csv header"
[ "$(tail -n +2 "$tmp/cmp/compare.csv" | wc -l)" = 12 ] && ok || bad "compare.csv: 3 variants x 2 threads x 2 repeats"
[ "$(tail -n +2 "$tmp/cmp/compare.csv" | cut -d, -f4,5 | sort | uniq -c | awk '{print $1}' | sort -u)" = 2 ] && ok || bad "every variant x threads twice"
# Cross-check with analyze (sliding 2x3: the s23 run above): every run reaches max depth 21.
want_max=$(col "$tmp/s23/summary.csv" max_depth)
[ "$(tail -n +2 "$tmp/cmp/compare_levels.csv" | awk -F, '$4 != "x" { k = $4 "," $5 "," $6; if ($7 > m[k]) m[k] = $7 } END { for (k in m) print m[k] }' | sort -u)" = "$want_max" ] && ok || bad "compare levels end at analyze's max depth $want_max"
for key in cores cpu_model memory_total_bytes compiler build_type git_revision command; do
  v=$(awk -F, -v k="$key" '$1 == k { print $2 }' "$tmp/cmp/meta.csv"); [ -n "$v" ] && ok || bad "meta.csv has $key"
done
grep -q '^fastest: ' "$tmp/cmp_stdout" && ok || bad "compare prints the fastest choice"
grep -q '^hybrid  *2 ' "$tmp/cmp_stdout" && ok || bad "compare prints hybrid at 2 threads"
ls "$tmp/cmp" | grep -q tmp && bad "compare left a temporary file" || ok
if [ "$have_gnuplot" = 1 ]; then
  for f in compare_seconds compare_levels; do
    is_png "$tmp/cmp/$f.png" && is_svg "$tmp/cmp/$f.svg" && [ -s "$tmp/cmp/$f.gp" ] && ok || bad "compare plot $f"
  done
  for d in sliding-3x3 rotate-3x3 primeswap-3x3 cardswap-2x3; do
    is_png "$tmp/all/$d/distribution.png" && is_svg "$tmp/all/$d/distribution.svg" && ok || bad "analyze plot $d"
  done
  expect 0 "analyze --plot-log" -- "$bin" analyze --rule rotate --rows 2 --cols 3 --plot-log --out "$tmp/p1" --quiet
  grep -q 'set logscale y' "$tmp/p1/distribution.gp" && is_png "$tmp/p1/distribution.png" && ok || bad "--plot-log"
  # The script redraws the images by itself.
  rm "$tmp/p1/distribution.png" && (cd "$tmp/p1" && gnuplot distribution.gp 2>/dev/null) && is_png "$tmp/p1/distribution.png" && ok || bad "distribution.gp redraws"
else
  echo "cli_test: gnuplot not installed, plot checks skipped"
fi
expect 0 "analyze --no-plot" -- "$bin" analyze --rule rotate --rows 2 --cols 3 --no-plot --out "$tmp/p2" --quiet
ls "$tmp/p2" | grep -qE '\.(png|svg|gp)$' && bad "--no-plot drew plots" || ok
# Without gnuplot: the analysis still succeeds, one warning line, no plot files.
STATEGRAPH_GNUPLOT=no-such-gnuplot "$bin" analyze --rule rotate --rows 2 --cols 3 --out "$tmp/p3" --quiet >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" = 0 ] && [ -s "$tmp/p3/summary.csv" ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'gnuplot-nox' "$tmp/err" && ok || bad "missing gnuplot: exit $rc, '$(cat "$tmp/err")'"
ls "$tmp/p3" | grep -qE '\.(png|svg|gp)$|tmp' && bad "missing gnuplot: plot or temp files written" || ok
STATEGRAPH_GNUPLOT=no-such-gnuplot "$bin" compare --rule rotate --rows 2 --cols 3 --variants hybrid --threads 1 --repeat 1 --out "$tmp/p4" --quiet >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" = 0 ] && [ -s "$tmp/p4/compare.csv" ] && grep -q 'gnuplot-nox' "$tmp/err" && ok || bad "compare without gnuplot: exit $rc"
# A gnuplot that fails: a warning, exit 0, nothing half-written.
STATEGRAPH_GNUPLOT=false "$bin" analyze --rule rotate --rows 2 --cols 3 --out "$tmp/p5" --quiet >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" = 0 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'plot not written' "$tmp/err" && ok || bad "failing gnuplot: exit $rc, '$(cat "$tmp/err")'"
ls "$tmp/p5" | grep -qE '\.(png|svg|gp)$|tmp' && bad "failing gnuplot: plot or temp files left" || ok
# reference is skipped, with a note, when it does not fit.
expect 0 "compare, reference too big" -- "$bin" compare --rule rotate --rows 2 --cols 3 --variants hybrid,reference --threads 1 --repeat 1 --max-memory 20K --out "$tmp/p6" --quiet --no-plot
grep -q '^note: reference skipped' "$tmp/out" && ok || bad "reference skip note: $(cat "$tmp/out")"
[ "$(cut -d, -f4 "$tmp/p6/compare.csv" | sort -u | tr '\n' ' ')" = "hybrid variant " ] && ok || bad "no reference rows when skipped"
# Bad input: one line, exit 2, nothing written.
expect 2 "compare: unknown variant" -- "$bin" compare --rule rotate --variants hybrid,nope --out "$tmp/cb1"
expect 2 "compare: variant twice" -- "$bin" compare --rule rotate --variants hybrid,hybrid --out "$tmp/cb2"
expect 2 "compare: zero threads" -- "$bin" compare --rule rotate --threads 0 --out "$tmp/cb3"
expect 2 "compare: more threads than cores" -- "$bin" compare --rule rotate --threads 1,100000 --out "$tmp/cb4"
expect 2 "compare: repeat 0" -- "$bin" compare --rule rotate --repeat 0 --out "$tmp/cb5"
expect 2 "compare: no rule" -- "$bin" compare --out "$tmp/cb6"
expect 2 "compare: threads not a number" -- "$bin" compare --rule rotate --threads 1,x --out "$tmp/cb7"
expect 2 "compare: auto" -- "$bin" compare --rule rotate --variants auto --out "$tmp/cb8"
expect 2 "compare: variant does not fit" -- "$bin" compare --rule rotate --variants hybrid --max-memory 1K --out "$tmp/cb9"
for i in 1 2 3 4 5 6 7 8 9; do [ -e "$tmp/cb$i" ] && bad "cb$i: output written for bad input" || ok; done
# An unusable --out is a usage error found before any run (exit 2, nothing created).
expect 2 "compare: unwritable output" -- "$bin" compare --rule rotate --rows 2 --cols 2 --variants serial --threads 1 --repeat 1 --out /proc/forbidden --quiet
# `plot` redraws from the CSVs alone (folders written with --no-plot above).
if [ "$have_gnuplot" = 1 ]; then
  expect 0 "plot from CSVs" -- "$bin" plot "$tmp/p2" "$tmp/p6"
  is_png "$tmp/p2/distribution.png" && is_svg "$tmp/p6/compare_seconds.svg" && is_png "$tmp/p6/compare_levels.png" && ok || bad "plot from CSVs wrote the images"
  grep -q 'hybrid' "$tmp/p6/compare_seconds.gp" && ok || bad "compare_seconds.gp names the variant"
fi
mkdir -p "$tmp/empty"
expect 2 "plot: folder without results" -- "$bin" plot "$tmp/empty"
expect 2 "plot: no folder" -- "$bin" plot
# --- end compare ---

# --- shared options, --version, run folders ---
# --version: the CMake project version and a git revision (40 hex digits, maybe -dirty) or "unknown".
want_version=$(sed -n 's/^project(stategraph VERSION \([0-9.]*\).*/\1/p' "$(dirname "$0")/../CMakeLists.txt")
expect 0 "--version" -- "$bin" --version
grep -Eq "^stategraph $want_version \(git ([0-9a-f]{40}(-dirty)?|unknown)\)$" "$tmp/out" && ok || bad "--version: '$(cat "$tmp/out")'"
# One --threads bound for every command, stated in each --help; above it exit 2.
for c in analyze solve compare "table build"; do
  "$bin" $c --help | grep -q 'at most 256\|1 to 256' && ok || bad "$c --help states the --threads bound"
done
expect 2 "analyze --threads 257" -- "$bin" analyze --rule rotate --rows 2 --cols 2 --threads 257 --out "$tmp/t1"
expect 0 "analyze --threads 256" -- "$bin" analyze --rule rotate --rows 2 --cols 2 --threads 256 --no-plot --out "$tmp/t2" --quiet
expect 2 "analyze --threads 99999" -- "$bin" analyze --rule rotate --rows 2 --cols 2 --threads 99999 --out "$tmp/t3"
expect 2 "solve --threads 257" -- "$bin" solve --rule rotate --threads 257 --state 123456789
expect 2 "table build --threads 257" -- "$bin" table build --rule rotate --threads 257 --out "$tmp/t4.sgdt"
expect 2 "compare --threads 257" -- "$bin" compare --rule rotate --threads 1,257 --out "$tmp/t5"
for i in 1 3 4 5; do [ -e "$tmp/t$i" ] || [ -e "$tmp/t$i.sgdt" ] && bad "t$i: output written for bad input" || ok; done
# A folder where an input file is expected: one line, exit 2.
mkdir -p "$tmp/adir"
expect 2 "solve --input DIR" -- "$bin" solve --rule rotate --input "$tmp/adir"
grep -q 'is a folder' "$tmp/err" && ok || bad "--input DIR message: $(cat "$tmp/err")"
expect 2 "solve --table DIR" -- "$bin" solve --table "$tmp/adir" --state 123456789
expect 2 "analyze --rule file:DIR" -- "$bin" analyze --rule "file:$tmp/adir" --out "$tmp/t6"
expect 2 "table build --out DIR" -- "$bin" table build --rule rotate --rows 2 --cols 2 --out "$tmp/adir"
# compare --out under a regular file: refused before any run (the runs would take 30 s).
touch "$tmp/regular"
start=$(date +%s)
expect 2 "compare --out under a regular file" -- "$bin" compare --rule sliding --rows 3 --cols 3 --variants reference,serial --threads 1 --repeat 20 --out "$tmp/regular/sub"
[ $(($(date +%s) - start)) -le 3 ] && ok || bad "compare --out was checked only after the runs"
# compare --directions / --metric as analyze has them: same space, same per-depth counts.
expect 0 "compare --directions both" -- "$bin" compare --rule rotate --directions both --variants hybrid --threads 1 --repeat 1 --no-plot --out "$tmp/cd" --quiet
[ "$(awk -F, '$4 == "hybrid" { print $7 "," $8 }' "$tmp/cd/compare_levels.csv" | cut -d, -f1 | sort -n | tail -1)" = "$(col "$tmp/d3/summary.csv" max_depth)" ] && ok || bad "compare --directions both reaches analyze's max depth"
grep -q 'rotate-both' "$tmp/cd/compare.csv" && ok || bad "compare --directions both names rotate-both"
expect 0 "compare --metric" -- "$bin" compare --rule "file:$defs/rotate-3x3.tws" --metric powers --rows 3 --cols 3 --variants hybrid --threads 1 --repeat 1 --no-plot --out "$tmp/cm" --quiet
[ "$(cut -d, -f7 "$tmp/cm/compare_levels.csv" | sort -n | tail -1)" = "$(col "$tmp/d6/summary.csv" max_depth)" ] && ok || bad "compare --metric powers reaches analyze's max depth"
expect 2 "compare --directions on sliding" -- "$bin" compare --rule sliding --directions both --out "$tmp/t7"
[ -e "$tmp/t7" ] && bad "t7 written" || ok
# compare interrupted (test hook STATEGRAPH_TEST_SIGNAL_AT_LINE=N:SIG, src/cli/compare.cpp: the signal
# right after the N-th progress line; line 3 follows the 2nd run): one line, exit 130, nothing written.
STATEGRAPH_TEST_SIGNAL_AT_LINE=3:2 expect 130 "compare interrupted" -- "$bin" compare --rule rotate --rows 2 --cols 3 --variants hybrid,serial --threads 1 --repeat 2 --quiet --out "$tmp/ci"
grep -q 'compare interrupted by SIGINT after 2 of 5 runs.*nothing written' "$tmp/err" && ok || bad "compare interrupt line: $(cat "$tmp/err")"
[ -e "$tmp/ci" ] && bad "interrupted compare wrote its folder" || ok
# Log numbers: no exponent, singular and plural right; the stdout line carries the graph results.
expect 0 "analyze log" -- "$bin" analyze --rule sliding --rows 2 --cols 3 --no-plot --out "$tmp/lg"
grep -Eq '[0-9]e[-+][0-9]' "$tmp/err" && bad "log has a number with an exponent: $(grep -E '[0-9]e[-+][0-9]' "$tmp/err" | head -2)" || ok
grep -q '(1 antipode)' "$tmp/out" && ok || bad "1 antipode (singular): $(cat "$tmp/out")"
grep -q '2 components,' "$tmp/err" && ok || bad "log: 2 components (both parity classes, plural)"
expect 0 "analyze log, one component" -- "$bin" analyze --rule adjswap --rows 2 --cols 3 --no-plot --out "$tmp/lg1"
grep -q '1 component,' "$tmp/err" && ok || bad "log: 1 component (singular)"
expect 0 "analyze --quiet summary" -- "$bin" analyze --rule primeswap --rows 2 --cols 3 --no-plot --quiet --out "$tmp/lq"
s=$tmp/lq/summary.csv
counted() { [ "$1" = 1 ] && echo "1 $2" || echo "$1 $2s"; }  # counted N NOUN: "1 antipode", "2 antipodes"
grep -q "graph: $(counted "$(col "$s" components)" component), largest $(col "$s" largest_component), diameter $(col "$s" diameter), [0-9.]* s -> " "$tmp/out" && ok || bad "--quiet stdout has the graph results: $(cat "$tmp/out")"
grep -q "($(counted "$(col "$s" antipodes)" antipode))" "$tmp/out" && ok || bad "antipodes counted: $(cat "$tmp/out")"
expect 0 "analyze --no-graph summary" -- "$bin" analyze --rule primeswap --rows 2 --cols 3 --no-graph --no-plot --quiet --out "$tmp/lq2"
grep -q 'graph:' "$tmp/out" && bad "--no-graph stdout mentions the graph" || ok
# --plot-log everywhere, plot's --log kept as an alias.
if [ "$have_gnuplot" = 1 ]; then
  for flag in --plot-log --log; do
    expect 0 "plot $flag" -- "$bin" plot $flag "$tmp/p2"
    grep -q 'set logscale y' "$tmp/p2/distribution.gp" && ok || bad "plot $flag draws a log axis"
  done
  grep -q 'distribution.png' "$tmp/p2/run.csv" && ok || bad "plot adds its images to run.csv's files"
fi
# run.csv: one row, the command line, rule, grid, variant, threads, the files of the run.
r=$tmp/s23/run.csv
[ "$(wc -l <"$r")" = 2 ] && ok || bad "run.csv has one row"
for c in schema_version version revision command command_line rule rows cols start variant threads date host cpu_model cores memory_bytes wall_seconds cpu_seconds peak_rss_bytes files; do
  head -1 "$r" | tr ',' '\n' | grep -qx "$c" && ok || bad "run.csv has column $c"
done
[ "$(col "$r" command),$(col "$r" rule),$(col "$r" rows),$(col "$r" cols),$(col "$r" version)" = "analyze,sliding,2,3,$want_version" ] && ok || bad "run.csv row: $(sed -n 2p "$r")"
grep -q -- '--out' "$r" && ok || bad "run.csv holds the command line"
[ "$(sed -n 2p "$r" | awk -F, '{ print $NF }' | tr ';' '\n' | sort)" = "$(ls "$tmp/s23" | grep -vx run.csv | sort)" ] && ok || bad "run.csv lists exactly the run's files"
[ "$(col "$tmp/cmp/run.csv" command)" = compare ] && [ -s "$tmp/cmp/meta.csv" ] && ok || bad "compare writes run.csv (and meta.csv)"
# One run per folder: a --no-graph --no-plot run after a full one leaves no stale file; a foreign file stays.
f=$tmp/rf
"$bin" analyze --rule sliding --rows 2 --cols 4 --out "$f" --quiet >/dev/null 2>&1 || bad "full run into rf"
echo mine >"$f/README.md"
full=$(ls "$f" | sort | tr '\n' ' ')
expect 0 "re-run --no-graph --no-plot" -- "$bin" analyze --rule sliding --rows 2 --cols 4 --no-graph --no-plot --out "$f" --quiet
small=$(ls "$f" | sort | tr '\n' ' ')
[ "$small" = "README.md distribution.csv levels.csv run.csv summary.csv " ] && ok || bad "stale files left: $small"
[ "$(cat "$f/README.md")" = mine ] && ok || bad "foreign README.md lost"
[ -z "$(ls -A "$tmp" | grep '^\.rf\.run-')" ] && ok || bad "staging folder left beside rf"
# A crash at each step of the commit (test hook) leaves the old complete set or the new one.
for step in 1 2 3; do
  STATEGRAPH_TEST_CRASH_AT=$step "$bin" analyze --rule sliding --rows 2 --cols 4 --out "$f" --quiet >/dev/null 2>&1
  now=$(ls "$f" | sort | tr '\n' ' ')
  [ "$now" = "$small" ] || [ "$now" = "$full" ] && ok || bad "crash at step $step left a mix: $now"
  [ "$(cat "$f/README.md")" = mine ] && ok || bad "crash at step $step lost README.md"
  "$bin" analyze --rule sliding --rows 2 --cols 4 --no-graph --no-plot --out "$f" --quiet >/dev/null 2>&1  # back to the small set
done
expect 0 "after the crashes" -- "$bin" analyze --rule sliding --rows 2 --cols 4 --out "$f" --quiet
[ "$(ls "$f" | sort | tr '\n' ' ')" = "$full" ] && ok || bad "full set after the crashes: $(ls "$f")"
[ -z "$(ls -A "$tmp" | grep '^\.rf\.run-')" ] && ok || bad "a crashed run's staging folder was not cleaned up"
# A cardswap --start is part of the default folder name; --all keeps cardswap-2x3.
(cd "$tmp" && "$bin" analyze --rule cardswap --start 'A B/***' --no-graph --no-plot --quiet >/dev/null 2>&1) || bad "cardswap default folder run"
[ -s "$tmp/results/cardswap-2x3-start-A_B-xxx/summary.csv" ] && ok || bad "cardswap start folder: $(ls "$tmp/results")"
[ "$(col "$tmp/results/cardswap-2x3-start-A_B-xxx/run.csv" start)" = "A_B/***" ] && ok || bad "run.csv start column"
# --start on a rule other than cardswap: the BFS runs from it.
untimed() { # untimed FILE: the CSV without its *seconds* columns
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) keep[i] = $i !~ /seconds/ }
           { out = ""; for (i = 1; i <= NF; i++) if (keep[i]) out = out $i ","; print out }' "$1"
}
g=(analyze --rows 2 --cols 3 --no-plot --quiet)
for spec in "sliding|1 2 3/4 5 _" "primeswap|1 2 3/4 5 6" "rotate|1 2 3/4 5 6" "adjswap|1 2 3/4 5 6"; do
  rule=${spec%%|*} goal=${spec#*|} a0=$tmp/g0-${spec%%|*} a1=$tmp/g1-${spec%%|*}
  "$bin" "${g[@]}" --rule "$rule" --out "$a0" >/dev/null 2>&1 || bad "$rule without start"
  expect 0 "$rule with its goal as start" -- "$bin" "${g[@]}" --rule "$rule" --start "$goal" --out "$a1"
  [ "$(ls "$a0")" = "$(ls "$a1")" ] && ok || bad "$rule: the goal as start wrote other files"
  for f in $(ls "$a0" | grep -vx run.csv); do
    [ "$(untimed "$a0/$f")" = "$(untimed "$a1/$f")" ] && ok || bad "$rule: the goal as start changed $f"
  done
done
# Swapping tiles 1 and 2 maps the sliding goal's class onto the other and keeps distances:
# a start there has the goal's distribution; its antipodes are the goal's with 1 and 2 swapped.
s0=$tmp/g0-sliding s2=$tmp/g2
expect 0 "sliding start of the other parity class" -- "$bin" "${g[@]}" --rule sliding --start '2 1 3/4 5 _' --out "$s2"
[ "$(cat "$s2/distribution.csv")" = "$(cat "$s0/distribution.csv")" ] && ok || bad "other-class start: distribution"
[ "$(cut -d, -f2 "$s2/antipodes.csv" | sort)" = "$(cut -d, -f2 "$s0/antipodes.csv" | tr 12 21 | sort)" ] && ok ||
  bad "other-class start: antipodes"
[ "$(col "$s2/summary.csv" reachable),$(col "$s2/summary.csv" goal_component_size)" = "360,360" ] && ok ||
  bad "other-class start: summary"
# A start elsewhere: the distribution sums to the class, the start's eccentricity is its last depth.
expect 0 "sliding start elsewhere" -- "$bin" "${g[@]}" --rule sliding --start '1 2 3/4 _ 5' --out "$tmp/g3"
[ "$(sed -n 2p "$tmp/g3/distribution.csv" | cut -d, -f1,2)" = "0,1" ] && ok || bad "start at depth 0"
[ "$(tail -1 "$tmp/g3/distribution.csv" | cut -d, -f1)" = "$(col "$tmp/g3/summary.csv" max_depth)" ] && ok ||
  bad "start's eccentricity"
(cd "$tmp" && "$bin" "${g[@]}" --rule sliding --start '2 1 3/4 5 _' --no-graph >/dev/null 2>&1) ||
  bad "sliding start default folder run"
[ "$(col "$tmp/results/sliding-2x3-start-2_1_3-4_5__/run.csv" start)" = "2 1 3/4 5 _" ] && ok ||
  bad "sliding start folder and run.csv: $(ls "$tmp/results")"
i=0
for spec in "sliding|1 2 3/4 5 5" "sliding|1 2 3/4 5" "primeswap|1 2 3/4 5 7" "rotate|1 2 3/4 5 6 7" "adjswap|a/b"; do
  i=$((i + 1))
  expect 2 "bad start ${spec#*|} for ${spec%%|*}" -- "$bin" "${g[@]}" --rule "${spec%%|*}" --start "${spec#*|}" \
    --out "$tmp/bs$i"
  [ -e "$tmp/bs$i" ] && bad "bad start $i: output written" || ok
done
# --- end shared options ---

# export: the size first, the files whole, bad options and a graph above --max-edges refused
# with one line and nothing written (tests/networkx_check.py checks the graphs themselves).
expect 0 "export sliding 2x3" -- "$bin" export --rule sliding --rows 2 --cols 3 --format el,mtx,graphml,dot --out "$tmp/x1"
e23=$(col "$tmp/s23/summary.csv" edges)
grep -q "^sliding-2x3: 360 vertices, $e23 edges (undirected)" "$tmp/err" && ok || bad "export size line: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/x1/graph.el")" = "$e23" ] && [ "$(wc -l <"$tmp/x1/vertices.csv")" = 361 ] && ok || bad "export files"
[ "$(col "$tmp/x1/run.csv" command)" = export ] && ok || bad "export run.csv"
[ "$(grep -c ',1 2 3/4 5 _,0,0$' "$tmp/x1/vertices.csv")" = 1 ] && ok || bad "vertices.csv: the goal at depth 0"
expect 0 "export rotate 2x3 by rank, one component" -- "$bin" export --rule rotate --rows 2 --cols 3 --ids rank \
  --no-vertices --component 0 --out "$tmp/x2"
# rotate 2x3 falls into 6 components of 120 states; each state has 2 turns.
[ "$(wc -l <"$tmp/x2/graph.el")" = 240 ] && [ ! -e "$tmp/x2/vertices.csv" ] && grep -q '120 vertices, 240 arcs' "$tmp/out" &&
  ok || bad "rotate 2x3 component 0: 120 x 2 arcs"
for spec in "--format csv" "--ids names" "--ids dense --no-vertices" "--component 5" "--component 0 --whole-space" \
            "--max-edges 100" "--format dot --max-edges $((e23 - 1))"; do
  i=$((i + 1))
  # shellcheck disable=SC2086
  expect 2 "export refuses $spec" -- "$bin" export --rule sliding --rows 2 --cols 3 $spec --out "$tmp/xb$i"
  [ -e "$tmp/xb$i" ] && bad "export $spec: output written" || ok
done
expect 2 "export without --out" -- "$bin" export --rule sliding
# draw: a picture through Graphviz (setup.sh installs it); refused for a large space, nothing written.
if command -v sfdp >/dev/null; then
  expect 0 "draw cardswap" -- "$bin" draw --rule cardswap --out "$tmp/dr1"
  head -c 400 "$tmp/dr1/drawing.svg" | grep -q '<svg' && [ -s "$tmp/dr1/drawing.png" ] && [ -s "$tmp/dr1/drawing.dot" ] &&
    [ "$(wc -l <"$tmp/dr1/vertices.csv")" = 121 ] && ok || bad "draw cardswap files"
else
  expect 2 "draw without Graphviz" -- "$bin" draw --rule cardswap --out "$tmp/dr1"
fi
expect 2 "draw refuses a large space" -- "$bin" draw --rule sliding --rows 3 --cols 4 --out "$tmp/dr2"
[ -e "$tmp/dr2" ] && bad "draw of a large space wrote a folder" || ok

echo "cli_test: $pass passed, $fail failed"
[ "$fail" = 0 ]
