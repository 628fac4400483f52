// The level-synchronous BFS steps every bitset search runs: topdown/bottomup/hybrid in
// src/bfs/, the components of analysis/graph.cpp and the blocks of stategraph-mpi. A step
// works on one block of ranks [base, base + visited.size()) with visited / frontier / next
// bits for it (a single machine's block is the whole space); a neighbour outside the
// block goes to the caller's remote sink (MPI: its exchange), compiled out when there is none.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "stategraph/bfs/bfs.hpp"
#include "stategraph/core/bits.hpp"

namespace stategraph::bfs {

// The hybrid's per-level choice. Beamer et al. (SC'12) switch on edge counts with
// alpha = 14, beta = 24, tuned on social graphs whose frontier explodes within a level or
// two. Puzzle graphs grow slowly (a layer is at most a few times the previous one) and
// every state has at most max_degree moves, so we compare the work of the two steps in
// "neighbour checks" (one rank + one random bitset access each; measured to cost about
// the same in both directions on rotate 3x4 and sliding 3x4):
//  * top-down expands every frontier state: F * d checks;
//  * bottom-up scans every unvisited state: one not in the next layer tries all its d
//    parents, one in it stops at the first frontier parent, on average after about half
//    of them: (U - N / 2) * d checks, N the next layer's size, predicted from the last
//    growth factor: N ~ min(U, F * F / F_prev).
// Bottom-up is chosen when kBottomUpCost * (U - N / 2) < F, remade every level.
inline constexpr double kBottomUpCost = 1.0;   // cost of a bottom-up check / top-down check
inline constexpr double kFoundFraction = 0.5;  // parents tried by a state that is found

inline Direction choose_direction(std::uint64_t frontier, std::uint64_t previous, std::uint64_t unvisited) {
  const double f = static_cast<double>(frontier), u = static_cast<double>(unvisited);
  const double growth = previous > 0 ? std::max(1.0, f / static_cast<double>(previous)) : 1.0;
  const double next = std::min(u, f * growth);
  return kBottomUpCost * (u - kFoundFraction * next) < f ? Direction::kBottomUp : Direction::kTopDown;
}

// The first direction and, for kHybrid, the per-level choice of a driver.
inline Direction first_direction(DirectionPolicy p) {
  return p == DirectionPolicy::kBottomUp ? Direction::kBottomUp : Direction::kTopDown;
}

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

// Claims rank l of a block: sets it in visited and, when it was new, in next (both
// atomically: other bits of the words belong to other tasks). True when new.
inline bool claim(Bitset& visited, std::uint64_t* next_words, std::uint64_t l) {
  if (!visited.atomic_set(l)) return false;
  atomic_or_word(next_words + (l >> 6), std::uint64_t{1} << (l & 63));
  return true;
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

// The remote sink of a search whose block is the whole space: no neighbour is remote.
struct NoRemote {};

// Top-down over the frontier words [lo, hi) of a block whose first rank is `base`:
// every frontier state is unranked (one unranker per task), its BFS neighbour ranks are
// computed (incrementally where the rule can) and a neighbour in the block is claimed
// in visited / next, in prefetched batches. With a remote factory, each task calls
// `remote()` once for a sink s, and s(q) receives every neighbour rank q outside the
// block. Returns the number of ranks claimed.
template <class R, class Remote = NoRemote>
std::uint64_t topdown_step(const R& rule, const BfsOptions& options, std::uint64_t base, const Bitset& frontier,
                           Bitset& visited, Bitset& next, std::uint64_t lo, std::uint64_t hi,
                           const Remote& remote = {}) {
  constexpr bool kBlock = !std::is_same_v<Remote, NoRemote>;
  const std::uint64_t* fw = frontier.words();
  std::uint64_t* nw = next.words();
  const std::uint64_t* vw = visited.words();
  const std::uint64_t local = visited.size();
  return tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(lo, hi, kGrainWords), std::uint64_t{0},
      [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t found) {
        if (stop_requested(options)) return found;  // the level is abandoned
        auto unrank = make_unranker(rule);  // per task: it caches leading cells
        auto sink = [&] {
          if constexpr (kBlock) return remote();
          else return 0;
        }();
        std::array<std::uint64_t, kBatch + kMaxMoves> batch;
        int size = 0;
        auto flush = [&] {
          for (int k = 0; k < size; ++k) found += claim(visited, nw, batch[static_cast<std::size_t>(k)]);
          size = 0;
        };
        for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
          for (std::uint64_t bits = fw[w]; bits; bits &= bits - 1) {
            const std::uint64_t r = base + w * 64 + static_cast<unsigned>(std::countr_zero(bits));
            for_each_bfs_neighbour_rank(rule, options, unrank(r), r, [&](std::uint64_t q) {
              if constexpr (kBlock) {
                if (q - base >= local) return sink(q);  // unsigned: below the block wraps too
                q -= base;
              }
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

// Bottom-up over the words [lo, hi) of a block whose first rank is `base`: every
// unvisited rank is unranked and asks whether a BFS parent is in the frontier, stopping
// at the first; the task owns its words of visited and next (plain writes; every word
// of next in [lo, hi) is written). The parents of one word's states are computed and
// prefetched before they are tested.
//  * Without a remote factory, `frontier` holds the whole space, indexed by rank (a
//    single machine's, or the frontier gathered from every block).
//  * With one, `frontier` holds this block's ranks only; each task calls `remote()` once
//    for a sink s, and for a state none of whose parents in the block is in the
//    frontier, s(l, q) receives (its block offset l, each parent rank q outside the block).
// Returns the number of ranks found here (not counting what the remote sinks decide).
template <class R, class Remote = NoRemote>
std::uint64_t bottomup_step(const R& rule, const BfsOptions& options, std::uint64_t base, const Bitset& frontier,
                            Bitset& visited, Bitset& next, std::uint64_t lo, std::uint64_t hi,
                            const Remote& remote = {}) {
  constexpr bool kBlock = !std::is_same_v<Remote, NoRemote>;
  std::uint64_t* vw = visited.words();
  std::uint64_t* nw = next.words();
  const std::uint64_t* fw = frontier.words();
  const std::uint64_t local = visited.size();
  const std::uint64_t fbase = kBlock ? base : 0;  // the rank of the frontier's bit 0
  return tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(lo, hi, kGrainWords), std::uint64_t{0},
      [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t found) {
        if (stop_requested(options)) return found;  // the level is abandoned
        auto unrank = make_unranker(rule);  // per task: it caches leading cells
        auto sink = [&] {
          if constexpr (kBlock) return remote();
          else return 0;
        }();
        // The parents of one word's unvisited states (at most 64 * kMaxMoves ranks),
        // prefetched as they are computed, then tested state by state.
        std::vector<std::uint64_t> parents(64 * static_cast<std::size_t>(rule.max_degree()));
        std::array<std::uint16_t, 65> start;
        for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
          const std::uint64_t unvisited = ~vw[w] & valid_mask(visited, w);
          if (!unvisited) {
            nw[w] = 0;
            continue;
          }
          std::size_t size = 0;
          int states = 0;
          for (std::uint64_t bits = unvisited; bits; bits &= bits - 1) {
            start[static_cast<std::size_t>(states++)] = static_cast<std::uint16_t>(size);
            const std::uint64_t r = base + w * 64 + static_cast<unsigned>(std::countr_zero(bits));
            for_each_bfs_parent_rank(rule, options, unrank(r), r, [&](std::uint64_t q) {
              if (!kBlock || q - fbase < local) prefetch_read(fw + ((q - fbase) >> 6));
              parents[size++] = q;
            });
          }
          start[static_cast<std::size_t>(states)] = static_cast<std::uint16_t>(size);
          std::uint64_t fresh = 0;
          int k = 0;
          for (std::uint64_t bits = unvisited; bits; bits &= bits - 1, ++k) {
            const std::size_t from = start[static_cast<std::size_t>(k)], to = start[static_cast<std::size_t>(k) + 1];
            bool hit = false;
            for (std::size_t j = from; j < to && !hit; ++j) {
              const std::uint64_t q = parents[j] - fbase;
              if constexpr (kBlock) {
                if (q >= local) continue;
              }
              hit = frontier.test(q);
            }
            if (hit) {
              fresh |= std::uint64_t{1} << std::countr_zero(bits);
            } else if constexpr (kBlock) {
              const std::uint64_t l = w * 64 + static_cast<unsigned>(std::countr_zero(bits));
              for (std::size_t j = from; j < to; ++j)
                if (parents[j] - fbase >= local) sink(l, parents[j]);
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

// The whole space as one block (single machine).
template <class R>
std::uint64_t topdown_step(const R& rule, const BfsOptions& options, const Bitset& frontier, Bitset& visited,
                           Bitset& next) {
  return topdown_step(rule, options, 0, frontier, visited, next, 0, frontier.num_words());
}
template <class R>
std::uint64_t bottomup_step(const R& rule, const BfsOptions& options, const Bitset& frontier, Bitset& visited,
                            Bitset& next) {
  return bottomup_step(rule, options, 0, frontier, visited, next, 0, visited.num_words());
}

}  // namespace stategraph::bfs
