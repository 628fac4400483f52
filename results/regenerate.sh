#!/usr/bin/env bash
# Remakes the files under results/ with the binaries in build/ (`bash setup.sh --build` builds all of
# them: stategraph, stategraph-mpi, stategraph_bench, stategraph_bench_csv). Each part writes the
# folders results/README.md lists for it; timings differ from run to run, layer counts never do.
#
#   bash results/regenerate.sh                 # light, ~2 min on 2 cores: seed analyses, defs/rotate-3x3-both,
#                                              #   compare-rotate-3x3, bench/micro, drawings/, plots of the other folders
#   bash results/regenerate.sh --heavy         # + the 12-cell runs, ~1 h on 2 idle cores: rotate-3x4, sliding-3x4 and
#                                              #   rotate-both-3x4 with their graphs, sliding-2x6, defs/rotate-3x4-both and its
#                                              #   timing file, bench/{bfs12-rotate,bfs12-sliding,graph12-bfs12-sliding,
#                                              #   twobit12-sliding}
#   bash results/regenerate.sh --mpi           # + mpi-{sliding,rotate}-3x4/ (10 runs x 3 interleaved repetitions,
#                                              #   ~20 min) and bench/mpi-3x4-repetitions.txt
#   bash results/regenerate.sh --mpi-ab        # + bench/mpi-topdown-rounds-ab.txt: builds stategraph-mpi at 05aea21
#                                              #   and at ac9de54 (reverted) in temporary worktrees, 24 runs (~25 min)
#   bash results/regenerate.sh --reliability   # + reliability/: SIGKILL of a sliding 3x4 run, resume, compare (~2 min)
#   bash results/regenerate.sh --2x7           # + sliding-2x7/: 9 min on 2 cores (bd620e4), 10.2 GiB of memory, 11 GB of
#                                              #   disk for the checkpoint (CK2X7=DIR, default /var/tmp/stategraph-2x7-ck)
#   bash results/regenerate.sh --primeswap-3x4 # + primeswap-3x4/: every component, the giants' diameter bounds
#                                              #   (16 masked BFS runs), ~35 min on 2 cores, 4.3 GB
#   bash results/regenerate.sh --kernel        # + bench/kernel-12cell.txt: builds 2493cbc in a temporary worktree and
#                                              #   times its BFS against build/ on sliding, rotate, rotate both ways and
#                                              #   primeswap 3x4 at 1 and 2 threads, interleaved, 3 rounds (~45 min);
#                                              #   then bench/limit.{json,txt} (the LIMIT benchmarks, ~2 min);
#                                              #   KERNEL_BASE_BIN=PATH uses a Release build of 2493cbc already made;
#                                              #   KERNEL_RULES="primeswap" (a subset) writes bench/kernel-primeswap.txt
#                                              #   instead and skips the LIMIT benchmarks
#   bash results/regenerate.sh --compare12     # + compare-sliding-3x4/ and compare-rotate-3x4/: every parallel variant
#                                              #   x 1 and 2 threads, --repeat 3 (~20 min on 2 idle cores, 2026-12-06;
#                                              #   bottomup, which scans every unvisited state at each level, is most of it)
#   bash results/regenerate.sh --disk12        # + bench/disk-12cell/: twobit vs the disk variant on sliding and rotate
#                                              #   3x4 at 2 threads, --repeat 3, and pancake 12 on disk over 3 segments
#                                              #   (--max-memory 150M) and in memory (~4 min); DISK_DIR= its folder
#   bash results/regenerate.sh --2x7-disk      # + sliding-2x7-disk-4G/: the 2x7 sliding puzzle by the disk variant under
#                                              #   --max-memory 4G (7 segments), files in DISK2X7 (default
#                                              #   /var/tmp/stategraph-2x7-disk, up to 26 GiB); after a kill: the same
#                                              #   command by hand with --resume DISK2X7
#   bash results/regenerate.sh --rotate-2x7    # + rotate-2x7/: all 14! states of rotate 2x7 (clockwise, cells
#                                              #   numbered by columns: defs/rotate-2x7-columns.tws) by the disk
#                                              #   variant under --max-memory 12G (4 segments), files in ROT2X7 (default
#                                              #   /var/tmp/stategraph-rotate-2x7-disk, up to ~54 GiB); after a kill:
#                                              #   the same command by hand with --resume ROT2X7
#   bash results/regenerate.sh --primeswap-2x7 # + primeswap-2x7/: the goal's component of primeswap 2x7 (14! ranks)
#                                              #   by the thin variant under --max-memory 12G (visited bits in memory,
#                                              #   layers as rank lists in PRIME2X7, default
#                                              #   /var/tmp/stategraph-primeswap-2x7-thin, a few GB); no resume
#   bash results/regenerate.sh --atlas         # + atlas/: every rule on every grid up to 12 cells, a folder each and
#                                              #   atlas.csv (results/atlas/atlas.sh; hours); --atlas-small: up to 10 cells
#   bash results/regenerate.sh --pancake-13    # + pancake-13/: the 13-pancake space by the disk variant in 1 GiB (files in
#                                              #   PANCAKE13, default /var/tmp/stategraph-pancake-13-disk, ~5 GiB), ~8 min
#   bash results/regenerate.sh --pancake-14    # + pancake-14/run.log: the 14-pancake space (defs/pancake-14.tws) by the
#                                              #   disk variant under --max-memory 12G, files in PANCAKE14 (default
#                                              #   /var/tmp/stategraph-pancake-14-disk, 67.6 GiB at most when
#                                              #   measured); 1 h 59 min (pancake-14/README.md); after a kill: --resume PANCAKE14
#   bash results/regenerate.sh --all           # every part
# Flags combine. The light part always runs first.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=./build/stategraph
mpibin=./build/stategraph-mpi
bench=./build/stategraph_bench
benchcsv=./build/stategraph_bench_csv

