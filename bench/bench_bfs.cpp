// BFS benchmarks: every registered variant on every rule at its seed size. Counters:
// states/s (states reached per second) and edges/s (moves generated per second).
// Run: build/stategraph_bench --benchmark_out=results/bench/bench.json --benchmark_out_format=json
#include <benchmark/benchmark.h>

#include "stategraph/bfs.hpp"

namespace stategraph {
namespace {

std::uint64_t count_edges(const AnyRule& rule, const BfsResult& r) {
  // Every reached state generates all its predecessor moves once.
  return std::visit(
      [&](const auto& x) {
        std::uint64_t edges = 0;
        for (std::uint64_t k = 0; k < x.size(); ++k) {
          if (r.depth[k] == kUnreached) continue;
          x.for_each_predecessor(x.unrank(k), [&](State) { ++edges; });
        }
        return edges;
      },
      rule);
}

void BM_Bfs(benchmark::State& state, std::string rule_name, std::string variant) {
  const AnyRule rule = make_rule(rule_name);
  const VariantInfo& v = find_variant(variant);
  BfsOptions with_depths;
  with_depths.want_depths = true;
  const std::uint64_t edges = count_edges(rule, v.run(rule, with_depths));
  std::uint64_t reached = 0;
  for (auto _ : state) {
    const BfsResult r = v.run(rule, BfsOptions{});
    reached = r.reached();
    benchmark::DoNotOptimize(r.layers.data());
  }
  state.counters["states_per_s"] = benchmark::Counter(static_cast<double>(reached), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["edges_per_s"] = benchmark::Counter(static_cast<double>(edges), benchmark::Counter::kIsIterationInvariantRate);
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

}  // namespace
}  // namespace stategraph

BENCHMARK_MAIN();
