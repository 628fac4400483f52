#!/usr/bin/env bash
# Tests of the distributed BFS: stategraph-mpi under mpirun -np 1, 2 and 4
# must give exactly what single-process `stategraph analyze --no-graph` gives
# (distribution.csv byte for byte; levels.csv and summary.csv except the time and
# memory columns), and a failure must end every process with a message, not hang.
# Usage: mpi_test.sh path/to/stategraph path/to/stategraph-mpi [path/to/mpirun]
set -u
bin=$1
mpibin=$2
mpirun=${3:-mpirun}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 runs=0 last=
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# Open MPI as root needs these; use the loopback only (shared memory and self between
# processes, the launcher's out-of-band channel on lo).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_oob_tcp_if_include=lo OMPI_MCA_btl_tcp_if_include=lo
mpi() {  # mpi NP args... : stategraph-mpi on NP processes, 120 s at most
  local np=$1
  shift
  timeout 120 "$mpirun" -np "$np" --oversubscribe "$mpibin" "$@"
}

# single NAME args...: the reference run into $tmp/NAME
single() {
  local name=$1
  shift
  "$bin" analyze "$@" --no-graph --threads 1 --quiet --out "$tmp/$name" >/dev/null 2>"$tmp/$name.err" ||
    bad "single-process run $name failed: $(head -c 300 "$tmp/$name.err")"
}

# same REF NP args...: the distributed run on NP processes matches the reference REF.
same() {
  local ref=$1 np=$2
  shift 2
  local out="$tmp/$ref-np$np-$((++runs))"
  last=$out
  if ! mpi "$np" "$@" --threads 1 --quiet --out "$out" >/dev/null 2>"$out.err"; then
    bad "$ref on $np processes: exit $? ($(head -c 300 "$out.err"))"
    return
  fi
  local what="$ref on $np processes ($*)"
  cmp -s "$tmp/$ref/distribution.csv" "$out/distribution.csv" && ok ||
    bad "$what: distribution.csv differs: $(diff "$tmp/$ref/distribution.csv" "$out/distribution.csv" | head -5)"
  [ "$(cut -d, -f1-3 "$tmp/$ref/levels.csv")" = "$(cut -d, -f1-3 "$out/levels.csv")" ] && ok ||
    bad "$what: levels.csv depth,states,direction differ"
  # summary.csv: every column of the single-process run except seconds (10) and
  # peak_bytes (11, per process here), then the process count.
  [ "$(cut -d, -f1-9,12-22 "$tmp/$ref/summary.csv")" = "$(cut -d, -f1-9,12-22 "$out/summary.csv")" ] && ok ||
    bad "$what: summary.csv differs: $(cut -d, -f1-9,12-22 "$out/summary.csv" | tail -1)"
  local pcol
  pcol=$(head -1 "$out/summary.csv" | tr , '\n' | grep -nx processes | cut -d: -f1)
  [ -n "$pcol" ] && [ "$(sed -n 2p "$out/summary.csv" | cut -d, -f"$pcol")" = "$np" ] &&
    ok || bad "$what: summary.csv processes column is not $np"
  # mpi_levels.csv: one row per step (depth >= 1), the last may have found nothing.
  [ "$(tail -n +3 "$out/levels.csv" | cut -d, -f1-3)" = "$(tail -n +2 "$out/mpi_levels.csv" | grep -v '^[0-9]*,0,' | cut -d, -f1-3)" ] &&
    ok || bad "$what: mpi_levels.csv steps differ from levels.csv"
  ls "$out" | grep -q tmp && bad "$what: temporary file left behind" || ok
}

# Every rule at 3x3 (cardswap at its 2x3 seed) and sliding 2x5, hybrid, on 2 and 4.
for spec in "sliding 3 3" "rotate 3 3" "primeswap 3 3" "cardswap 2 3" "sliding 2 5"; do
  set -- $spec
  ref="$1-$2x$3"
  single "$ref" --rule "$1" --rows "$2" --cols "$3" --variant hybrid
  for np in 2 4; do same "$ref" "$np" --rule "$1" --rows "$2" --cols "$3" --variant hybrid; done