heavy=0 mpi=0 mpi_ab=0 reliability=0 run2x7=0 prime3x4=0 kernel=0 compare12=0 disk12=0 disk2x7=0 rot2x7=0 prime2x7=0 pancake13=0 pancake14=0 atlas=0
for a in "$@"; do
  case "$a" in
    --heavy) heavy=1 ;;
    --mpi) mpi=1 ;;
    --mpi-ab) mpi_ab=1 ;;
    --reliability) reliability=1 ;;
    --2x7) run2x7=1 ;;
    --primeswap-3x4) prime3x4=1 ;;
    --kernel) kernel=1 ;;
    --compare12) compare12=1 ;;
    --disk12) disk12=1 ;;
    --2x7-disk) disk2x7=1 ;;
    --rotate-2x7) rot2x7=1 ;;
    --primeswap-2x7) prime2x7=1 ;;
    --pancake-13) pancake13=1 ;;
    --atlas) atlas=2 ;;
    --atlas-small) ((atlas)) || atlas=1 ;;
    --pancake-14) pancake14=1 ;;
    --all) heavy=1 mpi=1 mpi_ab=1 reliability=1 run2x7=1 prime3x4=1 kernel=1 compare12=1 disk12=1 disk2x7=1 rot2x7=1 prime2x7=1 pancake13=1 pancake14=1 atlas=2 ;;
    *) echo "regenerate.sh: unknown flag $a (see the comment at the top)" >&2; exit 2 ;;
  esac
