// The machine's rate of random atomic fetch_or into a bitset of `bits` bits, 6 per bit
// (as many as rotate generates edges), split over `threads`: the ceiling that BFS12
// (12! bits) and MICRO (10! bits, cache-resident) read their edge rates against.
#pragma once

#include <benchmark/benchmark.h>
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <random>

#include "stategraph/core/bits.hpp"

namespace stategraph {

inline void fetch_or_bench(benchmark::State& state, std::uint64_t bits, std::uint64_t grain, int threads) {
  const std::uint64_t ops = bits * 6;
  Bitset b(bits);
  tbb::global_control control(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  for (auto _ : state) {
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, ops, grain), [&](const auto& range) {
      std::mt19937_64 rng(range.begin());
      std::uint64_t* w = b.words();
      for (std::uint64_t i = range.begin(); i != range.end(); ++i) {
        const std::uint64_t q = rng() % bits;
        std::atomic_ref<std::uint64_t>(w[q >> 6]).fetch_or(std::uint64_t{1} << (q & 63), std::memory_order_relaxed);
      }
    });
  }
  state.counters["ops_per_s"] =
      benchmark::Counter(static_cast<double>(ops), benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace stategraph
