// Whole-graph benchmarks: GRAPH/<rule> runs, at the seed size, what
// `analyze` adds after its BFS — components, exact diameters, antipodes, shortest-path
// counts and edges — given the goal's BFS (with depth table), which is not timed.
// The target: all four seed rules together under 10 s on 2 cores.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <tuple>

#include "stategraph/analysis/graph.hpp"

namespace stategraph {
namespace {

void BM_Graph(benchmark::State& state, std::string rule_name, DiameterEngine engine) {
  const AnyRule rule = make_rule(rule_name);
  BfsOptions o;
  o.want_depths = true;
  const BfsResult goal = find_variant("hybrid").run(rule, o);
  GraphOptions go;
  go.goal_bfs = &goal;
  go.engine = engine;
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

// Exact diameter of the largest primeswap 3x3 component other than the goal's, BFS from
// every state (all sources) or BoundingDiameters, with one source per BFS or 64-source
// bit-parallel BFS.
void BM_Diameter(benchmark::State& state, bool all_sources, bool multi_source) {
  const DiameterEngine engine = multi_source ? DiameterEngine::kMultiSource : DiameterEngine::kSingleSource;
  const AnyRule rule = make_rule("primeswap", 3, 3);
  std::vector<std::uint64_t> best;
  ComponentOptions co;
  co.collect_limit = 100000;
  co.on_component = [&](ComponentInfo&, std::vector<std::uint64_t>& ranks) {
    if (ranks.size() > best.size()) best = ranks;
  };
  find_components(rule, co);
  std::uint64_t runs = 0;
  int diameter = 0;
  for (auto _ : state) {
    runs = 0;
    diameter = exact_diameter(rule, best, all_sources ? ~std::uint64_t{0} : 0, runs, engine);
  }
  state.counters["states"] = static_cast<double>(best.size());
  state.counters["diameter"] = diameter;
  state.counters["bfs_runs"] = static_cast<double>(runs);
}

// The eccentricities of 64 states of one component (the largest; spread evenly over it)
// by 64 masked single-source bitset BFS, or one 64-source bit-parallel pass over the
// component (masked_eccentricities); counter bfs_runs = 64 either way.
void BM_MaskedEcc(benchmark::State& state, std::string rule_name, int rows, int cols, bool multi) {
  const AnyRule rule = make_rule(rule_name, rows, cols);
  Bitset best;
  std::uint64_t best_size = 0;
  ComponentOptions co;
  co.collect_limit = 1;
  co.on_large_component = [&](std::size_t, ComponentInfo& info, Bitset&& mask) {
    if (info.size > best_size) best_size = info.size, best = std::move(mask);
  };
  find_components(rule, co);
  std::vector<std::uint64_t> sources;
  const std::uint64_t step = std::max<std::uint64_t>(1, best_size / 64);
  std::uint64_t seen = 0;
  for (std::uint64_t r = 0; r < best.size() && sources.size() < 64; ++r)
    if (best.test(r) && seen++ % step == 0) sources.push_back(r);
  int max_ecc = 0;
  for (auto _ : state)
    for (int e : masked_eccentricities(rule, best, sources, multi)) max_ecc = std::max(max_ecc, e);
  state.counters["states"] = static_cast<double>(best_size);
  state.counters["bfs_runs"] = static_cast<double>(sources.size());
  state.counters["max_ecc"] = max_ecc;
}

// Components + exact diameter of a 12-cell space (the aim: "in the same order of
// time as one full BFS"). The goal's BFS is run (and timed) once outside the loop; the
// counter bfs_seconds is its time, ratio = analysis time / BFS time. Heavy: run with
//   build/stategraph_bench --benchmark_filter=GRAPH12
void BM_Graph12(benchmark::State& state, std::string rule_name) {
  const AnyRule rule = make_rule(rule_name, 3, 4);
  const auto t0 = std::chrono::steady_clock::now();
  const BfsResult goal = find_variant("hybrid").run(rule, BfsOptions{});
  const double bfs_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  GraphOptions go;
  go.goal_bfs = &goal;
  GraphReport g;
  double seconds = 0;
  for (auto _ : state) {
    const auto t = std::chrono::steady_clock::now();
    g = analyze_graph(rule, go);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  }
  state.counters["bfs_seconds"] = bfs_seconds;
  state.counters["ratio"] = seconds / bfs_seconds;
  state.counters["diameter"] = g.diameter;
  state.counters["components"] = static_cast<double>(g.components.size());
  state.counters["diameter_bfs_runs"] = static_cast<double>(g.diameter_bfs_runs);
}

const bool registered = [] {
  for (const char* name : {"rotate", "sliding"})
    benchmark::RegisterBenchmark(("GRAPH12/" + std::string(name) + "3x4").c_str(), BM_Graph12, std::string(name))
        ->Unit(benchmark::kSecond)
        ->UseRealTime()
        ->Iterations(1);
  for (bool all : {true, false})
    for (bool multi : {true, false})
      benchmark::RegisterBenchmark((std::string("DIAMETER/primeswap3x3-second/") + (all ? "all-sources" : "bounding") +
                                    (multi ? "/multi-source" : "/single-source"))
                                       .c_str(),
                                   BM_Diameter, all, multi)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  for (const auto& info : rule_table())
    benchmark::RegisterBenchmark(("GRAPH/" + std::string(info.name)).c_str(), BM_Graph, std::string(info.name),
                                 DiameterEngine::kAuto)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  // The rules whose diameters take many runs (primeswap, cardswap) with either engine
  // everywhere instead of kAuto's choice.
  for (const char* name : {"primeswap", "cardswap"})
    for (auto [tag, engine] : {std::pair{"single-source", DiameterEngine::kSingleSource},
                               std::pair{"multi-source", DiameterEngine::kMultiSource}})
      benchmark::RegisterBenchmark(("GRAPH/" + std::string(name) + "/" + tag).c_str(), BM_Graph, std::string(name),
                                   engine)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  // 64 eccentricities in one masked component: 64 single-source BFS vs one 64-source pass.
  for (auto [name, rows, cols] : {std::tuple{"primeswap", 3, 3}, std::tuple{"sliding", 3, 3},
                                  std::tuple{"primeswap", 2, 5}, std::tuple{"sliding", 2, 5}})
    for (bool multi : {false, true})
      benchmark::RegisterBenchmark((std::string("MASKEDECC/") + name + std::to_string(rows) + "x" +
                                    std::to_string(cols) + (multi ? "/multi-source" : "/single-source"))
                                       .c_str(),
                                   BM_MaskedEcc, std::string(name), rows, cols, multi)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  return true;
}();

}  // namespace
}  // namespace stategraph
