// Whole-graph benchmarks (issue 4): GRAPH/<rule> runs, at the seed size, what
// `analyze` adds after its BFS — components, exact diameters, antipodes, shortest-path
// counts and edges — given the goal's BFS (with depth table), which is not timed.
// The target: all four seed rules together under 10 s on 2 cores.
#include <benchmark/benchmark.h>

#include "stategraph/graph.hpp"

namespace stategraph {
namespace {

void BM_Graph(benchmark::State& state, std::string rule_name) {
  const AnyRule rule = make_rule(rule_name);
  BfsOptions o;
  o.want_depths = true;
  const BfsResult goal = find_variant("hybrid").run(rule, o);
  GraphOptions go;
  go.goal_bfs = &goal;
  std::uint64_t runs = 0;
  for (auto _ : state) {
    const GraphReport g = analyze_graph(rule, go);
    const auto paths = path_counts(rule, goal);
    const auto far = antipodes(goal, 100);
    benchmark::DoNotOptimize(reached_edges(rule, goal));
    benchmark::DoNotOptimize(paths.data());
    benchmark::DoNotOptimize(far.data());
    runs = g.diameter_bfs_runs;
  }
  state.counters["diameter_bfs_runs"] = static_cast<double>(runs);
}

const bool registered = [] {
  for (const auto& info : rule_table())
    benchmark::RegisterBenchmark(("GRAPH/" + std::string(info.name)).c_str(), BM_Graph, std::string(info.name))
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  return true;
}();

}  // namespace
}  // namespace stategraph
