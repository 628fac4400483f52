// Internal: the level-synchronous BFS over three bitsets (visited, frontier, next:
// 3 bits per rank) that the topdown, bottomup and hybrid variants share. One level is
// either
//  * a top-down step: tbb::parallel_for over the words of the frontier; each set bit
//    is unranked, its BFS neighbours ranked, and an unvisited one claimed with an
//    atomic fetch_or on `visited` (the winner also sets it in `next`, also atomically,
//    since other bits of that word belong to other tasks); or
//  * a bottom-up step: each task owns a range of words of the unvisited set; every
//    unvisited rank is unranked and asks whether any BFS parent (the inverse moves) is
//    in the frontier, stopping at the first. Only the owner writes its words of
//    `next` and `visited`: no atomics.
// The layer size comes from per-task counters (the popcount of what each task set).
// Direction choice (hybrid): direction-optimizing BFS after Beamer, Asanovic &
// Patterson, SC'12, with their edge-count heuristic replaced by a cost model that fits
// these graphs (see choose_direction below).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <vector>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>

#include "stategraph/core/bits.hpp"
#include "stategraph/bfs/checkpoint.hpp"
#include "variants.hpp"

namespace stategraph::bfs {

// The hybrid's per-level choice. Beamer et al. switch on edge counts with alpha = 14,
// beta = 24, tuned on social graphs whose frontier explodes within a level or two.
// Puzzle graphs grow slowly (a layer is at most a few times the previous one) and
// every state has at most max_degree moves, so we compare the work of the two steps
// in "neighbour checks" (one rank + one random bitset access each; measured to cost
// about the same in both directions on rotate 3x4 and sliding 3x4):
//  * top-down expands every frontier state: F * d checks;
//  * bottom-up scans every unvisited state: one not in the next layer tries all its d
//    parents, one in it stops at the first frontier parent, on average after about
//    half of them: (U - N / 2) * d checks, N the next layer's size, predicted from the
//    last growth factor: N ~ min(U, F * F / F_prev).
// Bottom-up is chosen when kBottomUpCost * (U - N / 2) < F. The decision is remade
// every level, so the search can switch back when the frontier shrinks.
inline constexpr double kBottomUpCost = 1.0;   // cost of a bottom-up check / top-down check
inline constexpr double kFoundFraction = 0.5;  // parents tried by a state that is found

inline Direction choose_direction(std::uint64_t frontier, std::uint64_t previous, std::uint64_t unvisited) {
  const double f = static_cast<double>(frontier), u = static_cast<double>(unvisited);
  const double growth = previous > 0 ? std::max(1.0, f / static_cast<double>(previous)) : 1.0;
  const double next = std::min(u, f * growth);
  return kBottomUpCost * (u - kFoundFraction * next) < f ? Direction::kBottomUp : Direction::kTopDown;
}

enum class Policy { kTopDown, kBottomUp, kHybrid };

// Words per parallel task: 512 words = 32768 ranks, large enough to hide scheduling
// cost, small enough to balance the uneven frontiers of early levels.
inline constexpr std::uint64_t kGrainWords = 512;

inline std::uint64_t valid_mask(const Bitset& b, std::uint64_t w) {
  const std::uint64_t tail = b.size() & 63;
  return (w + 1 == b.num_words() && tail) ? (std::uint64_t{1} << tail) - 1 : ~std::uint64_t{0};
}

inline void atomic_or_word(std::uint64_t* word, std::uint64_t mask) {
  std::atomic_ref<std::uint64_t>(*word).fetch_or(mask, std::memory_order_relaxed);
}

// Parallel `dst = 0`.
inline void parallel_clear(Bitset& b) {
  std::uint64_t* w = b.words();
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, b.num_words(), 1u << 16), [&](const auto& r) {
    std::fill(w + r.begin(), w + r.end(), std::uint64_t{0});
  });
}

// Memory-level parallelism: a random access into a bitset of hundreds of megabytes
// misses every cache, and an atomic read-modify-write cannot overlap the next miss.
// So neighbour ranks are computed and their words prefetched in batches of up to
// kBatch, and only then tested and set: the misses of a batch overlap.
inline constexpr int kBatch = 256;
inline constexpr int kMaxMoves = 64;  // bound on max_degree for the batch buffers

inline void prefetch_write(const void* p) { __builtin_prefetch(p, 1, 3); }
inline void prefetch_read(const void* p) { __builtin_prefetch(p, 0, 3); }

