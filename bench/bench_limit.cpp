// What one core and the memory system can do for a BFS's data, the limit that the BFS's
// own time per state is read against (one thread; per state and per write).
//
//   LIMIT/scan/<space>            a sequential pass over the state array (popcount of
//                                 every word): what a level that scans it all pays
//   LIMIT/writes/random/<space>   one level's successor writes in the order a top-down
//                                 step makes them: random, a plain OR each
//   LIMIT/writes/bucketed/<space> the same writes scattered first into buckets of
//                                 kBucketBits target ranks (a cache-sized slice of the
//                                 array), then applied bucket by bucket; the scatter is
//                                 timed too, since a kernel would pay it
// Spaces: sliding3x4 (12!/2 ranks, 1 bit each), rank12 (12! ranks: rotate, primeswap),
// sliding2x7 (14!/2 ranks at 2 bits: 10.9 GB, run only when asked by name). Writes per
// level: 2^24 targets drawn uniformly (a late level of a 12-cell BFS has ~10^7..10^8).
// Counters: ns_per_state (scan) or ns_per_write (writes).
// Run: build/stategraph_bench --benchmark_filter='LIMIT/.*/(sliding3x4|rank12)' \
//        --benchmark_out=results/bench/limit.json --benchmark_out_format=json
#include <benchmark/benchmark.h>

#include <bit>
#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "stategraph/core/bits.hpp"

namespace stategraph {
namespace {

constexpr std::uint64_t kSliding3x4 = 239500800ull;        // 12!/2
constexpr std::uint64_t kRank12 = 479001600ull;            // 12!
constexpr std::uint64_t kSliding2x7Bits = 87178291200ull;  // 14!/2 states x 2 bits
constexpr std::uint64_t kWrites = std::uint64_t{1} << 24;
constexpr int kBucketShift = 18;  // 2^18 bits = 32 KiB of array per bucket (L1/L2-resident)

// Nanoseconds per item over all iterations, from the run's real time (a plain number:
// Google Benchmark's inverted rate counters print with misleading unit prefixes).
class NsPer {
 public:
  void start() { t0_ = std::chrono::steady_clock::now(); }
  void stop() { ns_ += std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0_).count(); }
  void report(benchmark::State& state, const char* name, std::uint64_t items) {
    state.counters[name] = ns_ / (static_cast<double>(state.iterations()) * static_cast<double>(items));
  }

 private:
  std::chrono::steady_clock::time_point t0_;
  double ns_ = 0;
};

std::vector<std::uint64_t> targets(std::uint64_t bits) {
  std::mt19937_64 rng(7);
  std::vector<std::uint64_t> out(kWrites);
  for (auto& q : out) q = rng() % bits;
  return out;
}

void BM_Scan(benchmark::State& state, std::uint64_t bits, std::uint64_t states) {
  Bitset b(bits);
  for (std::uint64_t w = 0; w < b.num_words(); w += 7) b.words()[w] = w * 0x9E3779B97F4A7C15ull;
  NsPer clock;
  for (auto _ : state) {
    clock.start();
    std::uint64_t count = 0;
    const std::uint64_t* w = b.words();
    for (std::uint64_t i = 0; i < b.num_words(); ++i) count += static_cast<std::uint64_t>(std::popcount(w[i]));
    benchmark::DoNotOptimize(count);
    clock.stop();
  }
  clock.report(state, "ns_per_state", states);
}

void BM_WritesRandom(benchmark::State& state, std::uint64_t bits) {
  Bitset b(bits);
  const auto q = targets(bits);
  NsPer clock;
  for (auto _ : state) {
    clock.start();
    std::uint64_t* w = b.words();
    for (std::uint64_t t : q) w[t >> 6] |= std::uint64_t{1} << (t & 63);
    benchmark::ClobberMemory();
    clock.stop();
  }
  clock.report(state, "ns_per_write", kWrites);
}

void BM_WritesBucketed(benchmark::State& state, std::uint64_t bits) {
  Bitset b(bits);
  const auto q = targets(bits);
  const std::uint64_t buckets = (bits >> kBucketShift) + 1;
  std::vector<std::uint32_t> count(buckets + 1);
  std::vector<std::uint64_t> sorted(kWrites);
  NsPer clock;
  for (auto _ : state) {
    clock.start();
    std::fill(count.begin(), count.end(), 0);
    for (std::uint64_t t : q) ++count[(t >> kBucketShift) + 1];
    for (std::uint64_t i = 1; i <= buckets; ++i) count[i] += count[i - 1];
    for (std::uint64_t t : q) sorted[count[t >> kBucketShift]++] = t;
    std::uint64_t* w = b.words();
    for (std::uint64_t t : sorted) w[t >> 6] |= std::uint64_t{1} << (t & 63);
    benchmark::ClobberMemory();
    clock.stop();
  }
  clock.report(state, "ns_per_write", kWrites);
}

const bool registered = [] {
  struct Space {
    const char* name;
    std::uint64_t bits, states;
  };
  for (const Space& s : {Space{"sliding3x4", kSliding3x4, kSliding3x4}, Space{"rank12", kRank12, kRank12},
                         Space{"sliding2x7", kSliding2x7Bits, kSliding2x7Bits / 2}}) {
    const std::string name(s.name);
    benchmark::RegisterBenchmark(("LIMIT/scan/" + name).c_str(), BM_Scan, s.bits, s.states)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("LIMIT/writes/random/" + name).c_str(), BM_WritesRandom, s.bits)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("LIMIT/writes/bucketed/" + name).c_str(), BM_WritesBucketed, s.bits)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  return true;
}();

}  // namespace
}  // namespace stategraph
