#!/usr/bin/env bash
# End-to-end tests of `stategraph check-bounds`: the committed small folders pass, fresh
# analyze folders pass (the goal component's witnesses, a masked search with a pair
# bound, a search stopped by its budget, a directed rule with hand-written witnesses),
# and tampered copies fail with exit 1 naming the row; bad input exits 2.
# Usage: check_bounds_test.sh path/to/stategraph
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$(dirname "$0")/.." && pwd)
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
  if [ "$got" != "$want" ]; then bad "$what: exit $got, wanted $want ($(tail -c 300 "$tmp/err"))"; return; fi
  if [ "$want" != 0 ] && [ "$(wc -l <"$tmp/err")" != 1 ]; then bad "$what: stderr is not one line"; cat "$tmp/err"; return; fi
  ok
}
# err_has TEXT DESCRIPTION: the last command's stderr holds TEXT.
err_has() { grep -qF -- "$1" "$tmp/err" && ok || bad "$2: stderr lacks '$1': $(cat "$tmp/err")"; }

# A copy of folder $1 as $2 whose witness file gets the sed script $3.
tamper() {
  rm -rf "$2" && cp -r "$1" "$2"
  sed -i "$3" "$2/diameter_witnesses.csv"
  cmp -s "$1/diameter_witnesses.csv" "$2/diameter_witnesses.csv" && bad "tamper $2: sed '$3' changed nothing"
}

expect 0 "check-bounds --help" -- "$bin" check-bounds --help
grep -q "eccentricity" "$tmp/out" && ok || bad "check-bounds --help explains the rows"

# The committed folder: primeswap 3x3 (17 BFS sources, 119 images, bounds 98 = 98).
p33="$src/results/primeswap-3x3"
expect 0 "committed primeswap-3x3" -- "$bin" check-bounds "$p33" --threads 2
grep -q "every bound holds" "$tmp/out" && ok || bad "primeswap-3x3: no summary line: $(cat "$tmp/out")"
grep -q "17 source eccentricities, 119 images, sources bound 98" "$tmp/out" && ok ||
  bad "primeswap-3x3: 17 sources, 119 images, bound 98: $(cat "$tmp/out")"

# A folder without run.csv (as results/primeswap-3x4): the rule from summary.csv.
rm -rf "$tmp/norun" && cp -r "$p33" "$tmp/norun" && rm "$tmp/norun/run.csv"
expect 0 "no run.csv: the rule from summary.csv" -- "$bin" check-bounds "$tmp/norun"

# Tampered copies (data rows counted from 1 after the header).
tamper "$p33" "$tmp/t-ecc" '4s/,68$/,67/'  # row 3: the goal's eccentricity 68 -> 67
expect 1 "a source's eccentricity lowered by one" -- "$bin" check-bounds "$tmp/t-ecc"
err_has "diameter_witnesses.csv row 3: source 1 2 3/4 5 6/7 8 9 has eccentricity 68, not 67" "lowered eccentricity"

tamper "$p33" "$tmp/t-lower" '2s|,4 2 5/8 7 9/6 1 3,|,1 2 3/4 5 6/7 8 9,|'  # row 1: the lower pair's far end -> the goal
expect 1 "the lower pair's other state changed" -- "$bin" check-bounds "$tmp/t-lower"
err_has "diameter_witnesses.csv row 1: lower: d(1 2 6/3 7 8/9 5 4, 1 2 3/4 5 6/7 8 9) is" "changed lower pair"

tamper "$p33" "$tmp/t-swap" '2s|,4 2 5/8 7 9/6 1 3,|,2 4 5/8 7 9/6 1 3,|'  # row 1: two tiles swapped
expect 1 "two tiles of the lower pair swapped" -- "$bin" check-bounds "$tmp/t-swap"
err_has "diameter_witnesses.csv row 1:" "swapped tiles"

tamper "$p33" "$tmp/t-upper" '3s/,98$/,97/'  # row 2: upper 98 -> 97
expect 1 "upper lowered by one" -- "$bin" check-bounds "$tmp/t-upper"
err_has "diameter_witnesses.csv row 2: upper 97 is below the bound the sources give: 98" "lowered upper"

# row 20: an image of the goal; its other_state replaced by an unrelated BFS source.
tamper "$p33" "$tmp/t-image" '21s|,1 2 3/4 5 6/7 8 9,68$|,1 5 3/8 9 6/7 4 2,68|'
expect 1 "an image's source replaced" -- "$bin" check-bounds "$tmp/t-image"
err_has "diameter_witnesses.csv row 20: no automorphism of primeswap" "replaced image source"

# components.csv must agree: a diameter outside the witnesses' bounds fails.
rm -rf "$tmp/t-comp" && cp -r "$p33" "$tmp/t-comp"
sed -i '2s/^0,177872,\(.*\),68,98,98,98,/0,177872,\1,68,97,98,98,/' "$tmp/t-comp/components.csv"
expect 1 "components.csv diameter outside the bounds" -- "$bin" check-bounds "$tmp/t-comp"
err_has "components.csv row 1 (component 0): diameter 97 outside" "components.csv diameter"

