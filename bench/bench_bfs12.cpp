// 12-cell BFS benchmarks: every parallel variant on rotate 3x4 and sliding
// 3x4 at 1 and 2 threads, and the machine's ceiling for this work: random atomic
// fetch_or into a bitset of the same size.
//
// Heavy (tens of seconds per run), so run
// them explicitly:
//   build/stategraph_bench --benchmark_filter='BFS12|FetchOr' \
//     --benchmark_out=results/bench/bfs12.json --benchmark_out_format=json
// Read edges_per_s of BFS12 against ops_per_s of FetchOr: the ratio is how close the
// BFS gets to the memory system's rate of random read-modify-writes.
#include <benchmark/benchmark.h>
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <map>
#include <random>
#include <string>
#include <utility>

#include "fetch_or.hpp"
#include "moves.hpp"
#include "stategraph/bfs/bfs.hpp"
#include "stategraph/core/bits.hpp"

namespace stategraph {
namespace {

void BM_Bfs12(benchmark::State& state, std::string rule_name, std::string variant, int threads, int rows, int cols,
              bool incremental) {
  const AnyRule rule = make_rule(rule_name, rows, cols);
  BfsOptions options;
  options.incremental_ranks = incremental;
  const VariantInfo& v = find_variant(variant);
  tbb::global_control control(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  std::uint64_t reached = 0;
  for (auto _ : state) {
    const BfsResult r = v.run(rule, options);
    reached = r.reached();
    benchmark::DoNotOptimize(r.layers.data());
  }
  // edges_per_s: the moves the BFS really follows (moves.hpp), counted once per grid over
  // the whole space, which is what these BFS reach (checked).
  static std::map<std::pair<std::string, int>, std::uint64_t> moves_of;
  const std::size_t size = std::visit([](const auto& x) { return static_cast<std::size_t>(x.size()); }, rule);
  if (reached != size) {
    state.SkipWithError("the BFS did not reach the whole space: no move count");
    return;
  }
  auto [it, fresh] = moves_of.try_emplace({rule_name, rows * 100 + cols}, 0);
  if (fresh) it->second = count_bfs_moves(rule);
  state.counters["states_per_s"] =
      benchmark::Counter(static_cast<double>(reached), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["edges_per_s"] =
      benchmark::Counter(static_cast<double>(it->second), benchmark::Counter::kIsIterationInvariantRate);
}

// Random atomic fetch_or over a bitset of 12! bits, as many operations as rotate 3x4
// generates edges (6 per state), split over the threads.
void BM_FetchOr(benchmark::State& state, int threads) { fetch_or_bench(state, 479001600, 1u << 20, threads); }

const bool registered = [] {
  for (const char* rule : {"rotate", "sliding"})
    for (const char* variant : {"topdown", "bottomup", "hybrid", "twobit"})
      for (int threads : {1, 2})
        benchmark::RegisterBenchmark(
            ("BFS12/" + std::string(rule) + "3x4/" + variant + "/threads:" + std::to_string(threads)).c_str(), BM_Bfs12,
            std::string(rule), std::string(variant), threads, 3, 4, true)
            ->Unit(benchmark::kSecond)
            ->UseRealTime()
            ->Iterations(1);
  // twobit, the 2x7 run's variant, on the two 12-cell sliding grids, with the
  // incremental successor ranks (as run) against the plain loop that ranks every
  // neighbour from scratch, at 2 threads.
  for (auto [rows, cols] : {std::pair{3, 4}, std::pair{2, 6}})
    for (bool incremental : {true, false})
      benchmark::RegisterBenchmark(("TWOBIT12/sliding" + std::to_string(rows) + "x" + std::to_string(cols) + "/" +
                                    (incremental ? "incremental" : "plain") + "/threads:2")
                                       .c_str(),
                                   BM_Bfs12, std::string("sliding"), std::string("twobit"), 2, rows, cols, incremental)
          ->Unit(benchmark::kSecond)
          ->UseRealTime()
          ->Iterations(1);
  for (int threads : {1, 2})
    benchmark::RegisterBenchmark(("FetchOr/12!/threads:" + std::to_string(threads)).c_str(), BM_FetchOr, threads)
        ->Unit(benchmark::kSecond)
        ->UseRealTime()
        ->Iterations(1);
  return true;
}();

}  // namespace
}  // namespace stategraph
