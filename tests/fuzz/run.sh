#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan + libFuzzer; build dir build-fuzz/)
# and runs each for a bounded time on a copy of its seed corpus. Any crash, sanitizer
# report, timeout or contract violation (fuzz_common.hpp) fails the script; the input
# that triggered it is left in build-fuzz/findings/ (turn it into a regression test).
#
#   bash tests/fuzz/run.sh [SECONDS_PER_TARGET=25]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-25}
build=${STATEGRAPH_FUZZ_BUILD:-build-fuzz}
targets=(parse_queries parse_state cli_numbers table_file checkpoint_file)

cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
  -DSTATEGRAPH_FUZZ=ON -DSTATEGRAPH_BUILD_TESTS=OFF -DSTATEGRAPH_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j 2 --target "${targets[@]/#/fuzz_}"

mkdir -p "$build/findings"
failed=()
for t in "${targets[@]}"; do
  work="$build/corpus/$t"  # the fuzzer adds what it finds here; the seeds stay untouched
  mkdir -p "$work"
  echo "fuzz: $t for ${seconds}s" >&2
  if ! "$build/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$build/findings/$t-" "$work" "tests/fuzz/corpus/$t" >"$build/fuzz_$t.log" 2>&1; then
    failed+=("$t")
    tail -40 "$build/fuzz_$t.log" >&2
  fi
  grep -E '^stat::number_of_executed_units|^stat::new_units_added' "$build/fuzz_$t.log" | tr '\n' ' ' >&2
  echo >&2
done
if ((${#failed[@]})); then
  echo "fuzz: findings in ${failed[*]} (inputs in $build/findings/)" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets, ${seconds}s each, no findings" >&2
