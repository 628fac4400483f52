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
[ "$(head -1 "$tmp/s23/distribution.csv")" = "depth,states,cumulative,fraction" ] && ok || bad "distribution header"
[ "$(tail -1 "$tmp/s23/distribution.csv" | cut -d, -f1,3)" = "21,360" ] && ok || bad "sliding 2x3: last depth 21, cumulative 360"
head -1 "$tmp/s23/summary.csv" | grep -q '^rule,rows,cols,space_size,reachable,max_depth,antipodes,variant,threads,seconds' && ok || bad "summary header"
[ "$(sed -n 2p "$tmp/s23/summary.csv" | cut -d, -f1-7)" = "sliding,2,3,360,360,21,1" ] && ok || bad "summary row: $(sed -n 2p "$tmp/s23/summary.csv")"
ls "$tmp/s23" | grep -q tmp && bad "temporary file left behind" || ok

expect 0 "analyze cardswap with start" -- "$bin" analyze --rule cardswap --start 'A B/***' --out "$tmp/c" --quiet
[ "$(sed -n 2p "$tmp/c/summary.csv" | awk -F, '{print $NF}')" = "12" ] && ok || bad "cardswap start A B/*** at distance 12"

expect 0 "analyze --all" -- "$bin" analyze --all --out "$tmp/all" --quiet
for d in sliding-3x3 rotate-3x3 primeswap-3x3 cardswap-2x3; do
  [ -s "$tmp/all/$d/distribution.csv" ] && [ -s "$tmp/all/$d/summary.csv" ] && ok || bad "--all wrote $d"
done
[ "$(sed -n 2p "$tmp/all/cardswap-2x3/summary.csv" | awk -F, '{print $NF}')" = "17" ] && ok || bad "seed cardswap at distance 17"

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

echo "cli_test: $pass passed, $fail failed"
[ "$fail" = 0 ]