template <class R>
void check_batchable(const R& rule) {
  if (rule.max_degree() > kMaxMoves) throw std::logic_error("rule has more moves than the BFS batch buffer holds");
}

template <class R>
std::uint64_t topdown_step(const R& rule, const BfsOptions& options, const Bitset& frontier, Bitset& visited,
                           Bitset& next) {
  const std::uint64_t* fw = frontier.words();
  std::uint64_t* nw = next.words();
  const std::uint64_t* vw = visited.words();
  return tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, frontier.num_words(), kGrainWords), std::uint64_t{0},
      [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t found) {
        if (stop_requested(options)) return found;  // the level is abandoned
        auto unrank = make_unranker(rule);  // per task: it caches leading cells
        std::array<std::uint64_t, kBatch + kMaxMoves> batch;
        int size = 0;
        auto flush = [&] {
          for (int k = 0; k < size; ++k) {
            const std::uint64_t q = batch[static_cast<std::size_t>(k)];
            if (visited.atomic_set(q)) {
              atomic_or_word(nw + (q >> 6), std::uint64_t{1} << (q & 63));
              ++found;
            }
          }
          size = 0;
        };
        for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
          for (std::uint64_t bits = fw[w]; bits; bits &= bits - 1) {
            const std::uint64_t r = w * 64 + static_cast<unsigned>(std::countr_zero(bits));
            for_each_bfs_neighbour_rank(rule, options, unrank(r), r, [&](std::uint64_t q) {
              prefetch_write(vw + (q >> 6));
              batch[static_cast<std::size_t>(size++)] = q;
            });
            if (size >= kBatch) flush();
          }
        }
        flush();
        if (options.progress) options.progress->add(range.size());
        return found;
      },
      std::plus<>());
}

template <class R>
std::uint64_t bottomup_step(const R& rule, const BfsOptions& options, const Bitset& frontier, Bitset& visited,
                            Bitset& next) {
  std::uint64_t* vw = visited.words();
  std::uint64_t* nw = next.words();
  const std::uint64_t* fw = frontier.words();
  return tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, visited.num_words(), kGrainWords), std::uint64_t{0},
      [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t found) {
        if (stop_requested(options)) return found;  // the level is abandoned
        auto unrank = make_unranker(rule);  // per task: it caches leading cells
        // The parents of one word's unvisited states (at most 64 * kMaxMoves ranks),
        // prefetched as they are computed, then tested state by state.
        std::vector<std::uint64_t> parents(64 * static_cast<std::size_t>(rule.max_degree()));
        std::array<std::uint16_t, 65> start;
        for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
          const std::uint64_t unvisited = ~vw[w] & valid_mask(visited, w);
          if (!unvisited) {
            nw[w] = 0;  // bottom-up writes every word of next (it is not cleared)
            continue;
          }
          std::size_t size = 0;
          int states = 0;
          for (std::uint64_t bits = unvisited; bits; bits &= bits - 1) {
            start[static_cast<std::size_t>(states++)] = static_cast<std::uint16_t>(size);
            const std::uint64_t r = w * 64 + static_cast<unsigned>(std::countr_zero(bits));
            for_each_bfs_parent_rank(rule, options, unrank(r), r, [&](std::uint64_t q) {
              prefetch_read(fw + (q >> 6));
              parents[size++] = q;
            });
          }
          start[static_cast<std::size_t>(states)] = static_cast<std::uint16_t>(size);
          std::uint64_t fresh = 0;
          int k = 0;
          for (std::uint64_t bits = unvisited; bits; bits &= bits - 1, ++k) {
            for (std::size_t j = start[static_cast<std::size_t>(k)]; j < start[static_cast<std::size_t>(k) + 1]; ++j)
              if (frontier.test(parents[j])) {
                fresh |= std::uint64_t{1} << std::countr_zero(bits);
                break;
              }
          }
          nw[w] = fresh;
          vw[w] |= fresh;
          found += static_cast<std::uint64_t>(std::popcount(fresh));
        }
        if (options.progress) options.progress->add(range.size());
        return found;
      },
      std::plus<>());
}

// Copies a checkpoint buffer into a bitset; InputError when bits beyond the end are set
// (a frontier bit past the last rank would be unranked).
inline void restore_bitset(Bitset& b, const CheckpointBuffer& buf, const LoadedCheckpoint& from) {
  std::memcpy(b.words(), buf.data, buf.bytes);
  if (b.num_words() && (b.words()[b.num_words() - 1] & ~valid_mask(b, b.num_words() - 1)))
    throw InputError("checkpoint " + from.file.string() + ": bits set past the last rank");
}