done
for b in "$bin" "$bench" "$benchcsv"; do
  [[ -x "$b" ]] || { echo "regenerate.sh: $b missing: run bash setup.sh --build first" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Writes stdout of a command to FILE only when the command succeeded (FILE may sit in a folder
# that the command itself replaces).
capture() { local file=$1; shift; "$@" >"$tmp/capture"; mv "$tmp/capture" "$file"; }
load1() { cut -d' ' -f1 /proc/loadavg; }
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'; }

# ---- light ------------------------------------------------------------------------------------
# Seed rules at seed size, graph analyses and plots: results/{sliding,rotate,primeswap}-3x3, cardswap-2x3.
$bin analyze --all --out results --quiet
# The built-in rotate with turns both ways, read from its definition file (full analysis, no plot).
$bin analyze --rule file:results/defs/rotate-3x3-both.tws --rows 3 --cols 3 --no-plot --quiet \
  --out results/defs/rotate-3x3-both
# Every variant at 1 and 2 threads on rotate 3x3, 5 interleaved repeats; stdout.txt is what it prints.
capture results/compare-rotate-3x3/stdout.txt \
  $bin compare --rule rotate --rows 3 --cols 3 --variants topdown,bottomup,hybrid,twobit,serial,reference \
  --threads 1,2 --repeat 5 --out results/compare-rotate-3x3 --quiet
# Micro-benchmarks -> JSON, converted to CSV by our exporter.
$bench --benchmark_filter='MICRO|FetchOr/10' --benchmark_min_time=0.2 \
  --benchmark_out=results/bench/micro.json --benchmark_out_format=json >results/bench/micro.txt

# solve against the naive solution (bench/naive_rotate3x3.hpp), whole process: 100,000 random rotate 3x3
# queries (awk, seed 42), 7 interleaved pairs, outputs compared.
naive=./build/stategraph_naive_rotate3x3
since3() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }'; }
if [[ -x $naive ]]; then
  awk 'BEGIN { srand(42); print 100000
    for (q = 0; q < 100000; ++q) { for (i = 1; i <= 9; ++i) p[i] = i
      for (i = 9; i > 1; --i) { j = int(rand() * i) + 1; t = p[i]; p[i] = p[j]; p[j] = t }
      printf "%d %d %d\n%d %d %d\n%d %d %d\n", p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9] } }' >"$tmp/q100k.txt"
  {
    echo "# stategraph solve --rule rotate (depth table built in the run, 1 and 2 threads) against"
    echo "# stategraph_naive_rotate3x3 (BFS over strings in std::unordered_map, istream look-ups), whole"
    echo "# process, 100,000 random queries; $(nproc)-core machine, $(date -u +%F), 7 interleaved triples."
    echo "# columns: round solve_1thread_s solve_2threads_s naive_s load1"
  } >"$tmp/solve.txt"
  for round in 1 2 3 4 5 6 7; do
    t0=$(date +%s.%N); $bin solve --rule rotate --threads 1 --input "$tmp/q100k.txt" >"$tmp/a1.txt"; s1=$(since3 "$t0")
    t0=$(date +%s.%N); $bin solve --rule rotate --threads 2 --input "$tmp/q100k.txt" >"$tmp/a2.txt"; s2=$(since3 "$t0")
    t0=$(date +%s.%N); $naive <"$tmp/q100k.txt" >"$tmp/n.txt"; sn=$(since3 "$t0")
    echo "$round $s1 $s2 $sn $(load1)" >>"$tmp/solve.txt"
  done
  cmp -s "$tmp/a1.txt" "$tmp/n.txt" && cmp -s "$tmp/a2.txt" "$tmp/n.txt" &&
    echo "# answers identical (cmp)" >>"$tmp/solve.txt" || echo "# answers DIFFER" >>"$tmp/solve.txt"
  med() { grep -v '^#' "$tmp/solve.txt" | cut -d' ' -f"$1" | sort -g | sed -n 4p; }
  awk -v a="$(med 2)" -v b="$(med 3)" -v c="$(med 4)" 'BEGIN {
    printf "# medians: solve 1 thread %.3f s, 2 threads %.3f s, naive %.3f s: %.1fx and %.1fx faster\n",
      a, b, c, c / a, c / b }' >>"$tmp/solve.txt"
  mv "$tmp/solve.txt" results/bench/solve-rotate3x3.txt
fi

# ---- --primeswap-3x4: every component of the 12! space, bounds on the giants' diameter -------------
if ((prime3x4)); then
  $bin analyze --rule primeswap --rows 3 --cols 4 --out results/primeswap-3x4 --max-components 1000000 \
    --diameter-budget-runs 16 --quiet
  rm -f results/primeswap-3x4/size_vs_diameter.svg  # 54 MB (146,498 points); the PNG is kept
fi

