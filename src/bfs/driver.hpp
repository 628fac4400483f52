// Internal: the single-machine level loop of every checkpointing variant (topdown,
// bottomup, hybrid over three bitsets; twobit over its 2-bit cells): seeding or resuming,
// recording levels, checkpoints, stop requests and the direction policy are here once;
// a Store holds the variant's buffers and runs its steps.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstring>
#include <utility>
#include <vector>

#include "stategraph/bfs/checkpoint.hpp"
#include "stategraph/bfs/engine.hpp"
#include "variants.hpp"

namespace stategraph::bfs {

// What run_levels asks of a Store:
//   std::vector<std::uint64_t> layout() const     bytes of each buffer a checkpoint holds
//   std::vector<CheckpointBuffer> buffers()       those buffers (the depth table is the driver's)
//   void restore(const LoadedCheckpoint&, int depth, std::uint64_t count)
//       copies the buffers of a checkpoint taken at the top of level `depth` (whose layer
//       has `count` states) and checks them against the levels; InputError otherwise
//   bool seed(std::uint64_t rank)                 puts a source in layer 0; false when repeated
//   void mark_depths(int depth)                   writes `depth` for layer `depth`'s ranks
//                                                 into the depth table, when the store keeps one
//   std::uint64_t words() const                   progress units of one level
//   std::uint64_t step(Direction, int depth)      finds layer depth + 1, returns its size
//   std::uint64_t peak_bytes() const              its big buffers
template <class R, class Store>
BfsResult run_levels(const R& rule, const BfsOptions& options, DirectionPolicy policy, Store& store, BfsResult result) {
  LevelRecorder recorder(options, result);
  const std::uint64_t n = rule.size();
  std::uint64_t count = 0, unvisited = n, previous = 0;
  int depth = 0;
  Direction dir = first_direction(policy);
  bool resumed = false;
  if (const LoadedCheckpoint* c = options.resume) {
    // The state at the top of a level's iteration: levels 0..depth recorded, the store
    // holds layer `depth` as its frontier, the depth table is filled up to `depth`.
    std::vector<std::uint64_t> layout = store.layout();
    if (options.want_depths) layout.push_back(n);
    c->check_layout(layout);
    depth = static_cast<int>(c->levels.size()) - 1;
    count = c->levels.back().states;
    previous = depth > 0 ? c->levels[static_cast<std::size_t>(depth) - 1].states : 0;
    unvisited = n - c->reached();
    store.restore(*c, depth, count);
    if (options.want_depths) std::memcpy(result.depth.data(), c->buffers[layout.size() - 1].data, n);
    recorder.resume(c->levels, c->seconds);
    resumed = true;
  } else {
    for (State g : bfs_sources(rule, options)) count += store.seed(rule.rank(g));
    unvisited = n - count;
  }
  for (;; ++depth) {
    if (!resumed) {
      if (!recorder.record(count, dir)) break;
      store.mark_depths(depth);
      throw_if_stopped(options, depth);
      if (options.checkpoint && unvisited > 0 && options.checkpoint->due()) {
        std::vector<CheckpointBuffer> buffers = store.buffers();
        if (options.want_depths) buffers.push_back({result.depth.data(), n});
        options.checkpoint->save(result.levels, recorder.elapsed(), buffers);
      }
    }
    resumed = false;
    throw_if_stopped(options, depth);
    if (policy == DirectionPolicy::kHybrid) dir = choose_direction(count, previous, unvisited);
    if (unvisited == 0) {  // nothing left to find: the next layer is empty
      count = 0;
      continue;
    }
    previous = count;
    if (options.progress) options.progress->start_level(depth + 1, store.words());
    count = store.step(dir, depth);
    throw_if_stopped(options, depth);  // a stopped step left its level incomplete
    unvisited -= count;
  }
  result.peak_bytes = store.peak_bytes() + (options.want_depths ? n : 0);
  recorder.finish();
  return result;
}

// Copies a checkpoint buffer into a bitset; InputError when bits beyond the end are set
// (a frontier bit past the last rank would be unranked).
inline void restore_bitset(Bitset& b, const CheckpointBuffer& buf, const LoadedCheckpoint& from) {
  std::memcpy(b.words(), buf.data, buf.bytes);
  if (b.num_words() && (b.words()[b.num_words() - 1] & ~valid_mask(b, b.num_words() - 1)))
    throw InputError("checkpoint " + from.file.string() + ": bits set past the last rank");
}

// topdown / bottomup / hybrid: visited, frontier and next bitsets (3 bits per rank), the
// engine's steps over the whole space as one block.
template <class R>
class BitsetStore {
 public:
  BitsetStore(const R& rule, const BfsOptions& options, std::uint8_t* depth_table)
      : rule_(rule), options_(options), n_(rule.size()), visited_(n_), frontier_(n_), next_(n_), depth_(depth_table) {
    check_batchable(rule);
  }
  std::vector<std::uint64_t> layout() const { return {Bitset::bytes_for(n_), Bitset::bytes_for(n_)}; }
  std::vector<CheckpointBuffer> buffers() {
    return {{visited_.words(), Bitset::bytes_for(n_)}, {frontier_.words(), Bitset::bytes_for(n_)}};
  }
  void restore(const LoadedCheckpoint& c, int /*depth*/, std::uint64_t count) {
    restore_bitset(visited_, c.buffers[0], c);
    restore_bitset(frontier_, c.buffers[1], c);
    if (visited_.count() != c.reached() || frontier_.count() != count)
      throw InputError("checkpoint " + c.file.string() + ": bitsets disagree with the level counts");
    count_ = count;
  }
  bool seed(std::uint64_t r) {
    if (visited_.test(r)) return false;
    visited_.set(r), frontier_.set(r);
    ++count_;
    return true;
  }
  void mark_depths(int depth) {
    if (!depth_) return;
    const std::uint64_t* fw = frontier_.words();
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, frontier_.num_words(), kGrainWords), [&](const auto& r) {
      for (std::uint64_t w = r.begin(); w != r.end(); ++w)
        for (std::uint64_t bits = fw[w]; bits; bits &= bits - 1)
          depth_[w * 64 + static_cast<unsigned>(std::countr_zero(bits))] = static_cast<std::uint8_t>(depth);
    });
  }
  std::uint64_t words() const { return frontier_.num_words(); }
  std::uint64_t step(Direction dir, int /*depth*/) {
    std::uint64_t found;
    if (dir == Direction::kTopDown) {
      found = topdown_step(rule_, options_, frontier_, visited_, next_, count_);
    } else {
      found = bottomup_step(rule_, options_, frontier_, visited_, next_);
    }
    std::swap(frontier_, next_);
    count_ = found;
    return found;
  }
  std::uint64_t peak_bytes() const { return 3 * Bitset::bytes_for(n_); }

 private:
  const R& rule_;
  const BfsOptions& options_;
  std::uint64_t n_;
  Bitset visited_, frontier_, next_;
  std::uint64_t count_ = 0;  // states in frontier_
  std::uint8_t* depth_;
};

template <class R>
BfsResult bitset_bfs(const R& rule, const BfsOptions& options, DirectionPolicy policy) {
  BfsResult result;
  if (options.want_depths) result.depth.assign(rule.size(), kUnreached);
  BitsetStore<R> store(rule, options, options.want_depths ? result.depth.data() : nullptr);
  return run_levels(rule, options, policy, store, std::move(result));
}

inline std::uint64_t bitset_bytes(const AnyRule& rule, const BfsOptions& options) {
  const std::uint64_t n = rule_size(rule);
  return 3 * Bitset::bytes_for(n) + (options.want_depths ? n : 0);
}

}  // namespace stategraph::bfs