# Fresh folders: the default search (BoundingDiameters with images), a masked search
# with its pair bound, and a masked search stopped by its budget (bounds apart).
expect 0 "analyze primeswap 3x3" -- "$bin" analyze --rule primeswap --rows 3 --cols 3 --out "$tmp/f1" --quiet
expect 0 "fresh primeswap 3x3" -- "$bin" check-bounds "$tmp/f1"
expect 0 "analyze primeswap 3x3 masked" -- "$bin" analyze --rule primeswap --rows 3 --cols 3 \
  --max-exact-states 100000 --out "$tmp/f2" --quiet
grep -q ",pair_upper," "$tmp/f2/diameter_witnesses.csv" && ok || bad "masked search wrote no pair_upper row"
expect 0 "fresh primeswap 3x3 masked (pair bound)" -- "$bin" check-bounds "$tmp/f2"
grep -q "pair bound" "$tmp/out" && ok || bad "masked: the pair bound was not checked: $(cat "$tmp/out")"
tamper "$tmp/f2" "$tmp/f2-pair" '/,pair_upper,/s/,\([0-9]*\)$/,1/'
expect 1 "pair_upper lowered" -- "$bin" check-bounds "$tmp/f2-pair"
err_has "pair_upper 1 is below the pair bound" "lowered pair_upper"
expect 0 "analyze primeswap 3x3 masked, budget 3 runs" -- "$bin" analyze --rule primeswap --rows 3 --cols 3 \
  --max-exact-states 100000 --diameter-budget-runs 3 --no-diameter-symmetry --out "$tmp/f3" --quiet
expect 0 "fresh primeswap 3x3, bounds apart" -- "$bin" check-bounds "$tmp/f3"

# A directed rule (rotate 2x3; Cayley, so analyze writes no witnesses): hand-written
# witnesses. lower: an antipode of the goal (its BFS follows predecessors: d(a, goal) =
# max_depth); one source, the goal, whose out-eccentricity is max_depth too; upper:
# max_w d(w, goal) + ecc(goal) = 2 max_depth.
expect 0 "analyze rotate 2x3" -- "$bin" analyze --rule rotate --rows 2 --cols 3 --out "$tmp/r" --quiet
expect 2 "no diameter_witnesses.csv" -- "$bin" check-bounds "$tmp/r"
err_has "has no diameter_witnesses.csv" "no witnesses file"
depth=$(sed -n 2p "$tmp/r/summary.csv" | cut -d, -f6)
anti=$(sed -n 2p "$tmp/r/antipodes.csv" | cut -d, -f2)
rm "$tmp/r/components.csv"  # its bounds are exact (Cayley); these witnesses prove less
{
  echo "component,kind,state,other_state,value"
  echo "0,lower,$anti,1 2 3/4 5 6,$depth"
  echo "0,upper,,,$((2 * depth))"
  echo "0,source,1 2 3/4 5 6,,$depth"
} >"$tmp/r/diameter_witnesses.csv"
expect 0 "directed rotate 2x3" -- "$bin" check-bounds "$tmp/r"
tamper "$tmp/r" "$tmp/r-upper" "3s/,$((2 * depth))\$/,$((2 * depth - 1))/"
expect 1 "directed: upper lowered by one" -- "$bin" check-bounds "$tmp/r-upper"
err_has "row 2: upper $((2 * depth - 1)) is below" "directed lowered upper"
tamper "$tmp/r" "$tmp/r-lower" "2s|,$anti,1 2 3/4 5 6,|,1 2 3/4 5 6,$anti,|"
expect 1 "directed: the lower pair reversed (d(goal, a) = 7, d(a, goal) = 9)" -- "$bin" check-bounds "$tmp/r-lower"
err_has "row 1: lower: d(1 2 3/4 5 6, $anti) is 7, not $depth" "directed reversed lower pair"

# Bad input: exit 2, one line.
expect 2 "missing folder" -- "$bin" check-bounds "$tmp/nowhere"
rm -rf "$tmp/b" && cp -r "$p33" "$tmp/b"
sed -i '5s/,source,/,sauce,/' "$tmp/b/diameter_witnesses.csv"
expect 2 "unknown kind" -- "$bin" check-bounds "$tmp/b"
err_has "row 4: unknown kind 'sauce'" "unknown kind"
rm -rf "$tmp/b" && cp -r "$p33" "$tmp/b"
sed -i '5s|,1 2 6/3 7 8/9 5 4,|,1 2 6/3 7 8/9 5 5,|' "$tmp/b/diameter_witnesses.csv"
expect 2 "malformed state" -- "$bin" check-bounds "$tmp/b"
rm -rf "$tmp/b" && cp -r "$p33" "$tmp/b"
sed -i '2s/,primeswap,3,3,/,primeswop,3,3,/' "$tmp/b/run.csv"
expect 2 "unknown rule" -- "$bin" check-bounds "$tmp/b"
rm -rf "$tmp/b" && cp -r "$p33" "$tmp/b"
head -1 "$p33/diameter_witnesses.csv" >"$tmp/b/diameter_witnesses.csv"
expect 0 "no witness rows" -- "$bin" check-bounds "$tmp/b"
grep -q "nothing to check" "$tmp/out" && ok || bad "no rows: says nothing to check"
expect 2 "--threads 999" -- "$bin" check-bounds "$p33" --threads 999

echo "check_bounds_test: $pass passed, $fail failed"
[ "$fail" = 0 ]