# ---- --heavy: 12-cell spaces --------------------------------------------------------------------
if ((heavy)); then
  # The 12-cell spaces as committed: sliding 3x4, rotate 3x4 and rotate 3x4 both ways with their graph
  # analyses (every component listed), sliding 2x6 BFS only (~25 s).
  for args in "sliding --rows 3 --cols 4 --out results/sliding-3x4" "rotate --rows 3 --cols 4 --out results/rotate-3x4" \
    "rotate --directions both --rows 3 --cols 4 --out results/rotate-both-3x4"; do
    # shellcheck disable=SC2086  # the words of $args are the arguments
    $bin analyze --rule $args --max-components 1000000 --threads 2 --quiet
  done
  $bin analyze --rule sliding --rows 2 --cols 6 --no-graph --quiet --out results/sliding-2x6
  # rotate 3x4 with turns both ways: the definition file and the built-in rule at 2 and 1 threads under
  # GNU time (~10 min). The definition's 2-thread run writes the folder; the built-in's 2-thread
  # summary is kept beside it as summary-builtin.csv.
  both=results/defs/bfs12-rotate3x4-both.txt
  {
    echo "# Full BFS of rotate 3x4 with turns both ways (12 moves, 479,001,600 states), stategraph analyze --no-graph, variant hybrid (auto)."
    echo "# /usr/bin/time -v figures; load average (1, 5, 15 min) before / after each run."
    echo "# def = --rule file:results/defs/rotate-3x4-both.tws --rows 3 --cols 4; builtin = --rule rotate --rows 3 --cols 4 --directions both"
    echo "# label threads: wall user_s sys_s cpu% peak_rss_kB bfs_seconds(summary.csv)"
  } >"$tmp/both.txt"
  for run in "def 2 results/defs/rotate-3x4-both" "def 1 $tmp/def1" "builtin 2 $tmp/builtin2" "builtin 1 $tmp/builtin1"; do
    read -r label threads out <<<"$run"
    if [[ $label == def ]]; then rule=(--rule file:results/defs/rotate-3x4-both.tws)
    else rule=(--rule rotate --directions both); fi
    before=$(cut -d' ' -f1-3 /proc/loadavg | sed 's/ /, /g')
    /usr/bin/time -v -o "$tmp/time.txt" $bin analyze "${rule[@]}" --rows 3 --cols 4 --no-graph --no-plot --quiet \
      --threads "$threads" --out "$out" >/dev/null
    after=$(cut -d' ' -f1-3 /proc/loadavg | sed 's/ /, /g')
    tv() { grep -F "$1" "$tmp/time.txt" | sed 's/.*: //'; }
    echo "$label $threads thread$( ((threads > 1)) && echo s): wall $(tv 'Elapsed (wall') user $(tv 'User time') sys $(tv 'System time') cpu% $(tv 'Percent of CPU') rss_kb $(tv 'Maximum resident') bfs_s $(tail -1 "$out/summary.csv" | cut -d, -f10) load: $before / $after" >>"$tmp/both.txt"
  done
  cmp -s results/defs/rotate-3x4-both/distribution.csv "$tmp/def1/distribution.csv" &&
    cmp -s results/defs/rotate-3x4-both/distribution.csv "$tmp/builtin2/distribution.csv" &&
    cmp -s results/defs/rotate-3x4-both/distribution.csv "$tmp/builtin1/distribution.csv" &&
    echo "# distribution.csv identical in all four runs (cmp)." >>"$tmp/both.txt" ||
    echo "# distribution.csv DIFFERS between the four runs." >>"$tmp/both.txt"
  cp "$tmp/builtin2/summary.csv" results/defs/rotate-3x4-both/summary-builtin.csv
  mv "$tmp/both.txt" "$both"
  # 12-cell benchmarks (Google Benchmark, one iteration each; stderr holds the machine context).
  $bench --benchmark_filter='BFS12/rotate3x4/(topdown/threads:2|hybrid)|FetchOr/12!/threads:2' \
    --benchmark_out=results/bench/bfs12-rotate.json --benchmark_out_format=json >results/bench/bfs12-rotate.txt 2>&1
  $bench --benchmark_filter='BFS12/sliding3x4' \
    --benchmark_out=results/bench/bfs12-sliding.json --benchmark_out_format=json >results/bench/bfs12-sliding.txt 2>&1
  $bench --benchmark_filter='GRAPH12/sliding3x4|BFS12/sliding3x4/topdown/threads:2' \
    >results/bench/graph12-bfs12-sliding.txt 2>&1
  $bench --benchmark_filter='TWOBIT12/' >results/bench/twobit12-sliding.txt 2>&1
fi

