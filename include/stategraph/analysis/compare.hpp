// Experiments: every BFS variant x thread count on one space, run in one
// process, interleaved, after a warm-up run; every run must produce the same per-depth
// counts. The timing harness of `stategraph compare` (target stategraph_tools, apart from
// the core): running, checking, medians; io/tables.hpp writes its CSV tables.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "stategraph/bfs/bfs.hpp"

namespace stategraph {

// A run whose per-depth counts differ from the warm-up's (exit 1 in the CLI).
class CompareMismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CompareOptions {
  std::vector<VariantInfo> variants;  // in the order given; names unique
  std::vector<int> threads;           // positive, unique
  int repeat = 5;                     // timed runs per variant x threads
  // Variants whose buffers need more bytes than this are skipped with a note when they
  // are `reference`; any other variant that does not fit is an InputError (before any run).
  std::uint64_t memory_limit = ~std::uint64_t{0};
  std::string limit_source = "available memory";
  // Count the moves the search examines (for edges_per_s): needs a one-byte-per-rank
  // depth table in the warm-up run and one parallel pass over the space.
  bool count_edges = true;
  // Cooperative stop (the CLI's signal flag): every run polls it (BfsOptions::stop) and
  // throws BfsInterrupted, so a signal stops compare inside a run too.
  const std::atomic<int>* stop = nullptr;
  // Progress: called before/after each run ("[3/61] hybrid, 2 threads, repeat 1: 0.01 s").
  std::function<void(const std::string&)> log;
  // The disk variant's folder (its memory is memory_limit); required when it is listed.
  DiskSettings disk;
};

struct CompareRun {
  std::string variant;
  int threads = 1;
  int repeat = 0;    // 1..repeat
  BfsResult result;  // layers, levels, seconds, peak_bytes (no depth table)
};

struct CompareReport {
  std::string rule;
  int rows = 0, cols = 0;
  std::uint64_t space_size = 0;
  std::vector<std::uint64_t> layers;  // the per-depth counts every run produced
  std::uint64_t edges = 0;            // moves examined by one search; 0 = not counted
  std::string warmup_variant;
  int warmup_threads = 0;
  double warmup_seconds = 0;
  std::vector<std::string> variants;  // the variants that ran, in order
  std::vector<int> threads;
  int repeat = 0;
  std::vector<CompareRun> runs;    // in the order they ran
  std::vector<std::string> notes;  // skipped variants and why
};

// Runs the experiment. Throws InputError for a variant that does not fit (other than
// reference), CompareMismatch when a run's layers differ from the warm-up's.
CompareReport run_compare(const AnyRule& rule, const CompareOptions& options);

// "" when a and b are equal, else a sentence naming the first differing depth.
std::string layers_mismatch(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b);

// Median of a non-empty sample (mean of the two middle values for an even count).
double median(std::vector<double> values);

// One variant x threads cell of the summary.
struct CompareCell {
  std::string variant;
  int threads = 1;
  int runs = 0;
  double median_seconds = 0, min_seconds = 0, max_seconds = 0;
  double median_states_per_s = 0;
  // median(serial at the smallest thread count) / median here; empty without serial.
  std::optional<double> speedup_vs_serial;
  // median(this variant at the smallest thread count) / median here.
  std::optional<double> speedup_vs_base_threads;
};

struct CompareSummary {
  std::vector<CompareCell> cells;  // variants in run order, threads ascending
  int base_threads = 1;            // the smallest thread count (the "1 thread" of the speed-ups)
  std::size_t fastest = 0;         // index of the smallest median
};

CompareSummary summarize_compare(const CompareReport& report);

}  // namespace stategraph