done
# One process; the other two variants; many exchange rounds (tiny batches); a cardswap
# start position (start_distance); a directed rule on 3 processes (uneven blocks).
same sliding-3x3 1 --rule sliding --rows 3 --cols 3
single sliding-3x3-topdown --rule sliding --rows 3 --cols 3 --variant topdown
same sliding-3x3-topdown 4 --rule sliding --rows 3 --cols 3 --variant topdown
single sliding-3x3-bottomup --rule sliding --rows 3 --cols 3 --variant bottomup
same sliding-3x3-bottomup 2 --rule sliding --rows 3 --cols 3 --variant bottomup
same sliding-2x5 4 --rule sliding --rows 2 --cols 5 --variant hybrid --exchange-buffer 4K
rounds=$(tail -n +2 "$last/mpi_levels.csv" | cut -d, -f4 | sort -n | tail -1)
[ "${rounds:-0}" -gt 1 ] && ok || bad "--exchange-buffer 4K: more than one round per level (got ${rounds:-none})"
# A --start on a rule other than cardswap (the BFS runs from it): sliding's other parity
# class, and the directed rotate on 3 processes.
single sliding-3x3-start --rule sliding --rows 3 --cols 3 --variant hybrid --start '2 1 3/4 5 6/7 8 _'
same sliding-3x3-start 2 --rule sliding --rows 3 --cols 3 --variant hybrid --start '2 1 3/4 5 6/7 8 _'
single rotate-3x3-start --rule rotate --rows 3 --cols 3 --variant hybrid --start '9 8 7/6 5 4/3 2 1'
same rotate-3x3-start 3 --rule rotate --rows 3 --cols 3 --variant hybrid --start '9 8 7/6 5 4/3 2 1'
# Bottom-up by questions to the owners (the default) in many rounds, on a rule with
# unreachable states; the gathered-frontier bottom-up on 4.
single primeswap-3x3-bottomup --rule primeswap --rows 3 --cols 3 --variant bottomup
same primeswap-3x3-bottomup 3 --rule primeswap --rows 3 --cols 3 --variant bottomup --exchange-buffer 1K
rounds=$(tail -n +2 "$last/mpi_levels.csv" | cut -d, -f4 | sort -n | tail -1)
[ "${rounds:-0}" -gt 1 ] && ok || bad "bottom-up --exchange-buffer 1K: more than one round per level (got ${rounds:-none})"
same sliding-2x5 4 --rule sliding --rows 2 --cols 5 --variant hybrid --bottomup-exchange gather
bcol=$(head -1 "$last/summary.csv" | tr , '\n' | grep -nx bottomup_exchange | cut -d: -f1)
[ -n "$bcol" ] && [ "$(sed -n 2p "$last/summary.csv" | cut -d, -f"$bcol")" = gather ] && ok ||
  bad "summary.csv bottomup_exchange is not gather"
# Memory per process ~1/P with hybrid: the largest process's buffers (peak_bytes) at
# P=4 are under half those of P=1; the gathered frontier (n bits more) is not.
peak() { sed -n 2p "$1/summary.csv" | cut -d, -f11; }
same sliding-2x5 1 --rule sliding --rows 2 --cols 5 --variant hybrid --exchange-buffer 16K
p1=$(peak "$last")
same sliding-2x5 4 --rule sliding --rows 2 --cols 5 --variant hybrid --exchange-buffer 16K
p4=$(peak "$last")
same sliding-2x5 4 --rule sliding --rows 2 --cols 5 --variant hybrid --exchange-buffer 16K --bottomup-exchange gather
p4g=$(peak "$last")
[ "$((2 * p4))" -lt "$p1" ] && ok || bad "hybrid peak_bytes per process at P=4 ($p4) not under half of P=1 ($p1)"
[ "$((2 * p4g))" -ge "$p1" ] && ok || bad "gather peak_bytes at P=4 ($p4g) unexpectedly under half of P=1 ($p1)"
single cardswap-start --rule cardswap --start 'A B/***' --variant hybrid
same cardswap-start 2 --rule cardswap --start 'A B/***'
[ "$(sed -n 2p "$tmp/cardswap-start/summary.csv" | cut -d, -f13)" = 12 ] && ok || bad "cardswap start at distance 12"
single rotate-2x3 --rule rotate --rows 2 --cols 3 --variant hybrid
same rotate-2x3 3 --rule rotate --rows 2 --cols 3 --variant hybrid