# ---- --kernel: the BFS kernel of build/ against 2493cbc's (before the renovation), 12-cell rules ----
if ((kernel)); then
  base=2493cbc
  basebin=${KERNEL_BASE_BIN:-}  # a Release build of 2493cbc already made, or empty: build one here
  if [[ -z $basebin ]]; then
    git worktree add --detach "$tmp/src-$base" "$base" >/dev/null
    cmake -S "$tmp/src-$base" -B "$tmp/src-$base/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$tmp/src-$base/build" -j "$(nproc)" --target stategraph >/dev/null
    basebin=$tmp/src-$base/build/stategraph
  fi
  rules=${KERNEL_RULES:-sliding rotate rotate-both primeswap}
  kout=results/bench/kernel-12cell.txt
  [[ -n ${KERNEL_RULES:-} ]] && kout=results/bench/kernel-${rules// /-}.txt
  k=$tmp/kernel.txt
  {
    echo "# analyze --rows 3 --cols 4 --no-graph --no-plot --threads T (BFS only, variant auto = hybrid): the build of"
    echo "# $base (before the renovation) against $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src include || echo ' (with uncommitted changes)'), interleaved, 3 rounds; $(nproc)-core machine, $(date -u +%F)"
    echo "# rotate-both = --rule file:results/defs/rotate-3x4-both.tws (the base build reads it too)"
    echo "# columns: round rule threads binary wall_s user_s load1"
  } >"$k"
  for round in 1 2 3; do
    for rule in $rules; do
      args=(--rule "$rule"); [[ $rule == rotate-both ]] && args=(--rule file:results/defs/rotate-3x4-both.tws)
      for threads in 1 2; do
        for which in base new; do
          b=$bin; [[ $which == base ]] && b=$basebin
          /usr/bin/time -f '%e %U' -o "$tmp/t.txt" "$b" analyze "${args[@]}" --rows 3 --cols 4 --no-graph --no-plot \
            --threads "$threads" --quiet --out "$tmp/k-$which" >/dev/null
          echo "$round $rule $threads $which $(cat "$tmp/t.txt") $(load1)" >>"$k"
        done
        cmp -s "$tmp/k-base/distribution.csv" "$tmp/k-new/distribution.csv" ||
          echo "# $rule, $threads threads, round $round: distributions DIFFER" >>"$k"
      done
    done
  done
  echo "# medians (wall s): rule threads base new ratio" >>"$k"
  for rule in $rules; do
    for threads in 1 2; do
      m() { awk -v r="$rule" -v t="$threads" -v w="$1" '$2 == r && $3 == t && $4 == w { print $5 }' "$k" | sort -g | sed -n 2p; }
      awk -v r="$rule" -v t="$threads" -v a="$(m base)" -v b="$(m new)" \
        'BEGIN { printf "# %s %s %.2f %.2f %.2fx\n", r, t, a, b, a / b }' >>"$k"
    done
  done
  [[ -d $tmp/src-$base ]] && git worktree remove --force "$tmp/src-$base"
  mv "$k" "$kout"
  if [[ -z ${KERNEL_RULES:-} ]]; then
    $bench --benchmark_filter='LIMIT/.*/(sliding3x4|rank12)' --benchmark_out=results/bench/limit.json \
      --benchmark_out_format=json >results/bench/limit.txt 2>&1
  fi
fi

# ---- --compare12: the parallel variants on the 12-cell spaces ------------------------------------
if ((compare12)); then
  for rule in sliding rotate; do
    capture "results/compare-$rule-3x4/stdout.txt" \
      $bin compare --rule "$rule" --rows 3 --cols 4 --variants hybrid,topdown,twobit,bottomup --threads 1,2 \
      --repeat 3 --out "results/compare-$rule-3x4" --quiet
  done
fi

# ---- --disk12: the disk variant at 12 cells ---------------------------------------------------------
if ((disk12)); then
  out=results/bench/disk-12cell
  ddir=${DISK_DIR:-$tmp/disk}
  mkdir -p "$out"
  for rule in sliding rotate; do
    $bin compare --rule "$rule" --rows 3 --cols 4 --variants twobit,disk --threads 2 --repeat 3 --disk "$ddir" \
      --out "$tmp/cmp-$rule" --no-plot >"$tmp/$rule.log" 2>&1
    cp "$tmp/cmp-$rule/compare_summary.csv" "$out/$rule-3x4-compare_summary.csv"
    cp "$tmp/cmp-$rule/compare.csv" "$out/$rule-3x4-compare.csv"
    cp "$tmp/$rule.log" "$out/$rule-3x4.log"
  done
  $bin analyze --rule file:results/defs/pancake-12.tws --variant disk --disk "$ddir" --max-memory 150M --no-graph \
    --no-plot --quiet --out "$tmp/p12-disk"
  $bin analyze --rule file:results/defs/pancake-12.tws --variant twobit --no-graph --no-plot --quiet --out "$tmp/p12-twobit"
  cp "$tmp/p12-disk/levels.csv" "$out/pancake-12-disk-150M-levels.csv"
  cp "$tmp/p12-twobit/levels.csv" "$out/pancake-12-twobit-levels.csv"
fi

# ---- --mpi: stategraph-mpi on the 12-cell spaces ----------------------------------------------
mpirun_() {
  [[ $(id -u) -eq 0 ]] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  mpirun --oversubscribe --mca btl self,vader "$@"
}
if ((mpi)); then
  [[ -x $mpibin ]] || { echo "regenerate.sh: $mpibin missing (Open MPI not found at build time)" >&2; exit 2; }
  reps=results/bench/mpi-3x4-repetitions.txt
  {
    echo "# stategraph-mpi at $(git rev-parse --short HEAD), sliding and rotate 3x4, hybrid; P=1: 2 threads, --bind-to none; P=2, 4: 1 thread per process (--oversubscribe)"
    echo "# $(nproc)-core machine, $(date -u +%F); repetition 1 wrote results/mpi-*-3x4/np*/"
    echo "# columns: repetition rule P bottomup_exchange wall_s seconds,comm_seconds (summary.csv) load1"
  } >"$tmp/reps.txt"
  for rep in 1 2 3; do
    for rule in sliding rotate; do
      for cell in "1 query" "2 query" "2 gather" "4 query" "4 gather"; do
        read -r np exchange <<<"$cell"
        name=np$np; [[ $exchange == gather ]] && name+=-gather
        out=results/mpi-$rule-3x4/$name; ((rep > 1)) && out=$tmp/mpi-$rule-$name
        opts=(--threads 1); ((np == 1)) && opts=(--threads 2)
        bind=(); ((np == 1)) && bind=(--bind-to none)
        [[ $exchange == gather ]] && opts+=(--bottomup-exchange gather)
        t0=$(date +%s.%N)
        mpirun_ -np "$np" "${bind[@]}" $mpibin --rule "$rule" --rows 3 --cols 4 "${opts[@]}" \
          --out "$out" >/dev/null 2>"$tmp/run.log"
        wall=$(since "$t0")
        if ((rep == 1)); then cp "$tmp/run.log" "$out/run.log"; fi
        printf '%s %s %s %s %s %s %s\n' "$rep" "$rule" "$np" "$exchange" "$wall" \
          "$(tail -1 "$out/summary.csv" | cut -d, -f10,25)" "$(load1)" >>"$tmp/reps.txt"
      done
    done
  done
  mv "$tmp/reps.txt" "$reps"
fi

# ---- --mpi-ab: top-down rounds cut by frontier states (05aea21) vs filled by remote ranks (ac9de54) --
if ((mpi_ab)); then
  for rev in 05aea21 ac9de54; do
    git worktree add --detach "$tmp/src-$rev" "$rev" >/dev/null
    cmake -S "$tmp/src-$rev" -B "$tmp/src-$rev/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$tmp/src-$rev/build" -j "$(nproc)" --target stategraph-mpi >/dev/null
  done
  {
    echo "# stategraph-mpi top-down rounds: cut by frontier states (old, 05aea21, kept) vs filled by remote ranks produced (new, ac9de54, reverted)"
    echo "# $(nproc)-core machine, $(date -u +%F), interleaved runs, 1 thread per process, hybrid, query bottom-up, 3x4 grids"
    echo "# columns: repetition rule P binary seconds,peak_bytes,comm_seconds load1"
  } >"$tmp/ab.txt"
  for rep in 1 2 3; do
    for rule in sliding rotate; do
      for np in 2 4; do
        for which in old new; do
          rev=05aea21; [[ $which == new ]] && rev=ac9de54
          mpirun_ -np "$np" "$tmp/src-$rev/build/stategraph-mpi" --rule "$rule" --rows 3 --cols 4 --threads 1 \
            --out "$tmp/ab-out" --quiet >/dev/null
          echo "$rep $rule $np $which $(tail -1 "$tmp/ab-out/summary.csv" | cut -d, -f10,11,25) $(load1)" >>"$tmp/ab.txt"
        done
      done
    done
  done
  for rev in 05aea21 ac9de54; do git worktree remove --force "$tmp/src-$rev"; done
  mv "$tmp/ab.txt" results/bench/mpi-topdown-rounds-ab.txt
fi

# ---- --reliability: SIGKILL mid-run, resume, compare with an uninterrupted run ------------------
if ((reliability)); then
  w=$tmp/kill12
  mkdir -p "$w"
  log=$tmp/kill-resume.txt
  run12() { $bin analyze --rule sliding --rows 3 --cols 4 --no-graph --no-plot --variant hybrid "$@"; }
  {
    echo "# $(date -u +%FT%TZ) sliding 3x4, variant hybrid, 2 threads, --no-graph, --checkpoint-interval 5"
    # The first run is killed from outside once depth 29 is logged and a checkpoint is on disk
    # (the committed log's run was killed after 30 s, at depth 29, with the cores shared).
    run12 --checkpoint "$w/ck" --checkpoint-interval 5 --out "$w/killed" 2>"$w/first.err" &
    pid=$!
    t0=$SECONDS
    until grep -q '^  depth 29: .* total' "$w/first.err" 2>/dev/null && [[ -f $w/ck/checkpoint.sgck ]]; do
      kill -0 $pid 2>/dev/null || { echo "the first run ended before it could be killed" >&2; exit 1; }
      sleep 0.2
    done
    kill -KILL $pid
    rc=0; wait $pid || rc=$?
    echo "first run: SIGKILL after $((SECONDS - t0)) s, exit $rc"
    echo "levels logged before the kill: $(grep -c ' total, ' "$w/first.err"), last: $(grep ' total, ' "$w/first.err" | tail -1)"
    ls -l "$w/ck"
    echo "files in the output folder after the kill: $(find "$w/killed" -type f 2>/dev/null | wc -l)"
    t0=$(date +%s.%N)
    rc=0; run12 --resume "$w/ck" --out "$w/resumed" 2>"$w/resume.err" || rc=$?
    wall=$(since "$t0")
    echo "resume exit $rc"
    head -1 "$w/resume.err"; tail -1 "$w/resume.err"
    echo "resume: $wall s wall"
    t0=$(date +%s.%N)
    rc=0; run12 --out "$w/whole" 2>/dev/null || rc=$?
    wall=$(since "$t0")
    echo "uninterrupted exit $rc"
    echo "uninterrupted: $wall s wall"
    cmp -s "$w/resumed/distribution.csv" "$w/whole/distribution.csv" &&
      echo "distribution.csv: byte-identical" || echo "distribution.csv: DIFFERS"
    cmp -s <(cut -d, -f1-3 "$w/resumed/levels.csv") <(cut -d, -f1-3 "$w/whole/levels.csv") &&
      echo "levels.csv depth,states,direction: identical" || echo "levels.csv depth,states,direction: DIFFER"
    echo "summary (resumed):"
    cat "$w/resumed/summary.csv"
    echo "files left in the checkpoint folder: $(find "$w/ck" -type f 2>/dev/null | wc -l)"
  } >"$log"
  cp "$w/resumed/distribution.csv" results/reliability/sliding-3x4-resumed-distribution.csv
  mv "$log" results/reliability/kill-resume-sliding-3x4.txt
fi

# ---- --2x7: the whole sliding 2x7 space --------------------------------------------------------
if ((run2x7)); then
  ck=${CK2X7:-/var/tmp/stategraph-2x7-ck}
  # run.log: the run's stderr without the within-level progress lines, then GNU time's report.
  # After a kill, continue by hand with the same command plus --resume "$ck".
  /usr/bin/time -v $bin analyze --rule sliding --rows 2 --cols 7 --variant twobit --no-graph --no-plot \
    --checkpoint "$ck" --checkpoint-interval 900 --out results/sliding-2x7 2>&1 >/dev/null |
    grep -v '% of the level scanned' >"$tmp/run2x7.log"
  mv "$tmp/run2x7.log" results/sliding-2x7/run.log
fi

if ((disk2x7)); then
  dd=${DISK2X7:-/var/tmp/stategraph-2x7-disk}
  mkdir -p results/sliding-2x7-disk-4G
  /usr/bin/time -v $bin analyze --rule sliding --rows 2 --cols 7 --variant disk --disk "$dd" --max-memory 4G \
    --no-graph --no-plot --out results/sliding-2x7-disk-4G 2>&1 >/dev/null |
    grep -v '% of the level scanned' >"$tmp/disk2x7.log"
  mv "$tmp/disk2x7.log" results/sliding-2x7-disk-4G/run.log
fi

if ((rot2x7)); then
  dd=${ROT2X7:-/var/tmp/stategraph-rotate-2x7-disk}
  mkdir -p results/rotate-2x7
  # The built-in rotate with its cells numbered column by column (defs/rotate-2x7-columns.tws:
  # the same graph; a turn changes 4 Lehmer digits instead of 9), shown as one row of 14.
  /usr/bin/time -v $bin analyze --rule file:results/defs/rotate-2x7-columns.tws --rows 1 --cols 14 \
    --variant disk --disk "$dd" --max-memory 12G --no-graph --no-plot --out results/rotate-2x7 2>&1 >/dev/null |
    grep -v '% of the level scanned' >"$tmp/rot2x7.log"
  mv "$tmp/rot2x7.log" results/rotate-2x7/run.log
  # antipodes-grid.csv: each antipode as the 2x7 grid (rows split by /) and its row-by-row
  # rank, the rank `--rule rotate --rows 2 --cols 7` gives it.
  awk -F, 'NR == 1 { print "rank_by_rows,grid"; next }
    { n = split($2, p, " "); line = ""; rank = 0
      for (r = 0; r < 2; ++r) for (c = 0; c < n / 2; ++c) g[r * n / 2 + c] = p[2 * c + r + 1]
      for (i = 0; i < n; ++i) { d = 0; for (j = i + 1; j < n; ++j) if (g[j] + 0 < g[i] + 0) ++d
        f = 1; for (k = 2; k <= n - 1 - i; ++k) f *= k; rank += d * f
        line = line (i == 0 ? "" : i == n / 2 ? "/" : " ") g[i] }
      printf "%.0f,%s\n", rank, line }' results/rotate-2x7/antipodes.csv >results/rotate-2x7/antipodes-grid.csv
fi

if ((prime2x7)); then
  dd=${PRIME2X7:-/var/tmp/stategraph-primeswap-2x7-thin}
  mkdir -p results/primeswap-2x7
  /usr/bin/time -v $bin analyze --rule primeswap --rows 2 --cols 7 --variant thin --disk "$dd" --max-memory 12G \
    --no-graph --no-plot --out results/primeswap-2x7 2>&1 >/dev/null |
    grep -v '% of the level scanned' >"$tmp/prime2x7.log"
  mv "$tmp/prime2x7.log" results/primeswap-2x7/run.log
fi

if ((atlas == 2)); then
  bash results/atlas/atlas.sh "$bin"
elif ((atlas == 1)); then
  bash results/atlas/atlas.sh --small "$bin"
fi

if ((pancake13)); then
  dd=${PANCAKE13:-/var/tmp/stategraph-pancake-13-disk}
  $bin analyze --rule file:results/defs/pancake-13.tws --rows 1 --cols 13 --variant disk --disk "$dd" \
    --max-memory 1G --no-graph --no-plot --quiet --out results/pancake-13
fi

if ((pancake14)); then
  dd=${PANCAKE14:-/var/tmp/stategraph-pancake-14-disk}
  mkdir -p results/pancake-14
  /usr/bin/time -v $bin analyze --rule file:results/defs/pancake-14.tws --rows 1 --cols 14 --variant disk \
    --disk "$dd" --max-memory 12G --no-graph --no-plot --out results/pancake-14 2>&1 >/dev/null |
    grep -v '% of the level scanned' >"$tmp/pancake14.log"
  mv "$tmp/pancake14.log" results/pancake-14/run.log
fi

# drawings/: the three small spaces through Graphviz (Debian graphviz; skipped with a line without it).
if command -v sfdp >/dev/null && command -v neato >/dev/null; then
  $bin draw --rule cardswap --layout neato --out results/drawings/cardswap-2x3 >/dev/null
  $bin draw --rule sliding --rows 2 --cols 3 --layout neato --out results/drawings/sliding-2x3 >/dev/null
  $bin draw --rule rotate --rows 2 --cols 3 --layout sfdp --out results/drawings/rotate-2x3 >/dev/null
else
  echo "regenerate.sh: Graphviz (sfdp, neato) not found: results/drawings/ not remade" >&2
fi

# ---- plots and CSVs of what was not remade above ------------------------------------------------
# Folders made with --no-plot or by runs above that are not repeated here get their plots from
# their CSVs (no search); the exporter turns every benchmark JSON into CSV.
$bin plot results/rotate-3x4 results/sliding-3x4 results/sliding-2x6 results/sliding-2x7 \
  results/compare-rotate-3x4
for j in results/bench/*.json; do $benchcsv "$j"; done
