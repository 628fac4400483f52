// The BFS interface shared by every variant: options in, per-depth layer counts (and,
// when asked, a depth per rank) out. A BFS runs from the rule's goal set along
// predecessors, so depth = number of moves from a state to the nearest goal.
//
// Variants live in src/bfs/, one file each, listed in variant_table(); verify_bfs
// checks the properties of a depth table for any of them (after GAP's verifier).
// Limit: depths up to 254 (kUnreached marks states the BFS never reached).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "stategraph/rules/rule.hpp"

namespace stategraph {

inline constexpr std::uint8_t kUnreached = 0xFF;
inline constexpr int kMaxDepth = 254;

enum class Direction { kTopDown, kBottomUp, kScan };
std::string_view direction_name(Direction d);

// How a level-synchronous driver picks each level's direction: always one, or the
// hybrid's per-level choice (choose_direction in engine.hpp).
enum class DirectionPolicy { kTopDown, kBottomUp, kHybrid };

struct LevelStat {
  int depth = 0;
  std::uint64_t states = 0;  // states at this depth
  Direction direction = Direction::kTopDown;
  double seconds = 0;  // time to discover this layer (0 for the goal layer)
  // The disk variant's file traffic while it found this layer (0 for in-memory variants).
  std::uint64_t bytes_read = 0, bytes_written = 0;
};

// Progress of the level being searched, updated by the parallel variants as tasks
// finish (relaxed atomics) and read by a monitor thread (the CLI's progress line).
struct BfsProgress {
  std::atomic<int> depth{0};            // depth of the layer being found
  std::atomic<std::uint64_t> done{0};   // words of the level's scan finished
  std::atomic<std::uint64_t> total{0};  // words the level scans
  void start_level(int d, std::uint64_t words) {
    done.store(0, std::memory_order_relaxed);
    total.store(words, std::memory_order_relaxed);
    depth.store(d, std::memory_order_relaxed);
  }
  void add(std::uint64_t words) { done.fetch_add(words, std::memory_order_relaxed); }
};

struct DiskPlan;          // disk.hpp
class Checkpointer;       // checkpoint.hpp
struct LoadedCheckpoint;  // checkpoint.hpp

// Thrown by a variant that saw BfsOptions::stop become non-zero. The search stopped at
// a safe point: the level being searched was abandoned, nothing after `depth` counts.
class BfsInterrupted : public std::runtime_error {
 public:
  BfsInterrupted(int signal, int depth)
      : std::runtime_error("BFS interrupted after depth " + std::to_string(depth)), signal_(signal), depth_(depth) {}
  int signal() const { return signal_; }  // the stop flag's value (the CLI stores the signal number)
  int depth() const { return depth_; }    // the last complete depth

