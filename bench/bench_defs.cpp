// The full BFS of rotate 3x4 with turns both ways (12 moves, 12! =
// 479,001,600 states), the built-in rule and the same puzzle read from
// results/defs/rotate-3x4-both.tws, at 1 and 2 threads (hybrid variant).
//
// Heavy (a minute or more per run), so run explicitly, from the source directory:
//   build/stategraph_bench --benchmark_filter='BothBFS12' --benchmark_min_time=1x
// The CLI equivalent with wall, CPU and peak memory (what README and results/defs/
// report): /usr/bin/time -v build/stategraph analyze --rule rotate --rows 3 --cols 4
//   --directions both --no-graph --threads N   (or --rule file:results/defs/rotate-3x4-both.tws)
#include <benchmark/benchmark.h>
#include <tbb/global_control.h>

#include "stategraph/bfs/bfs.hpp"

namespace stategraph {
namespace {

void BM_BothBfs12(benchmark::State& state, bool from_file, int threads) {
  RuleOptions o;
  if (!from_file) o.directions = "both";
  const AnyRule rule =
      from_file ? make_rule("file:results/defs/rotate-3x4-both.tws", 3, 4) : make_rule("rotate", 3, 4, o);
  const VariantInfo& v = find_variant("hybrid");
  tbb::global_control control(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  std::uint64_t reached = 0;
  int depth = 0;
  for (auto _ : state) {
    const BfsResult r = v.run(rule, BfsOptions{});
    reached = r.reached(), depth = r.max_depth();
    benchmark::DoNotOptimize(r.layers.data());
  }
  if (reached != 479001600) state.SkipWithError("did not reach all 12! states");
  state.counters["max_depth"] = depth;
  state.counters["states_per_s"] =
      benchmark::Counter(static_cast<double>(reached), benchmark::Counter::kIsIterationInvariantRate);
}

const bool registered = [] {
  for (bool from_file : {false, true})
    for (int threads : {1, 2})
      benchmark::RegisterBenchmark((std::string("BothBFS12/") + (from_file ? "defined" : "builtin") +
                                    "/rotate3x4/hybrid/threads:" + std::to_string(threads))
                                       .c_str(),
                                   BM_BothBfs12, from_file, threads)
          ->Unit(benchmark::kSecond)
          ->UseRealTime()
          ->Iterations(1);
  return true;
}();

}  // namespace
}  // namespace stategraph
