#!/usr/bin/env bash
# End-to-end reliability tests of the stategraph binary: hostile CLI input,
# SIGINT/SIGTERM, --checkpoint/--resume after a SIGKILL, damaged checkpoints, unwritable
# and full outputs, allocation failure, and determinism of every CSV across variants.
# Usage: cli_reliability_test.sh path/to/stategraph
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
  # Input bytes are echoed escaped (\xHH): an error line is printable ASCII.
  if [ "$want" != 0 ] && LC_ALL=C grep -q '[^ -~]' "$tmp/err"; then bad "$what: stderr has a byte outside printable ASCII: $(od -c "$tmp/err" | head -3)"; return; fi
  ok
}
has() { grep -q -- "$1" "$tmp/err" && ok || bad "'$1' not in: $(cat "$tmp/err")"; }
no_csv() { [ -z "$(ls "$1" 2>/dev/null)" ] && ok || bad "$1 should hold nothing: $(ls "$1")"; }
# The CSVs of a folder without the run's own columns: seconds, variant, threads, peak_bytes
# (summary), seconds and direction (levels), diameter_seconds and the graph phase's split;
# without run.csv (dates, times).
strip_run() {
  local d=$1
  for f in "$d"/*.csv; do
    case $(basename "$f") in
      run.csv) ;;
      summary.csv) awk -F, -v OFS=, '{ $8 = $9 = $10 = $11 = $21 = $26 = $27 = $28 = ""; print }' "$f" ;;
      levels.csv) cut -d, -f1,2 "$f" ;;
      *) cat "$f" ;;
    esac
  done
}

# --- hostile CLI numbers and sizes: exit 2, one line, nothing written ---
a=(analyze --quiet --no-graph)
expect 2 "threads above the bound" -- "$bin" "${a[@]}" --rule sliding --threads 257 --out "$tmp/n0"
[ -e "$tmp/n0" ] && bad "n0: output written for bad input" || ok
expect 2 "negative threads" -- "$bin" "${a[@]}" --rule sliding --threads -1 --out "$tmp/n1"
expect 2 "threads beyond int" -- "$bin" "${a[@]}" --rule sliding --threads 99999999999 --out "$tmp/n2"
expect 2 "rows beyond int" -- "$bin" "${a[@]}" --rule sliding --rows 99999999999 --cols 2 --out "$tmp/n3"
expect 2 "rows*cols overflowing int" -- "$bin" "${a[@]}" --rule sliding --rows 65536 --cols 65536 --out "$tmp/n4"
has "not supported"
expect 2 "1x16" -- "$bin" "${a[@]}" --rule rotate --rows 1 --cols 16 --out "$tmp/n5"
expect 2 "17 cells" -- "$bin" "${a[@]}" --rule rotate --rows 1 --cols 17 --out "$tmp/n6"
expect 2 "25 cells (25! overflows 64-bit ranks)" -- "$bin" "${a[@]}" --rule rotate --rows 5 --cols 5 --out "$tmp/n7"
expect 2 "negative rows" -- "$bin" "${a[@]}" --rule rotate --rows -3 --cols 3 --out "$tmp/n8"
expect 2 "bad --max-memory" -- "$bin" "${a[@]}" --rule rotate --max-memory -5 --out "$tmp/n9"
expect 2 "--max-memory too small" -- "$bin" "${a[@]}" --rule rotate --max-memory 1K --out "$tmp/n10"
expect 2 "non-ASCII rule name" -- "$bin" "${a[@]}" --rule $'sl\xc3\xafding' --out "$tmp/n11"
expect 2 "non-ASCII --start" -- "$bin" "${a[@]}" --rule cardswap --start $'* \xc3\x84/**B' --out "$tmp/n12"
expect 2 "non-ASCII card in a row of the right byte length" -- "$bin" "${a[@]}" --rule cardswap --start $'*\xc3\x84/**B' --out "$tmp/n12b"
has '\\xc3'
expect 2 "negative --checkpoint-interval" -- "$bin" "${a[@]}" --rule sliding --checkpoint "$tmp/c0" --checkpoint-interval -1 --out "$tmp/n13"
expect 2 "NaN --checkpoint-interval" -- "$bin" "${a[@]}" --rule sliding --checkpoint "$tmp/c0" --checkpoint-interval nan --out "$tmp/n14"
expect 2 "negative --max-components" -- "$bin" analyze --quiet --rule sliding --max-components -1 --out "$tmp/n15"
expect 2 "solve: huge T" -- sh -c "printf '999999999\n1 2 3\n4 5 6\n7 8 9\n' | '$bin' solve --rule rotate"
has "query 2"
expect 2 "solve: non-ASCII --state" -- "$bin" solve --rule rotate --state $'1 2 3/4 5 6/7 8 \xe2\x82\xac'
has '\\xe2'
expect 2 "solve: bad --threads" -- "$bin" solve --rule rotate --threads -2 --state 123456789
for i in $(seq 1 15); do [ -e "$tmp/n$i" ] && bad "n$i: output written for bad input" || ok; done
[ -e "$tmp/c0" ] && bad "checkpoint folder created for bad input" || ok

# --- SIGINT / SIGTERM: stop at a safe point, no CSV, exit 130 / 143, one line ---
# Deterministic: the test hook raises the signal right after depth 20 is recorded.
STATEGRAPH_TEST_SIGNAL_AT_DEPTH=20:2 expect 130 "SIGINT during the BFS" -- "$bin" "${a[@]}" --rule sliding --rows 2 --cols 5 --out "$tmp/int"
has "interrupted by SIGINT during the BFS (after depth 20)"
no_csv "$tmp/int"
STATEGRAPH_TEST_SIGNAL_AT_DEPTH=5:15 expect 143 "SIGTERM during the BFS" -- "$bin" analyze --quiet --rule primeswap --variant twobit --out "$tmp/term"
has "SIGTERM"
no_csv "$tmp/term"
STATEGRAPH_TEST_SIGNAL_AT_DEPTH=3:2 expect 130 "SIGINT, serial" -- "$bin" "${a[@]}" --rule sliding --variant serial --out "$tmp/int2"
no_csv "$tmp/int2"
# sigint_after SECONDS WHAT -- CMD...: runs CMD (stderr to $tmp/err), sends it SIGINT after
# SECONDS, and checks it exits 130 within 10 s of the signal.
sigint_after() {
  local delay=$1 what=$2; shift 3
  "$@" >/dev/null 2>"$tmp/err" &
  local pid=$!
  sleep "$delay"
  kill -INT "$pid"
  local start rc
  start=$(date +%s)
  wait "$pid"
  rc=$?
  [ "$rc" = 130 ] && ok || bad "$what, external SIGINT: exit $rc ($(cat "$tmp/err"))"
  [ $(($(date +%s) - start)) -le 10 ] && ok || bad "$what took more than 10 s to stop"
}

# Asynchronous: a real SIGINT from outside into a 40-second rotate 3x4 search.
sigint_after 1.5 "analyze" -- "$bin" analyze --quiet --no-graph --rule rotate --rows 3 --cols 4 --out "$tmp/int3"
has "interrupted by SIGINT"
no_csv "$tmp/int3"

# The graph phase stops on a signal too: a real SIGINT into primeswap 2x5's masked search
# of its giant component (about 20 s of bounding BFS runs), sent once the search has
# reported its second BFS: exit 130 within 2 s, one line, nothing written.
"$bin" analyze --rule primeswap --rows 2 --cols 5 --max-exact-states 1000 --graph-progress --no-plot \
  --out "$tmp/gint" >/dev/null 2>"$tmp/err" &
gpid=$!
for _ in $(seq 1 600); do grep -q "large component (1458616 states): BFS 2 " "$tmp/err" && break; sleep 0.1; done
grep -q "large component (1458616 states): BFS 2 " "$tmp/err" && ok || bad "graph phase: no masked BFS reported: $(tail -1 "$tmp/err")"
gstart=$(date +%s%N)
kill -INT "$gpid"
wait "$gpid"
grc=$?
gms=$((($(date +%s%N) - gstart) / 1000000))
[ "$grc" = 130 ] && ok || bad "graph phase, SIGINT: exit $grc ($(tail -1 "$tmp/err"))"
[ "$gms" -le 2000 ] && ok || bad "graph phase took $gms ms to stop after SIGINT"
has "interrupted by SIGINT during the graph phase of primeswap-2x5; no results written for it"
grep -q "large component (1458616 states): BFS 18 " "$tmp/err" && bad "graph phase: the masked search ran to its end" || ok
[ -e "$tmp/gint" ] && bad "graph phase interrupt wrote its folder" || ok

# compare: a real SIGINT from outside stops it between two runs: one line, exit 130, no folder.
sigint_after 2 "compare" -- "$bin" compare --quiet --no-plot --rule sliding --rows 2 --cols 5 --variants hybrid,serial \
  --threads 1 --repeat 500 --out "$tmp/cint"
[ "$(wc -l <"$tmp/err")" = 1 ] && has "compare interrupted by SIGINT after [0-9]* of 1001 runs" || bad "compare interrupt: $(cat "$tmp/err")"
[ -e "$tmp/cint" ] && bad "interrupted compare wrote its folder" || ok
# ... and inside a run: a rotate 3x4 warm-up (about 40 s) stops within seconds.
sigint_after 2 "compare inside a run" -- "$bin" compare --quiet --no-plot --rule rotate --rows 3 --cols 4 \
  --variants hybrid --threads 1 --repeat 1 --out "$tmp/cint2"
[ "$(wc -l <"$tmp/err")" = 1 ] && has "compare interrupted by SIGINT after 0 of 2 runs" || bad "compare interrupt in a run: $(cat "$tmp/err")"
[ -e "$tmp/cint2" ] && bad "compare interrupted in a run wrote its folder" || ok

# --- --checkpoint / --resume after SIGKILL (test hook: SIGKILL right after save N) ---
ref() { # ref NAME ARGS...: an uninterrupted run into $tmp/NAME
  local name=$1; shift
  "$bin" analyze --quiet "$@" --out "$tmp/$name" >/dev/null 2>&1 || bad "reference run $name"
}
for variant in hybrid twobit topdown; do
  for graph in --no-graph ""; do
    name=$variant${graph:+-nograph}
    ref "ref-$name" --rule sliding --rows 2 --cols 5 --variant "$variant" $graph
    STATEGRAPH_TEST_KILL_AFTER_CHECKPOINT=25 "$bin" analyze --quiet --rule sliding --rows 2 --cols 5 --variant "$variant" $graph \
      --checkpoint "$tmp/ck-$name" --checkpoint-interval 0 --out "$tmp/res-$name" >/dev/null 2>&1
    rc=$?
    [ "$rc" = 137 ] && ok || bad "$name: the hooked run should die of SIGKILL, exit $rc"
    [ -s "$tmp/ck-$name/checkpoint.sgck" ] && ok || bad "$name: no checkpoint after the kill"
    no_csv "$tmp/res-$name"
    ls "$tmp/ck-$name" | grep -q tmp && bad "$name: temporary checkpoint left" || ok
    # --variant auto adopts the checkpoint's variant.
    expect 0 "$name: resume" -- "$bin" analyze --quiet --rule sliding --rows 2 --cols 5 $graph --resume "$tmp/ck-$name" --out "$tmp/res-$name"
    diff <(strip_run "$tmp/ref-$name") <(strip_run "$tmp/res-$name") >/dev/null && ok || bad "$name: resumed CSVs differ from the uninterrupted run"
    diff <(cut -d, -f1-3 "$tmp/ref-$name/levels.csv") <(cut -d, -f1-3 "$tmp/res-$name/levels.csv") >/dev/null && ok || bad "$name: levels (with directions) differ"
    [ ! -e "$tmp/ck-$name/checkpoint.sgck" ] && ok || bad "$name: checkpoint kept after a finished run"
  done
done
# Two kills in a row, then resume.
STATEGRAPH_TEST_KILL_AFTER_CHECKPOINT=10 "$bin" "${a[@]}" --rule rotate --checkpoint "$tmp/ck2" --checkpoint-interval 0 --out "$tmp/r2" >/dev/null 2>&1
STATEGRAPH_TEST_KILL_AFTER_CHECKPOINT=3 "$bin" "${a[@]}" --rule rotate --resume "$tmp/ck2" --checkpoint-interval 0 --out "$tmp/r2" >/dev/null 2>&1
[ "$?" = 137 ] && ok || bad "second kill"
expect 0 "resume after two kills" -- "$bin" "${a[@]}" --rule rotate --resume "$tmp/ck2" --out "$tmp/r2"
ref r2ref --no-graph --rule rotate
diff "$tmp/r2/distribution.csv" "$tmp/r2ref/distribution.csv" >/dev/null && ok || bad "rotate 3x3 after two kills"

# A --start of sliding's other parity class, killed and resumed.
st='2 1 3 4 5/6 7 8 9 _'
ref ckst-ref --no-graph --rule sliding --rows 2 --cols 5 --start "$st"
STATEGRAPH_TEST_KILL_AFTER_CHECKPOINT=20 "$bin" "${a[@]}" --rule sliding --rows 2 --cols 5 --start "$st" \
  --checkpoint "$tmp/ckst" --checkpoint-interval 0 --out "$tmp/rst" >/dev/null 2>&1
[ "$?" = 137 ] && ok || bad "--start run: the hooked run should die of SIGKILL"
expect 0 "resume a --start run" -- "$bin" "${a[@]}" --rule sliding --rows 2 --cols 5 --start "$st" --resume "$tmp/ckst" \
  --out "$tmp/rst"
diff "$tmp/rst/distribution.csv" "$tmp/ckst-ref/distribution.csv" >/dev/null && ok || bad "--start run after a kill"

# --- checkpoint refusals: exit 2, one line ---
STATEGRAPH_TEST_KILL_AFTER_CHECKPOINT=12 "$bin" "${a[@]}" --rule sliding --rows 2 --cols 5 --checkpoint "$tmp/ck3" --checkpoint-interval 0 --out "$tmp/r3" >/dev/null 2>&1
cp "$tmp/ck3/checkpoint.sgck" "$tmp/good.sgck"
expect 2 "resume another rule" -- "$bin" "${a[@]}" --rule rotate --rows 2 --cols 5 --resume "$tmp/ck3" --out "$tmp/r3"
has "does not match this run: it is of sliding 2x5"
expect 2 "resume another size" -- "$bin" "${a[@]}" --rule sliding --rows 3 --cols 3 --resume "$tmp/ck3" --out "$tmp/r3"
expect 2 "resume with another variant" -- "$bin" "${a[@]}" --rule sliding --rows 2 --cols 5 --variant twobit --resume "$tmp/ck3" --out "$tmp/r3"
has "variant hybrid"
expect 2 "resume with a --start" -- "$bin" "${a[@]}" --rule sliding --rows 2 --cols 5 --start '1 2 3 4 5/6 7 8 _ 9' \
  --resume "$tmp/ck3" --out "$tmp/r3"
has "another start set"
expect 2 "resume with a depth table (graph on)" -- "$bin" analyze --quiet --rule sliding --rows 2 --cols 5 --resume "$tmp/ck3" --out "$tmp/r3"
has "depth table"
expect 2 "--checkpoint over an existing checkpoint" -- "$bin" "${a[@]}" --rule sliding --rows 2 --cols 5 --checkpoint "$tmp/ck3" --out "$tmp/r3"
has "already holds a checkpoint"
expect 2 "--checkpoint with serial" -- "$bin" "${a[@]}" --rule sliding --variant serial --checkpoint "$tmp/ck4" --out "$tmp/r4"
has "cannot save checkpoints"
expect 2 "--checkpoint with reference" -- "$bin" "${a[@]}" --rule sliding --variant reference --checkpoint "$tmp/ck4" --out "$tmp/r4"
expect 2 "--checkpoint with --all" -- "$bin" analyze --quiet --all --checkpoint "$tmp/ck4" --out "$tmp/r4"
expect 2 "--resume of an empty folder" -- "$bin" "${a[@]}" --rule sliding --resume "$tmp" --out "$tmp/r4"
has "cannot open checkpoint"
printf '\xa5' | dd of="$tmp/ck3/checkpoint.sgck" bs=1 seek=3000 conv=notrunc status=none
expect 2 "corrupted checkpoint" -- "$bin" "${a[@]}" --rule sliding --rows 2 --cols 5 --resume "$tmp/ck3" --out "$tmp/r3"
has "checksum mismatch"
cp "$tmp/good.sgck" "$tmp/ck3/checkpoint.sgck"
truncate -s 100000 "$tmp/ck3/checkpoint.sgck"
expect 2 "truncated checkpoint" -- "$bin" "${a[@]}" --rule sliding --rows 2 --cols 5 --resume "$tmp/ck3" --out "$tmp/r3"
has "truncated"
head -c 4096 /dev/urandom >"$tmp/ck3/checkpoint.sgck"
expect 2 "random bytes as a checkpoint" -- "$bin" "${a[@]}" --rule sliding --rows 2 --cols 5 --resume "$tmp/ck3" --out "$tmp/r3"
has "bad magic"
no_csv "$tmp/r3"
# A checkpoint of format version 1 (tests/data/, written by the stategraph before XXH3).
mkdir -p "$tmp/ckold" && cp "$(dirname "$0")/data/sliding_2x3_v1.sgck" "$tmp/ckold/checkpoint.sgck"
expect 2 "checkpoint of an older format" -- "$bin" "${a[@]}" --rule sliding --rows 2 --cols 3 --resume "$tmp/ckold" --out "$tmp/rold"
has "format version 1, this build reads version 2: written by an older stategraph"
no_csv "$tmp/rold"
[ -e "$tmp/r4" ] && bad "r4 written for a refused checkpoint" || ok

# --- unwritable, unreadable and full outputs: exit 1, one line, no file left ---
touch "$tmp/file"
expect 1 "--out under a regular file" -- "$bin" "${a[@]}" --rule sliding --rows 2 --cols 3 --out "$tmp/file/sub"
has "Not a directory"
expect 1 "--checkpoint under a regular file" -- "$bin" "${a[@]}" --rule sliding --checkpoint "$tmp/file/ck" --out "$tmp/w1"
has "checkpoint folder"
[ -e "$tmp/w1" ] && bad "w1 written" || ok
# A full disk, simulated with a file size limit (writes fail with EFBIG; SIGXFSZ ignored).
(trap '' XFSZ; ulimit -f 1; exec "$bin" "${a[@]}" --rule sliding --rows 2 --cols 5 --out "$tmp/full") >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 1 ] && ok || bad "full disk: exit $rc ($(cat "$tmp/err"))"
has "cannot write"
[ -z "$(ls "$tmp/full" 2>/dev/null)" ] && ok || bad "full disk left files: $(ls "$tmp/full")"
(trap '' XFSZ; ulimit -f 100; exec "$bin" "${a[@]}" --rule sliding --rows 2 --cols 5 --checkpoint "$tmp/ckfull" --checkpoint-interval 0 --out "$tmp/full2") >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 1 ] && ok || bad "full disk while checkpointing: exit $rc ($(cat "$tmp/err"))"
has "cannot write checkpoint"
[ -z "$(ls "$tmp/ckfull")" ] && ok || bad "a partial checkpoint was left: $(ls "$tmp/ckfull")"
no_csv "$tmp/full2"
if [ -w /dev/full ]; then
  expect 1 "solve into /dev/full" -- sh -c "'$bin' solve --rule rotate --state 152463789 >/dev/full"
  has "cannot write standard output"
  expect 1 "rules into /dev/full" -- sh -c "'$bin' rules >/dev/full"
fi
# Allocation failure: a 12-cell space (180 MB of bitsets) under a 150 MB address-space limit, the memory
# check bypassed with --max-memory. (Not under sanitizers: their shadow memory needs more.)
if [ -z "${STATEGRAPH_SANITIZED:-}" ]; then
  (ulimit -v 150000; exec "$bin" "${a[@]}" --rule rotate --rows 3 --cols 4 --variant hybrid --max-memory 1T --threads 1 --out "$tmp/oom") >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ "$rc" = 1 ] && ok || bad "allocation failure: exit $rc ($(cat "$tmp/err"))"
  has "out of memory"
  [ "$(wc -l <"$tmp/err")" = 1 ] && ok || bad "allocation failure: stderr not one line"
  [ -e "$tmp/oom" ] && bad "oom output written" || ok
fi

# --- determinism: every CSV (graph files too) identical across variants and threads ---
# (primeswap at 2x4: its 3x3 diameter takes thousands of BFS runs; 3x3 of every rule is
# compared in-process by Determinism.EveryVariantAndThreadCountWritesTheSameCsvs.)
for spec in "sliding 3 3" "rotate 3 3" "primeswap 2 4" "cardswap 2 3"; do
  set -- $spec
  rule=$1 size=(--rows "$2" --cols "$3")
  "$bin" analyze --quiet --rule "$rule" "${size[@]}" --variant reference --threads 1 --out "$tmp/det-$rule-ref" >/dev/null 2>&1
  for variant in serial topdown hybrid twobit; do
    for threads in 1 2; do
      d=$tmp/det-$rule-$variant-$threads
      "$bin" analyze --quiet --rule "$rule" "${size[@]}" --variant "$variant" --threads "$threads" --out "$d" >/dev/null 2>&1 || bad "det run $d"
      diff <(strip_run "$tmp/det-$rule-ref") <(strip_run "$d") >/dev/null && ok || bad "$rule $variant $threads threads: CSVs differ from the reference"
    done
  done
  [ "$(ls "$tmp/det-$rule-ref" | wc -l)" -ge 6 ] && ok || bad "$rule: graph CSVs missing"
done


# ---- The disk variant: its refusals, a SIGKILL in mid-pass and --resume, a full disk ----
expect 2 "disk variant without --disk" -- "$bin" analyze --rule rotate --variant disk --no-graph --out "$tmp/dk0"
has "needs --disk DIR"
expect 2 "auto finds nothing in memory and no --disk" -- "$bin" analyze --rule rotate --max-memory 80K --no-graph --out "$tmp/dk0"
has "give --disk DIR"
expect 2 "disk variant with too little memory" -- "$bin" analyze --quiet --rule rotate --variant disk --disk "$tmp/dkd" --max-memory 1M --no-graph --out "$tmp/dk0"
expect 2 "--disk is a file" -- "$bin" analyze --quiet --rule rotate --variant disk --disk "$tmp/err" --no-graph --out "$tmp/dk0"
expect 2 "disk variant with --verify" -- "$bin" analyze --quiet --rule rotate --variant disk --disk "$tmp/dkd" --verify --no-graph --out "$tmp/dk0"
no_csv "$tmp/dk0"
"$bin" analyze --quiet --rule rotate --variant hybrid --no-graph --no-plot --out "$tmp/dk-ref" >/dev/null 2>&1
# (auto's choice of the disk variant when nothing fits in memory: DiskPlan.AutoTakesItOnlyWhenNothingFitsInMemory)
# No graph phase on disk, but antipodes.csv all the same, as the in-memory run's.
"$bin" analyze --quiet --rule rotate --variant hybrid --no-plot --out "$tmp/dk-ref-g" >/dev/null 2>&1
expect 0 "disk run" -- "$bin" analyze --quiet --rule rotate --variant disk --disk "$tmp/dk-a" --disk-segment 50021 --no-plot --out "$tmp/dk-a-out"
cmp -s "$tmp/dk-ref-g/antipodes.csv" "$tmp/dk-a-out/antipodes.csv" && ok || bad "disk antipodes.csv differs from the in-memory run's"
# A SIGKILL in the middle of pass 6 (after 3 of its segments), then --resume: the same distribution,
# bytes_read/bytes_written columns, and nothing left in the folder.
for kill_at in 6:3 9:0 14:5; do
  d=$tmp/dk-kill-$kill_at
  # commits after every pass (--checkpoint-interval 0) for 6:3, none but the first for the others
  interval=60; [ "$kill_at" = 6:3 ] && interval=0
  STATEGRAPH_TEST_DISK_KILL=$kill_at "$bin" analyze --quiet --rule rotate --variant disk --disk "$d" --disk-segment 50021 --checkpoint-interval "$interval" --no-graph --no-plot --out "$tmp/dk-k" >/dev/null 2>&1 &
  wait $! 2>/dev/null
  code=$?
  [ "$code" = 137 ] && ok || bad "disk kill $kill_at: exit $code, wanted 137 (SIGKILL)"
  [ -f "$d/disk-bfs.sgdm" ] && ok || bad "disk kill $kill_at: no manifest left"
  no_csv "$tmp/dk-k"
  expect 0 "disk --resume after kill $kill_at" -- "$bin" analyze --quiet --rule rotate --resume "$d" --disk-segment 50021 --no-graph --no-plot --out "$tmp/dk-k"
  cmp -s "$tmp/dk-ref/distribution.csv" "$tmp/dk-k/distribution.csv" && ok || bad "disk kill $kill_at: distribution differs after --resume"
  head -1 "$tmp/dk-k/levels.csv" | grep -q "bytes_read,bytes_written" && ok || bad "disk levels.csv lacks bytes columns"
  [ -z "$(ls -A "$d")" ] && ok || bad "disk kill $kill_at: files left after success: $(ls "$d")"
  rm -rf "$tmp/dk-k"
done
# A full disk in mid-run: one clear line, exit 1, no result folder, the folder kept; then --resume finishes it.
d=$tmp/dk-full
STATEGRAPH_TEST_DISK_WRITE_LIMIT=300000 "$bin" analyze --quiet --rule rotate --variant disk --disk "$d" --disk-segment 50021 --checkpoint-interval 0 --no-graph --no-plot --out "$tmp/dk-f" >/dev/null 2>"$tmp/err"
code=$?
[ "$code" = 1 ] && ok || bad "full disk: exit $code, wanted 1"
has "No space left on device"
has "continue with --resume"
no_csv "$tmp/dk-f"
expect 0 "disk --resume after a full disk" -- "$bin" analyze --quiet --rule rotate --resume "$d" --no-graph --no-plot --out "$tmp/dk-f"
cmp -s "$tmp/dk-ref/distribution.csv" "$tmp/dk-f/distribution.csv" && ok || bad "full disk: distribution differs after --resume"
# A second run into a folder that holds a killed run is refused (continue it or remove it).
STATEGRAPH_TEST_DISK_KILL=4:0 "$bin" analyze --quiet --rule rotate --variant disk --disk "$tmp/dk-twice" --no-graph --no-plot --out "$tmp/dk-t" >/dev/null 2>&1 &
wait $! 2>/dev/null
expect 2 "disk folder holding a run" -- "$bin" analyze --quiet --rule rotate --variant disk --disk "$tmp/dk-twice" --no-graph --no-plot --out "$tmp/dk-t"
has "resume"
expect 2 "disk --resume of another rule" -- "$bin" analyze --quiet --rule adjswap --resume "$tmp/dk-twice" --no-graph --no-plot --out "$tmp/dk-t"

# ---- The thin variant: its refusals, a run equal to the in-memory one, a full disk -------
expect 2 "thin variant without --disk" -- "$bin" analyze --rule rotate --variant thin --no-graph --out "$tmp/th0"
has "needs --disk DIR"
expect 2 "thin variant with --checkpoint" -- "$bin" analyze --quiet --rule rotate --variant thin --disk "$tmp/thd" --checkpoint "$tmp/thc" --no-graph --out "$tmp/th0"
has "keeps no checkpoints"
expect 2 "thin variant with --verify" -- "$bin" analyze --quiet --rule rotate --variant thin --disk "$tmp/thd" --verify --no-graph --out "$tmp/th0"
no_csv "$tmp/th0"
expect 0 "thin run" -- "$bin" analyze --quiet --rule rotate --variant thin --disk "$tmp/th-a" --disk-segment 50021 --no-plot --out "$tmp/th-a-out"
cmp -s "$tmp/dk-ref/distribution.csv" "$tmp/th-a-out/distribution.csv" && ok || bad "thin distribution.csv differs from the in-memory run's"
cmp -s "$tmp/dk-ref-g/antipodes.csv" "$tmp/th-a-out/antipodes.csv" && ok || bad "thin antipodes.csv differs from the in-memory run's"
head -1 "$tmp/th-a-out/levels.csv" | grep -q "bytes_read,bytes_written" && ok || bad "thin levels.csv lacks bytes columns"
[ -z "$(ls -A "$tmp/th-a")" ] && ok || bad "thin: files left after success: $(ls "$tmp/th-a")"
STATEGRAPH_TEST_DISK_WRITE_LIMIT=300000 "$bin" analyze --quiet --rule rotate --variant thin --disk "$tmp/th-f" --no-graph --no-plot --out "$tmp/th-f-out" >/dev/null 2>"$tmp/err"
code=$?
[ "$code" = 1 ] && ok || bad "thin full disk: exit $code, wanted 1"
has "No space left on device"
[ "$(wc -l <"$tmp/err")" = 1 ] && ok || bad "thin full disk: more than one line: $(cat "$tmp/err")"
no_csv "$tmp/th-f-out"
[ -z "$(ls -A "$tmp/th-f")" ] && ok || bad "thin full disk: files left: $(ls "$tmp/th-f")"

echo "cli_reliability_test: $pass passed, $fail failed"
[ "$fail" = 0 ]
