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
// Direction choice (hybrid) follows Beamer, Asanovic & Patterson, SC'12, with edge
// counts replaced by state counts (every state here has at most max_degree moves, and
// the degrees of a puzzle's states differ little):
//  * top-down -> bottom-up when frontier * kAlpha > unvisited;
//  * bottom-up -> top-down when the frontier shrinks and frontier * kBeta < size.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <atomic>
#include <bit>
#include <cstdint>

#include "stategraph/bits.hpp"
#include "variants.hpp"

namespace stategraph::bfs {

// Beamer et al. tuned alpha = 14, beta = 24 on social graphs; on these puzzles a
// bottom-up step costs about a third of a top-down step per state scanned (early
// exit, no atomics), so bottom-up pays earlier. Measured on sliding 3x4 / rotate 3x4
// (bench/bench_bfs.cpp, BFS12/*): see README.
inline constexpr double kAlpha = 4.0;
inline constexpr double kBeta = 24.0;

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

template <class R>
std::uint64_t topdown_step(const R& rule, const BfsOptions& options, const Bitset& frontier, Bitset& visited,
                           Bitset& next) {
  const std::uint64_t* fw = frontier.words();
  std::uint64_t* nw = next.words();
  return tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, frontier.num_words(), kGrainWords), std::uint64_t{0},
      [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t found) {
        for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
          for (std::uint64_t bits = fw[w]; bits; bits &= bits - 1) {
            const std::uint64_t r = w * 64 + static_cast<unsigned>(std::countr_zero(bits));
            for_each_bfs_neighbour(rule, options, rule.unrank(r), [&](State p) {
              const std::uint64_t q = rule.rank(p);
              if (visited.atomic_set(q)) {
                atomic_or_word(nw + (q >> 6), std::uint64_t{1} << (q & 63));
                ++found;
              }
            });
          }
        }
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
  return tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, visited.num_words(), kGrainWords), std::uint64_t{0},
      [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t found) {
        for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
          std::uint64_t fresh = 0;
          for (std::uint64_t bits = ~vw[w] & valid_mask(visited, w); bits; bits &= bits - 1) {
            const unsigned b = static_cast<unsigned>(std::countr_zero(bits));
            bool hit = false;
            for_each_bfs_parent(rule, options, rule.unrank(w * 64 + b), [&](State p) {
              hit = frontier.test(rule.rank(p));
              return hit;
            });
            if (hit) fresh |= std::uint64_t{1} << b;
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

template <class R>
BfsResult bitset_bfs(const R& rule, const BfsOptions& options, Policy policy) {
  BfsResult result;
  LevelRecorder recorder(options, result);
  const std::uint64_t n = rule.size();
  Bitset visited(n), frontier(n), next(n);
  if (options.want_depths) result.depth.assign(n, kUnreached);

  std::uint64_t count = 0;
  for (State g : bfs_sources(rule, options)) {
    const std::uint64_t r = rule.rank(g);
    if (!visited.test(r)) visited.set(r), frontier.set(r), ++count;
  }
  std::uint64_t unvisited = n - count, previous = 0;
  Direction dir = policy == Policy::kBottomUp ? Direction::kBottomUp : Direction::kTopDown;
  for (int depth = 0; recorder.record(count, dir); ++depth) {
    if (options.want_depths) {
      const std::uint64_t* fw = frontier.words();
      tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, frontier.num_words(), kGrainWords), [&](const auto& r) {
        for (std::uint64_t w = r.begin(); w != r.end(); ++w)
          for (std::uint64_t bits = fw[w]; bits; bits &= bits - 1)
            result.depth[w * 64 + static_cast<unsigned>(std::countr_zero(bits))] = static_cast<std::uint8_t>(depth);
      });
    }
    if (policy == Policy::kHybrid) {
      if (dir == Direction::kTopDown && static_cast<double>(count) * kAlpha > static_cast<double>(unvisited))
        dir = Direction::kBottomUp;
      else if (dir == Direction::kBottomUp && count < previous &&
               static_cast<double>(count) * kBeta < static_cast<double>(n))
        dir = Direction::kTopDown;
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