 private:
  int signal_, depth_;
};

// The disk variant's settings (src/bfs/disk.cpp): where its files go and how much memory
// it may hold; ignored by the in-memory variants.
struct DiskSettings {
  std::filesystem::path dir;        // its folder (empty: none given, the variant refuses to run)
  std::uint64_t memory = 0;         // bytes it may hold in memory (0: MemAvailable)
  std::uint64_t segment_ranks = 0;  // ranks per segment (0: the largest that fits `memory`)
  bool resume = false;              // continue the run whose manifest is in `dir`
  // Leave the manifest of a finished search in `dir` (the data files go): the caller
  // removes it once its results are written, so that a kill before then still resumes.
  bool keep_done_manifest = false;
  // Test seam: a write past this many bytes of files fails with ENOSPC, as on a full disk
  // (0: none; the CLI reads STATEGRAPH_TEST_DISK_WRITE_LIMIT).
  std::uint64_t write_limit = 0;
  // Ranks of the deepest layer to keep (BfsResult::last_layer): the first in rank order.
  std::uint64_t antipodes = 100;
  // Test seam: the bytes of the cross-segment update buffers (0: what the plan gives), so
  // that small spaces overflow them and take the path that sends a round again.
  std::uint64_t outbox_bytes = 0;
  // A top-down neighbour inside the segment at this many ranks or more from its state is
  // claimed through the outbox, sorted, instead of at once (0: kFarClaimDistance; tests
  // set it small so that small spaces take that path).
  std::uint64_t far_claim_distance = 0;
  // Seconds between committed passes (a commit syncs the folder; a kill loses at most the
  // passes since the last one); 0: every pass. analyze: --checkpoint-interval.
  double commit_seconds = 60;
  // A pass that sets few new bits in a segment appends them to a delta file (visd-i-p)
  // instead of rewriting the segment's visited bits; the bits are rewritten whole once
  // the segment's deltas would exceed this fraction of their bytes (0: every pass).
  // 1/64: applying the deltas decodes their varints serially, so a large fraction costs
  // more per pass than the occasional rewrite saves (1/16 spent 30% of a sparse primeswap
  // 2x7 pass decoding deltas).
  double delta_fraction = 1.0 / 64;
};

struct BfsOptions {
  bool want_depths = false;  // fill BfsResult::depth (one byte per rank)
  // Start set; empty means the rule's goals. Each must be in the rule's space.
  std::vector<State> sources;
  // false (default): walk predecessors, depth = moves from a state TO the sources.
  // true: walk successors, depth = moves FROM the sources (same on undirected rules).
  bool forward = false;
  BfsProgress* progress = nullptr;  // optional; not owned
  // Called after each level with its statistics and the running total; may be empty.
  std::function<void(const LevelStat&, std::uint64_t total)> on_level;
  // Cooperative stop (e.g. set to the signal number by a SIGINT handler): every variant
  // polls it between levels, the parallel ones also between tasks of a level; once it
  // is non-zero the search abandons the current level and throws BfsInterrupted.
  const std::atomic<int>* stop = nullptr;
  // Checkpoints (variants with VariantInfo::checkpoints): at level boundaries the variant
  // asks `checkpoint` whether a save is due and hands it its buffers (checkpoint.hpp).
  Checkpointer* checkpoint = nullptr;
  // Resume from a loaded checkpoint instead of the sources (same variants); the variant
  // checks the buffers' layout and throws InputError when they do not fit.
  const LoadedCheckpoint* resume = nullptr;
  // Use the rule's incremental neighbour ranks where it has them (sliding, rotate,
  // primeswap, adjswap, defined rules of distinct pieces); false ranks
  // every neighbour from scratch, the plain loop, kept to measure the gain (bench/).
  bool incremental_ranks = true;
  // Apply the rule's block moves (engine.hpp: sliding's moves to the next cell) a word of
  // 64 ranks at a time; false takes every move state by state (to test and measure).
  bool block_moves = true;
  // Take the neighbour ranks a step needs straight from the rank where the rule can
  // (engine.hpp: sliding's vertical moves with the block moves, RankScanRule; the fixed
  // moves of rotate, adjswap and defined rules of distinct pieces with the incremental
  // ranks, MoveScanRule); false unranks every state first (to test and measure).
  bool rank_scan = true;
  DiskSettings disk;  // the disk variant's folder and memory (ignored by the others)
};

// The stop flag's value, 0 when no stop was asked for.
inline int stop_requested(const BfsOptions& options) {
  return options.stop ? options.stop->load(std::memory_order_relaxed) : 0;
}
// Throws BfsInterrupted(signal, -1) when the flag holds a signal: the graph phase's
// loops, which have no depth of their own (a null flag never stops).
inline void throw_if_stopped(const std::atomic<int>* stop) {
  if (const int s = stop ? stop->load(std::memory_order_relaxed) : 0) throw BfsInterrupted(s, -1);
}
// Throws BfsInterrupted when a stop was asked for; `depth` is the last complete depth.
inline void throw_if_stopped(const BfsOptions& options, int depth) {
  if (const int s = stop_requested(options)) throw BfsInterrupted(s, depth);
}

// The start set a BFS uses: options.sources, or the rule's goals when that is empty.
template <class R>
std::vector<State> bfs_sources(const R& rule, const BfsOptions& options) {
  return options.sources.empty() ? rule.goals() : options.sources;
}

// Calls f for every neighbour of s in the direction the options ask for.
template <class R, class F>
void for_each_bfs_neighbour(const R& rule, const BfsOptions& options, State s, F&& f) {
  if (options.forward)
    rule.for_each_successor(s, f);
  else
    rule.for_each_predecessor(s, f);
}

// Calls f for every state that reaches s in one BFS step: the opposite direction of
// for_each_bfs_neighbour (what a bottom-up step asks about an unvisited state).
template <class R, class F>
void for_each_bfs_parent(const R& rule, const BfsOptions& options, State s, F&& f) {
  if (options.forward)
    rule.for_each_predecessor(s, f);
  else
    rule.for_each_successor(s, f);
}

// Rules that give the ranks of a state's successors and predecessors incrementally
// (for_each_successor_rank / for_each_predecessor_rank, same order as the states),
// directed or not: the rules ranked by the direct permutation (MoveRanks).
template <class R>
concept IncrementalRankRule = requires(const R& r, State s, std::uint64_t k) {
  r.for_each_successor_rank(s, k, [](std::uint64_t) {});
  r.for_each_predecessor_rank(s, k, [](std::uint64_t) {});
};

// f(rank) for every state one BFS step from s (whose rank is r): the rule's incremental
// ranks when it has them (successor and predecessor ranks; sliding's
// for_each_neighbour_rank on its undirected graph) and BfsOptions::incremental_ranks is
// on, else rank() of each neighbour. Parent is the reverse step.
template <class R, class F>
void for_each_bfs_neighbour_rank(const R& rule, const BfsOptions& options, State s, std::uint64_t r, F&& f) {
  if constexpr (IncrementalRankRule<R>) {
    if (options.incremental_ranks) {
      if (options.forward) return rule.for_each_successor_rank(s, r, f);
      return rule.for_each_predecessor_rank(s, r, f);
    }
  } else if constexpr (requires { rule.for_each_neighbour_rank(s, r, f); }) {
    if (!rule.directed() && options.incremental_ranks) return rule.for_each_neighbour_rank(s, r, f);
  }
  for_each_bfs_neighbour(rule, options, s, [&](State p) { return f(rule.rank(p)); });
}
template <class R, class F>
void for_each_bfs_parent_rank(const R& rule, const BfsOptions& options, State s, std::uint64_t r, F&& f) {
  if constexpr (IncrementalRankRule<R>) {
    if (options.incremental_ranks) {
      if (options.forward) return rule.for_each_predecessor_rank(s, r, f);
      return rule.for_each_successor_rank(s, r, f);
    }
  } else if constexpr (requires { rule.for_each_neighbour_rank(s, r, f); }) {
    if (!rule.directed() && options.incremental_ranks) return rule.for_each_neighbour_rank(s, r, f);
  }
  for_each_bfs_parent(rule, options, s, [&](State p) { return f(rule.rank(p)); });
}

struct BfsResult {
  std::vector<std::uint64_t> layers;  // layers[d] = number of states at depth d
  std::vector<LevelStat> levels;      // one per layer, same order
  std::vector<std::uint8_t> depth;    // per rank when asked, kUnreached elsewhere
  std::uint64_t peak_bytes = 0;       // bytes of the variant's big buffers
  double seconds = 0;
  bool disk_io = false;                  // levels carry bytes_read / bytes_written (disk variant)
  std::uint64_t disk_peak_bytes = 0;     // the disk variant's largest use of its folder
  std::uint64_t disk_rounds_resent = 0;  // rounds of remote neighbours sent again: their outbox overflowed
  std::uint64_t disk_far_claims = 0;     // far claims made after their round, bucketed by region (DiskSettings::far_claim_distance)
  std::uint64_t disk_update_merges = 0;  // the disk variant's update files merged into a bitmap (they reached its size)
  // The disk variant (no depth table): the first DiskSettings::antipodes ranks of the
  // deepest layer, ascending (antipodes.csv without a depth table).
  std::vector<std::uint64_t> last_layer;