# failed CODE DESCRIPTION MESSAGE -- args...: non-zero (CODE, or any non-zero for "fail")
# within the timeout, MESSAGE on stderr exactly once, no output folder.
failed() {
  local want=$1 what=$2 msg=$3
  shift 4
  rm -rf "$tmp/bad"
  mpi 2 "$@" --out "$tmp/bad" >"$tmp/bad.out" 2>"$tmp/bad.err"
  local got=$?
  if [ "$got" = 124 ]; then bad "$what: hung (killed by timeout)"; return; fi
  if [ "$got" = 0 ] || { [ "$want" != fail ] && [ "$got" != "$want" ]; }; then
    bad "$what: exit $got, wanted $want"
    return
  fi
  [ "$(grep -c -- "$msg" "$tmp/bad.err")" = 1 ] && ok || bad "$what: '$msg' not once on stderr: $(head -c 400 "$tmp/bad.err")"
  [ -e "$tmp/bad" ] && bad "$what: wrote an output folder" || ok
}
failed 2 "unknown rule" "stategraph-mpi: error: unknown rule" -- --rule nosuch
failed 2 "grid too large" "stategraph-mpi: error: grid 5x5 is not supported" -- --rule sliding --rows 5 --cols 5
failed 2 "rows without cols" "give both --rows and --cols" -- --rule sliding --rows 3
failed 2 "unknown variant" "unknown --variant" -- --rule sliding --variant twobit
failed 2 "unknown bottom-up exchange" "unknown --bottomup-exchange" -- --rule sliding --bottomup-exchange all
failed 2 "memory limit" "more than the" -- --rule sliding --max-memory 1K
failed 2 "unknown option" "stategraph-mpi: error:" -- --rule sliding --bogus
# One process fails inside the search (simulated allocation failure at depth 1; mpirun
# passes its environment to the local processes): all end via MPI_Abort with that
# process's message.
export STATEGRAPH_MPI_FAIL_RANK=1
failed fail "one process fails mid-run" "stategraph-mpi: error: process 1 of 2: out of memory" -- --rule sliding
unset STATEGRAPH_MPI_FAIL_RANK
# Bad input on one process only (set-up): all exit 2 with that process's one line.
export STATEGRAPH_MPI_BAD_INPUT_RANK=1
failed 2 "bad input on one process" "stategraph-mpi: error: simulated bad input on process 1" -- --rule sliding
unset STATEGRAPH_MPI_BAD_INPUT_RANK
# The options every command shares: the --threads bound, --directions.
failed 2 "threads above the bound" "--threads must be 0 (all cores) or 1 to 256" -- --rule sliding --threads 257
single rotate-both --rule rotate --directions both --rows 2 --cols 3
same rotate-both 2 --rule rotate --directions both --rows 2 --cols 3

# --version: the same version as stategraph's, and a git revision (the two may be built at different commits).
"$mpibin" --version >"$tmp/v.out" 2>&1 && [ "$(cut -d' ' -f2 "$tmp/v.out")" = "$("$bin" --version | cut -d' ' -f2)" ] &&
  grep -Eq '^stategraph-mpi [0-9.]+ \(git ([0-9a-f]{40}(-dirty)?|unknown)\)$' "$tmp/v.out" && ok ||
  bad "stategraph-mpi --version: $(cat "$tmp/v.out")"
# One run per folder with run.csv: a stale file of another command's run goes, a foreign file stays.
f=$tmp/mpi-run
"$bin" analyze --rule sliding --rows 2 --cols 3 --quiet --no-plot --out "$f" >/dev/null 2>&1 || bad "analyze into $f"
echo mine >"$f/notes.txt"
mpi 2 --rule sliding --rows 2 --cols 3 --threads 1 --quiet --out "$f" >/dev/null 2>"$tmp/run.err" || bad "mpi into $f: $(cat "$tmp/run.err")"
[ "$(ls "$f" | sort | tr '\n' ' ')" = "distribution.csv levels.csv mpi_levels.csv notes.txt run.csv summary.csv " ] && ok ||
  bad "mpi run folder: $(ls "$f")"
[ "$(sed -n 2p "$f/run.csv" | cut -d, -f4,6-8)" = "mpi,sliding,2,3" ] && ok || bad "mpi run.csv row: $(sed -n 2p "$f/run.csv")"

echo "mpi_test: $pass passed, $fail failed"
[ "$fail" = 0 ]
