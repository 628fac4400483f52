// BFS benchmarks: every registered variant on every rule at its seed size. Counters:
// states/s (states reached per second) and edges/s (moves generated per second).
// Run: build/stategraph_bench --benchmark_out=results/bench/bench.json --benchmark_out_format=json
#include <benchmark/benchmark.h>

#include <string>
#include <tuple>
#include <vector>

#include "moves.hpp"
#include "stategraph/bfs/bfs.hpp"

namespace stategraph {
namespace {

void BM_Bfs(benchmark::State& state, std::string rule_name, std::string variant) {
  const AnyRule rule = make_rule(rule_name);
  const VariantInfo& v = find_variant(variant);
  BfsOptions with_depths;
  with_depths.want_depths = true;
  const std::uint64_t edges = count_bfs_moves(rule, v.run(rule, with_depths).depth);
  std::uint64_t reached = 0;
  for (auto _ : state) {
    const BfsResult r = v.run(rule, BfsOptions{});
    reached = r.reached();
    benchmark::DoNotOptimize(r.layers.data());
  }
  state.counters["states_per_s"] =
      benchmark::Counter(static_cast<double>(reached), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["edges_per_s"] =
      benchmark::Counter(static_cast<double>(edges), benchmark::Counter::kIsIterationInvariantRate);
}

const bool registered = [] {
  for (const auto& info : rule_table())
    for (const auto& v : variant_table())
      benchmark::RegisterBenchmark(("BFS/" + std::string(info.name) + "/" + std::string(v.name)).c_str(), BM_Bfs,
                                   std::string(info.name), std::string(v.name))
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  return true;
}();

// Successor ranks: rank() of each successor from scratch against the rule's incremental
// ranks (sliding: for_each_neighbour_rank, a move changes a bounded part of the Lehmer
// code; rotate, primeswap, adjswap: for_each_successor_rank, MoveRanks' digit windows and
// split-rank table). Same 2^16 random states for both; counter ranks_per_s.
void BM_NeighbourRanks(benchmark::State& state, std::string name, int rows, int cols, bool incremental) {
  RuleOptions options;
  if (name == "rotate-both") name = "rotate", options.directions = "both";
  std::visit(
      [&](const auto& rule) {
        std::vector<std::pair<State, std::uint64_t>> states;
        std::uint64_t x = 88172645463325252ull;
        for (int i = 0; i < (1 << 16); ++i) {
          x ^= x << 13, x ^= x >> 7, x ^= x << 17;
          const std::uint64_t k = x % rule.size();
          states.emplace_back(rule.unrank(k), k);
        }
        std::uint64_t ranks = 0, sum = 0;
        for (auto _ : state) {
          for (const auto& [s, k] : states) {
            const auto count = [&](std::uint64_t q) { sum += q, ++ranks; };
            if (!incremental) {
              rule.for_each_successor(s, [&](State t) { count(rule.rank(t)); });
            } else if constexpr (requires { rule.for_each_successor_rank(s, k, count); }) {
              rule.for_each_successor_rank(s, k, count);
            } else if constexpr (requires { rule.for_each_neighbour_rank(s, k, count); }) {
              rule.for_each_neighbour_rank(s, k, count);
            } else {
              state.SkipWithError("the rule has no incremental neighbour ranks");
              return;
            }
          }
          benchmark::DoNotOptimize(sum);
        }
        state.counters["ranks_per_s"] = benchmark::Counter(static_cast<double>(ranks), benchmark::Counter::kIsRate);
        state.counters["s_per_rank"] =
            benchmark::Counter(static_cast<double>(ranks), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
      },
      make_rule(name, rows, cols, options));
}

const bool neighbour_ranks_registered = [] {
  const std::vector<std::tuple<std::string, int, int>> cases = {{"sliding", 3, 4},   {"sliding", 2, 7},
                                                                {"rotate", 3, 4},    {"rotate-both", 3, 4},
                                                                {"primeswap", 3, 4}, {"adjswap", 3, 4}};
  for (const auto& [name, r, c] : cases)
    for (bool inc : {false, true})
      benchmark::RegisterBenchmark(("NeighbourRanks/" + name + std::to_string(r) + "x" + std::to_string(c) + "/" +
                                    (inc ? "incremental" : "rank"))
                                       .c_str(),
                                   BM_NeighbourRanks, name, r, c, inc)
          ->Unit(benchmark::kMicrosecond);
  return true;
}();

}  // namespace
}  // namespace stategraph

BENCHMARK_MAIN();
