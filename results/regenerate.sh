#!/usr/bin/env bash
# Regenerates everything under results/ from a Release build in build/ (bash setup.sh --build).
#   bash results/regenerate.sh          # light (about 1 minute on 2 cores): seed analyses with plots,
#                                       # compare rotate 3x3, micro-benchmarks, plots of the 12-cell folders
#   bash results/regenerate.sh --heavy  # also the 12-cell runs (about 10 minutes on 2 cores):
#                                       # analyze rotate 3x4, compare rotate 3x4, BFS12 benchmarks
set -euo pipefail
cd "$(dirname "$0")/.."
bin=./build/stategraph
heavy=0; [[ "${1:-}" == "--heavy" ]] && heavy=1

# Seed rules at seed size: CSVs and distribution plots in results/<rule>-<R>x<C>/.
$bin analyze --all --out results --quiet
# Comparison of every variant at 1 and 2 threads on rotate 3x3 (5 repeats).
$bin compare --rule rotate --rows 3 --cols 3 --variants topdown,bottomup,hybrid,twobit,serial,reference \
  --threads 1,2 --repeat 5 --out results/compare-rotate-3x3 --quiet
# Micro-benchmarks -> JSON, converted to CSV by our exporter.
./build/stategraph_bench --benchmark_filter='MICRO|FetchOr/10' --benchmark_min_time=0.2 \
  --benchmark_out=results/bench/micro.json --benchmark_out_format=json >results/bench/micro.txt
./build/stategraph_bench_csv results/bench/micro.json

if ((heavy)); then
  $bin analyze --rule rotate --rows 3 --cols 4 --no-graph --out results/rotate-3x4 --quiet
  $bin compare --rule rotate --rows 3 --cols 4 --variants hybrid,topdown --threads 1,2 --repeat 1 \
    --out results/compare-rotate-3x4 --quiet
  ./build/stategraph_bench --benchmark_filter='BFS12/rotate|FetchOr/12' \
    --benchmark_out=results/bench/bfs12-rotate.json --benchmark_out_format=json >results/bench/bfs12-rotate.txt
fi
# Plots of the folders made without a search here (from their CSVs), and the exporter
# on every benchmark JSON.
$bin plot results/rotate-3x4
[[ -f results/compare-rotate-3x4/compare.csv ]] && $bin plot results/compare-rotate-3x4
for j in results/bench/*.json; do ./build/stategraph_bench_csv "$j"; done