  std::uint64_t reached() const;
  int max_depth() const { return static_cast<int>(layers.size()) - 1; }
};

using BfsFunction = BfsResult (*)(const AnyRule&, const BfsOptions&);
using BfsBytesFunction = std::uint64_t (*)(const AnyRule&, const BfsOptions&);

// One row of the variant table: everything the CLI, compare, plots, checkpoints and
// stategraph-mpi need to know about a variant is here, never in a test of its name.
struct VariantInfo {
  std::string_view name;
  std::string_view summary;
  BfsFunction run;
  BfsBytesFunction bytes_needed;  // the big buffers the run will allocate
  double bits_per_rank = 0;       // bits per rank of its big buffers without a depth table (0: not fixed)
  int auto_order = 0;             // place in `--variant auto`'s order, 1 = tried first; 0 = never chosen
  bool checkpoints = false;       // saves and resumes checkpoints (BfsOptions::checkpoint / resume)
  bool parallel = false;          // runs on the TBB workers (false: one thread)
  bool timed_levels = false;      // LevelStat::seconds times each level (reference: one queue, not per level)
  bool has_mpi = false;           // stategraph-mpi runs it, choosing directions by `mpi_policy`
  DirectionPolicy mpi_policy = DirectionPolicy::kHybrid;
  bool on_disk = false;  // keeps its arrays in files (needs BfsOptions::disk.dir)
  // On disk: what it will hold in memory and in its folder, checked before it runs.
  DiskPlan (*disk_plan)(const AnyRule&, const DiskSettings&) = nullptr;
  bool disk_resumes = false;  // on disk: a stopped run continues with --resume DIR
};

// Every BFS variant, in a fixed order (reference first).
const std::vector<VariantInfo>& variant_table();
// The entry for a name, or InputError listing the known variants.
const VariantInfo& find_variant(std::string_view name);
// The entry for a name, nullptr when there is none.
const VariantInfo* lookup_variant(std::string_view name);
// Every variant's name, the parallel ones first, then the one-thread ones, then those
// whose levels are not timed, each group in table order (compare's default --variants).
std::vector<std::string> variant_names_by_kind();
// The names of the variants a predicate accepts, in table order, joined by `sep`.
template <class P>
std::string variant_names(P&& accept, std::string_view sep = ", ") {
  std::string out;
  for (const VariantInfo& v : variant_table())
    if (accept(v)) out += (out.empty() ? "" : std::string(sep)) + std::string(v.name);
  return out;
}

// Checks a BFS result that carries a depth table: every goal at depth 0, every state at
// depth d > 0 has a move to a state at depth d - 1, no move s -> t has depth(s) >
// depth(t) + 1, no unreached state has a move to a reached one, and the layer counts
// match the table. Returns an empty string when all hold, else the first violation.
std::string verify_bfs(const AnyRule& rule, const BfsResult& result);

// Times levels and reports them through BfsOptions::on_level; used by every variant.
class LevelRecorder {
 public:
  // max_depth: the deepest layer it records (a depth table's bytes hold kMaxDepth; a
  // variant that keeps no table, checkpoint or manifest of levels may allow more).
  LevelRecorder(const BfsOptions& options, BfsResult& result, int max_depth = kMaxDepth);
  // Records the layer at the next depth; returns false (after recording) when it is
  // empty, and throws std::runtime_error past max_depth.
  bool record(std::uint64_t states, Direction direction);
  // The same with the layer's seconds and file traffic given (the disk variant, which
  // completes a layer one pass after the pass that found most of it).
  bool record(std::uint64_t states, Direction direction, double seconds, std::uint64_t bytes_read,
              std::uint64_t bytes_written);
  // Continues a search whose first levels (and `seconds` of search time) were done
  // before: they are recorded into the result without being reported again.
  void resume(const std::vector<LevelStat>& levels, double seconds);
  // Search time so far, including a resumed run's earlier seconds.
  double elapsed() const;
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  const BfsOptions& options_;
  BfsResult& result_;
  Clock::time_point start_, last_;
  std::uint64_t total_ = 0;
  double before_ = 0;  // seconds of the run a resume continues
  int max_depth_;
};

}  // namespace stategraph
