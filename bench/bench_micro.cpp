// Micro-benchmarks of what a BFS is made of (rank, unrank, successors, one level, atomic
// writes), each rule at its seed size.
//
//   MICRO/rank/<rule>        rank of 4096 random states per iteration (states_per_s)
//   MICRO/unrank/<rule>      unrank of 4096 random ranks (states_per_s)
//   MICRO/successors/<rule>  every successor of 4096 random states (moves_per_s)
//   MICRO/level/<rule>/<v>   the largest BFS level of a full search with variant v,
//                            timed by the variant's own level clock (manual time;
//                            states_per_s = that layer's states per second)
//   MICRO/available_memory   reading MemAvailable, which every run checks its need against
//   MICRO/pancake14_ranks/<path>  the 13 flips' ranks of 4096 random 14-pancake stacks,
//                            all flips by their digit windows (windows) or the six long
//                            ones by one reversal pass (reversals: MoveRanks::
//                            for_each_rank, what the BFS does) (states_per_s)
//   FetchOr/10!/threads:N    random atomic fetch_or into a 10!-bit set (cache-resident),
//                            the light twin of FetchOr/12! in bench_bfs12.cpp (ops_per_s)
// Run: build/stategraph_bench --benchmark_filter='MICRO|FetchOr/10' \
//        --benchmark_out=results/bench/micro.json --benchmark_out_format=json
//      build/stategraph_bench_csv results/bench/micro.json
#include <benchmark/benchmark.h>
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <random>

#include "fetch_or.hpp"
#include "stategraph/bfs/bfs.hpp"
#include "stategraph/bfs/memory.hpp"
#include "stategraph/core/bits.hpp"
#include "stategraph/core/move_rank.hpp"

namespace stategraph {
namespace {

constexpr std::size_t kBatch = 4096;

std::vector<std::uint64_t> random_ranks(const AnyRule& rule) {
  std::mt19937_64 rng(42);
  std::vector<std::uint64_t> out(kBatch);
  for (auto& k : out) k = rng() % rule_size(rule);
  return out;
}

void BM_Rank(benchmark::State& state, std::string rule_name) {
  const AnyRule rule = make_rule(rule_name);
  std::visit(
      [&](const auto& r) {
        std::vector<State> states;
        for (auto k : random_ranks(rule)) states.push_back(r.unrank(k));
        for (auto _ : state)
          for (State s : states) benchmark::DoNotOptimize(r.rank(s));
      },
      rule);
  state.counters["states_per_s"] = benchmark::Counter(kBatch, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Unrank(benchmark::State& state, std::string rule_name) {
  const AnyRule rule = make_rule(rule_name);
  const auto ranks = random_ranks(rule);
  std::visit(
      [&](const auto& r) {
        for (auto _ : state)
          for (auto k : ranks) benchmark::DoNotOptimize(r.unrank(k));
      },
      rule);
  state.counters["states_per_s"] = benchmark::Counter(kBatch, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Successors(benchmark::State& state, std::string rule_name) {
  const AnyRule rule = make_rule(rule_name);
  std::uint64_t moves = 0;
  std::visit(
      [&](const auto& r) {
        std::vector<State> states;
        for (auto k : random_ranks(rule)) states.push_back(r.unrank(k));
        for (State s : states) r.for_each_successor(s, [&](State) { ++moves; });
        for (auto _ : state)
          for (State s : states) r.for_each_successor(s, [](State t) { benchmark::DoNotOptimize(t); });
      },
      rule);
  state.counters["moves_per_s"] =
      benchmark::Counter(static_cast<double>(moves), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Level(benchmark::State& state, std::string rule_name, std::string variant) {
  const AnyRule rule = make_rule(rule_name);
  const VariantInfo& v = find_variant(variant);
  double states = 0, seconds = 0;
  int depth = 0;
  for (auto _ : state) {
    const BfsResult r = v.run(rule, BfsOptions{});
    const auto big = std::max_element(r.levels.begin(), r.levels.end(),
                                      [](const LevelStat& a, const LevelStat& b) { return a.states < b.states; });
    state.SetIterationTime(big->seconds);
    states += static_cast<double>(big->states), seconds += big->seconds, depth = big->depth;
  }
  state.counters["states_per_s"] = seconds > 0 ? states / seconds : 0;
  state.counters["depth"] = depth;
}

void BM_AvailableMemory(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(available_memory());
}

// The flips of results/defs/pancake-14.tws: f_k reverses the last k cells (the top).
void BM_PancakeRanks(benchmark::State& state, bool reversal_pass) {
  constexpr int n = 14;
  std::vector<std::vector<int>> moves;
  for (int k = 2; k <= n; ++k) {
    std::vector<int> p(n);
    for (int i = 0; i < n; ++i) p[static_cast<std::size_t>(i)] = i < n - k ? i : 2 * n - k - 1 - i;
    moves.push_back(p);
  }
  const MoveRanks mr(n, moves);
  std::mt19937_64 rng(42);
  std::vector<std::pair<State, std::uint64_t>> states;
  for (std::size_t i = 0; i < kBatch; ++i) {
    const std::uint64_t r = rng() % kFactorial[n];
    states.emplace_back(perm_unrank(r, n), r);
  }
  for (auto _ : state) {
    for (const auto& [s, r] : states) {
      if (reversal_pass) {
        mr.for_each_rank(
            s, r, [](std::size_t) { return true; }, [](std::uint64_t q) { benchmark::DoNotOptimize(q); });
      } else {
        MoveRanks::Scan sc;
        mr.prepare(s, sc);
        for (std::size_t j = 0; j < mr.moves(); ++j) benchmark::DoNotOptimize(mr.rank(j, s, r, sc));
      }
    }
  }
  state.counters["states_per_s"] = benchmark::Counter(kBatch, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_FetchOrSmall(benchmark::State& state, int threads) { fetch_or_bench(state, 3628800, 1u << 18, threads); }

const bool registered = [] {
  for (const auto& info : rule_table()) {
    const std::string r(info.name);
    benchmark::RegisterBenchmark(("MICRO/rank/" + r).c_str(), BM_Rank, r);
    benchmark::RegisterBenchmark(("MICRO/unrank/" + r).c_str(), BM_Unrank, r);
    benchmark::RegisterBenchmark(("MICRO/successors/" + r).c_str(), BM_Successors, r);
    for (const char* v : {"topdown", "hybrid", "twobit", "serial"})
      benchmark::RegisterBenchmark(("MICRO/level/" + r + "/" + v).c_str(), BM_Level, r, std::string(v))
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
  }
  benchmark::RegisterBenchmark("MICRO/available_memory", BM_AvailableMemory);
  benchmark::RegisterBenchmark("MICRO/pancake14_ranks/windows", BM_PancakeRanks, false);
  benchmark::RegisterBenchmark("MICRO/pancake14_ranks/reversals", BM_PancakeRanks, true);
  for (int threads : {1, 2})
    benchmark::RegisterBenchmark(("FetchOr/10!/threads:" + std::to_string(threads)).c_str(), BM_FetchOrSmall, threads)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  return true;
}();

}  // namespace
}  // namespace stategraph