// The buffers a bitset BFS checkpoint holds, in order: visited, frontier, [depths].
inline std::vector<std::uint64_t> bitset_checkpoint_layout(std::uint64_t n, bool depths) {
  std::vector<std::uint64_t> out{Bitset::bytes_for(n), Bitset::bytes_for(n)};
  if (depths) out.push_back(n);
  return out;
}

template <class R>
BfsResult bitset_bfs(const R& rule, const BfsOptions& options, Policy policy) {
  BfsResult result;
  LevelRecorder recorder(options, result);
  const std::uint64_t n = rule.size();
  check_batchable(rule);
  Bitset visited(n), frontier(n), next(n);
  if (options.want_depths) result.depth.assign(n, kUnreached);

  std::uint64_t count = 0, unvisited = n, previous = 0;
  int depth = 0;
  Direction dir = policy == Policy::kBottomUp ? Direction::kBottomUp : Direction::kTopDown;
  bool resumed = false;
  if (const LoadedCheckpoint* c = options.resume) {
    // The state at the top of a level's iteration: levels 0..depth recorded, frontier =
    // layer `depth`, visited = layers 0..depth, depth table filled up to `depth`.
    c->check_layout(bitset_checkpoint_layout(n, options.want_depths));
    restore_bitset(visited, c->buffers[0], *c);
    restore_bitset(frontier, c->buffers[1], *c);
    if (options.want_depths) std::memcpy(result.depth.data(), c->buffers[2].data, n);
    depth = static_cast<int>(c->levels.size()) - 1;
    count = c->levels.back().states;
    previous = depth > 0 ? c->levels[static_cast<std::size_t>(depth) - 1].states : 0;
    unvisited = n - c->reached();
    if (visited.count() != c->reached() || frontier.count() != count)
      throw InputError("checkpoint " + c->file.string() + ": bitsets disagree with the level counts");
    recorder.resume(c->levels, c->seconds);
    resumed = true;
  } else {
    for (State g : bfs_sources(rule, options)) {
      const std::uint64_t r = rule.rank(g);
      if (!visited.test(r)) visited.set(r), frontier.set(r), ++count;
    }
    unvisited = n - count;
  }
  for (;; ++depth) {
    if (!resumed) {
      if (!recorder.record(count, dir)) break;
      if (options.want_depths) {
        const std::uint64_t* fw = frontier.words();
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, frontier.num_words(), kGrainWords), [&](const auto& r) {
          for (std::uint64_t w = r.begin(); w != r.end(); ++w)
            for (std::uint64_t bits = fw[w]; bits; bits &= bits - 1)
              result.depth[w * 64 + static_cast<unsigned>(std::countr_zero(bits))] = static_cast<std::uint8_t>(depth);
        });
      }
      throw_if_stopped(options, depth);
      if (options.checkpoint && unvisited > 0 && options.checkpoint->due()) {
        std::vector<CheckpointBuffer> buffers{{visited.words(), Bitset::bytes_for(n)},
                                              {frontier.words(), Bitset::bytes_for(n)}};
        if (options.want_depths) buffers.push_back({result.depth.data(), n});
        options.checkpoint->save(result.levels, recorder.elapsed(), buffers);
      }
    }
    resumed = false;
    throw_if_stopped(options, depth);
    if (policy == Policy::kHybrid) {
      dir = choose_direction(count, previous, unvisited);
    }
    if (unvisited == 0) {  // nothing left to find: the next layer is empty
      count = 0;
      continue;
    }
    if (dir == Direction::kTopDown) parallel_clear(next);  // bottom-up writes every word of next
    previous = count;
    if (options.progress) options.progress->start_level(depth + 1, frontier.num_words());
    count = dir == Direction::kTopDown ? topdown_step(rule, options, frontier, visited, next)
                                       : bottomup_step(rule, options, frontier, visited, next);
    throw_if_stopped(options, depth);  // a stopped step left its level incomplete
    unvisited -= count;
    std::swap(frontier, next);
  }
  result.peak_bytes = 3 * Bitset::bytes_for(n) + (options.want_depths ? n : 0);
  recorder.finish();
  return result;
}

inline std::uint64_t bitset_bytes(const AnyRule& rule, const BfsOptions& options) {
  const std::uint64_t n = rule_size(rule);
  return 3 * Bitset::bytes_for(n) + (options.want_depths ? n : 0);
}

}  // namespace stategraph::bfs
