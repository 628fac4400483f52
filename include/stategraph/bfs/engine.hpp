// The level-synchronous BFS steps every bitset search runs: topdown/bottomup/hybrid in
// src/bfs/, the components of analysis/graph.cpp and the blocks of stategraph-mpi. A step
// works on one block of ranks [base, base + visited.size()) with visited / frontier / next
// bits for it (a single machine's block is the whole space); a neighbour outside the
// block goes to the caller's remote sink (MPI: its exchange), compiled out when there is none.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <concepts>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <utility>
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
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, b.num_words(), 1u << 16),
                    [&](const auto& r) { std::fill(w + r.begin(), w + r.end(), std::uint64_t{0}); });
}

// Memory-level parallelism: a random access into a bitset of hundreds of megabytes
// misses every cache, and an atomic read-modify-write cannot overlap the next miss.
// So neighbour ranks are computed and their words prefetched in batches of up to
// kBatch, and only then tested and set: the misses of a batch overlap.
inline constexpr int kBatch = 256;
inline constexpr int kMaxMoves = 64;  // bound on max_degree for the batch buffers

// Moves the ranks of batch[0, size) that keep(q) accepts to the front, in order, and
// returns their count, in one pass without branches (keep should have none either). A
// step filters its batch so to the ranks not visited yet before it claims them: about half
// the neighbours in a BFS of an undirected graph are visited already (a state's parents),
// so a claim's own test would mispredict about every other time; after the filter it
// nearly always finds a new state.
template <class Keep>
int keep_only(std::uint64_t* batch, int size, Keep&& keep) {
  int kept = 0;
  for (int k = 0; k < size; ++k) {
    const std::uint64_t q = batch[k];
    batch[kept] = q;
    kept += static_cast<int>(keep(q));
  }
  return kept;
}
// True when bit q of the words is clear (read atomically: other tasks set bits of it).
inline bool bit_clear(std::uint64_t* words, std::uint64_t q) {
  return (~std::atomic_ref<std::uint64_t>(words[q >> 6]).load(std::memory_order_relaxed) >> (q & 63)) & 1u;
}

inline void prefetch_write(const void* p) { __builtin_prefetch(p, 1, 3); }
inline void prefetch_read(const void* p) { __builtin_prefetch(p, 0, 3); }

template <class R>
void check_batchable(const R& rule) {
  if (rule.max_degree() > kMaxMoves) throw std::logic_error("rule has more moves than the BFS batch buffer holds");
}

// The remote sink of a search whose block is the whole space: no neighbour is remote.
struct NoRemote {};

// ---- Block moves ----
// A rule may say that some of its moves map whole blocks of consecutive ranks onto
// other blocks, offset for offset (sliding: the blank's move to the next cell, r +- w_0,
// blocks = the blank's cell). The steps then apply those moves 64 ranks at a time with
// word operations and no ranking, and only the rule's other moves state by state. Used
// on undirected rules (the block moves are their own parents), with the incremental
// ranks, unless BfsOptions::block_moves is off.
template <class R>
concept BlockMoveRule = requires(const R& r, State s, std::uint64_t k) {
  { r.block_move_size() } -> std::convertible_to<std::uint64_t>;
  r.for_each_block_move(k, [](std::uint64_t) {});
  r.for_each_other_neighbour_rank(s, k, [](std::uint64_t) {});
};

// The block size the steps use for this rule and these options; 0: no block moves.
template <class R>
std::uint64_t block_move_size(const R& rule, const BfsOptions& options) {
  if constexpr (BlockMoveRule<R>) {
    if (!rule.directed() && options.incremental_ranks && options.block_moves) return rule.block_move_size();
  }
  return 0;
}

// f(rank) for the BFS neighbours (parents: `parents`) of s, whose rank is r, that the
// block moves do not cover (all of them when `blocks` is 0).
template <class R, class F>
void for_each_step_rank(const R& rule, const BfsOptions& options, std::uint64_t blocks, bool parents, State s,
                        std::uint64_t r, F&& f) {
  if constexpr (BlockMoveRule<R>) {
    if (blocks) return rule.for_each_other_neighbour_rank(s, r, f);
  }
  if (parents)
    for_each_bfs_parent_rank(rule, options, s, r, f);
  else
    for_each_bfs_neighbour_rank(rule, options, s, r, f);
}

// A block-move rule may also give its other moves' ranks from the rank alone, with no
// state: rule.other_rank_scanner() returns a per-task g, and g(r, f) calls f(q) as
// for_each_other_neighbour_rank(unrank(r), r, f) does, for ascending runs of r.
template <class R>
concept RankScanRule = BlockMoveRule<R> && requires(const R& r, std::uint64_t k) {
  r.other_rank_scanner()(k, [](std::uint64_t) {});
};

// A rule of fixed moves (applied to every state, or, primeswap, to the states the rule
// accepts) may give the ranks of a state's successors or predecessors from its rank alone:
// rule.rank_scanner(successors) returns a per-task g (a MoveRanks::Scanner), usable() or
// not, and g(r, f) calls f(q) as for_each_successor_rank / for_each_predecessor_rank(
// unrank(r), r, f) do, for ascending runs of r.
template <class R>
concept MoveScanRule = requires(const R& r, std::uint64_t k) {
  { r.rank_scanner(true).usable() } -> std::convertible_to<bool>;
  r.rank_scanner(true)(k, [](std::uint64_t) {});
};

// Per task: f(q) for the ranks a step takes state by state (for_each_step_rank) of the
// rank r, for ascending runs of r: from the rank alone where the rule can (a rank scanner
// with the block moves on, or a usable move scanner with the incremental ranks on) and
// BfsOptions::rank_scan is on, else from the unranked state.
template <class R>
class StepRanks {
 public:
  StepRanks(const R& rule, const BfsOptions& options, std::uint64_t blocks, bool parents)
      : rule_(rule),
        options_(options),
        blocks_(blocks),
        parents_(parents),
        scan_(blocks && options.rank_scan),
        unrank_(make_unranker(rule)),
        scanner_(make_scanner(rule)),
        moves_(make_move_scanner(rule, options, blocks, parents)) {
    if constexpr (MoveScanRule<R>)
      scan_moves_ = !blocks && options.incremental_ranks && options.rank_scan && moves_.usable();
  }
  // True when the ranks come from the rank alone (no state is unranked).
  bool from_rank_alone() const { return scan_ || scan_moves_; }
  template <class F>
  void operator()(std::uint64_t r, F&& f) {
    if constexpr (RankScanRule<R>) {
      if (scan_) return scanner_(r, f);
    }
    if constexpr (MoveScanRule<R>) {
      if (scan_moves_) return moves_(r, f);
    }
    for_each_step_rank(rule_, options_, blocks_, parents_, unrank_(r), r, f);
  }

 private:
  static auto make_scanner(const R& rule) {
    if constexpr (RankScanRule<R>)
      return rule.other_rank_scanner();
    else
      return 0;
  }
  // The moves a step takes from a state: its successors top-down on a forward search,
  // its predecessors bottom-up on one, the other way round on a search toward the goal.
  static auto make_move_scanner(const R& rule, const BfsOptions& options, std::uint64_t blocks, bool parents) {
    if constexpr (MoveScanRule<R>) {
      if (blocks) return decltype(rule.rank_scanner(true)){};
      return rule.rank_scanner(parents ? !options.forward : options.forward);
    } else {
      return 0;
    }
  }
  const R& rule_;
  const BfsOptions& options_;
  std::uint64_t blocks_;
  bool parents_, scan_, scan_moves_ = false;
  decltype(make_unranker(std::declval<const R&>())) unrank_;
  decltype(make_scanner(std::declval<const R&>())) scanner_;
  decltype(make_move_scanner(std::declval<const R&>(), std::declval<const BfsOptions&>(), 0, false)) moves_;
};

// The block of a rank, for ascending scans: a division only when the rank is not in the
// block of the last call or the next one. One per task.
class BlockCursor {
 public:
  explicit BlockCursor(std::uint64_t w) : w_(w) {}
  std::uint64_t block(std::uint64_t r) {
    if (r - start_ >= w_) {  // unsigned: below start_ wraps too
      if (r - start_ < 2 * w_) {
        ++b_, start_ += w_;
      } else {
        b_ = r / w_, start_ = b_ * w_;
      }
    }
    return b_;
  }
  std::uint64_t size() const { return w_; }

 private:
  std::uint64_t w_, b_ = 0, start_ = 0;
};

// Splits the ranks of a window [g0, g0 + 64) given by `bits` (bit i = rank g0 + i) by
// block (cursor's size > 0) and calls f(part, delta) for each block move of each part:
// every rank q of the part has the neighbour q + delta (and, undirected, the parent).
template <class R, class F>
void for_each_block_part(const R& rule, BlockCursor& cursor, std::uint64_t g0, std::uint64_t bits, F&& f) {
  if constexpr (BlockMoveRule<R>) {
    const std::uint64_t w = cursor.size();
    std::uint64_t b = cursor.block(g0), end = (b + 1) * w;
    while (bits) {
      const std::uint64_t below = end - g0 >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (end - g0)) - 1;
      if (const std::uint64_t part = bits & below) {
        rule.for_each_block_move(b, [&](std::uint64_t c) {
          f(part, c > b ? static_cast<std::int64_t>((c - b) * w) : -static_cast<std::int64_t>((b - c) * w));
        });
      }
      bits &= ~below, ++b, end += w;
    }
  }
}

// The 64 bits of b from bit `start` on (bit i = bit start + i), 0 outside b.
inline std::uint64_t bits_at(const Bitset& b, std::int64_t start) {
  if (start <= -64 || start >= static_cast<std::int64_t>(b.size())) return 0;
  const std::uint64_t* w = b.words();
  const std::int64_t i = start >> 6;  // floor
  const unsigned shift = static_cast<unsigned>(start & 63);
  const std::uint64_t lo = i >= 0 ? w[i] : 0;
  if (!shift) return lo;
  const std::uint64_t hi = static_cast<std::uint64_t>(i + 1) < b.num_words() ? w[i + 1] : 0;
  return (lo >> shift) | (hi << (64 - shift));
}

// True when oneTBB's parallelism is limited to 1 (as `--threads 1` sets it) and nothing
// else writes the bitsets (no remote sink): then the step runs its tasks itself, one after
// the other on the calling thread, and a claim is a plain read-modify-write. A locked one
// costs the single thread far more: it waits for the stores before it, and its result is
// needed at once. The tasks must not go through a parallel algorithm then: a limit lowered
// while oneTBB's workers are in the arena does not send them away at once, and a worker
// that steals a task makes two plain writers of one word (the Determinism test lost two
// claims that way, in a hybrid run at 1 thread right after one at 4).
inline bool step_alone(bool remote) {
  return !remote && tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism) == 1;
}

// Claims the ranks of mask m in word t of visited / next (atomically: other tasks claim
// in the same words, unless `alone`); returns how many were new.
inline std::uint64_t claim_word(std::uint64_t* visited_words, std::uint64_t* next_words, std::uint64_t t,
                                std::uint64_t m, bool alone) {
  if (alone) {
    const std::uint64_t fresh = m & ~visited_words[t];
    visited_words[t] |= fresh;
    if (next_words) next_words[t] |= fresh;
    return static_cast<std::uint64_t>(std::popcount(fresh));
  }
  std::atomic_ref<std::uint64_t> v(visited_words[t]);
  const std::uint64_t fresh = m & ~v.load(std::memory_order_relaxed);
  if (!fresh) return 0;
  const std::uint64_t got = fresh & ~v.fetch_or(fresh, std::memory_order_relaxed);
  if (got && next_words) atomic_or_word(next_words + t, got);
  return static_cast<std::uint64_t>(std::popcount(got));
}

// Top-down over the frontier words [lo, hi) of a block whose first rank is `base`:
// every frontier state is unranked (one unranker per task), its BFS neighbour ranks are
// computed (incrementally where the rule can) and a neighbour in the block is claimed
// in visited / next, in prefetched batches. With a remote factory, each task calls
// `remote()` once for a sink s, and s(q) receives every neighbour rank q outside the
// block, and also, when `far` > 0, every neighbour q inside it at |q - r| >= far from its
// state r (the caller claims those in rank order: a random claim in a block of gigabytes
// misses the caches and the TLB). Returns the number of ranks claimed.
template <bool kVisitedOnly = false, class R, class Remote = NoRemote>
std::uint64_t topdown_step(const R& rule, const BfsOptions& options, std::uint64_t base, const Bitset& frontier,
                           Bitset& visited, Bitset& next, std::uint64_t lo, std::uint64_t hi,
                           const Remote& remote = {}, [[maybe_unused]] std::uint64_t far = 0) {
  constexpr bool kBlock = !std::is_same_v<Remote, NoRemote>;
  const std::uint64_t* fw = frontier.words();
  std::uint64_t* nw = next.words();
  std::uint64_t* vw = visited.words();
  const std::uint64_t local = visited.size();
  const std::uint64_t blocks = block_move_size(rule, options);
  // The frontier words [begin, end), claims plain (`alone`: no other task writes where
  // this one does) or atomic.
  auto task = [&](std::uint64_t begin, std::uint64_t end, bool alone) {
        std::uint64_t found = 0;
        const tbb::blocked_range<std::uint64_t> range(begin, end);
        if (stop_requested(options)) return found;  // the level is abandoned
        // A task with no frontier state makes no scanner and no sink: on a sparse level
        // (a disk segment of 24.9 G ranks holding a few million) nearly all are empty.
        if (std::all_of(fw + range.begin(), fw + range.end(), [](std::uint64_t x) { return x == 0; })) {
          if (options.progress) options.progress->add(range.size());
          return found;
        }
        StepRanks<R> step_ranks(rule, options, blocks, false);  // per task: it caches leading cells
        auto sink = [&] {
          if constexpr (kBlock)
            return remote();
          else
            return 0;
        }();
        std::array<std::uint64_t, kBatch + kMaxMoves> batch;
        BlockCursor block_of(blocks);
        int size = 0;
        auto flush = [&] {
          size = keep_only(batch.data(), size, [vw](std::uint64_t q) { return bit_clear(vw, q); });
          if (alone) {  // plain claims, without branches (a rank may repeat in a batch)
            for (int k = 0; k < size; ++k) {
              const std::uint64_t q = batch[static_cast<std::size_t>(k)], m = std::uint64_t{1} << (q & 63);
              const std::uint64_t fresh = m & ~vw[q >> 6];
              vw[q >> 6] |= m;
              if constexpr (!kVisitedOnly) nw[q >> 6] |= fresh;
              found += fresh >> (q & 63);
            }
            return void(size = 0);
          }
          for (int k = 0; k < size; ++k) {
            if constexpr (kVisitedOnly)
              found += visited.atomic_set(batch[static_cast<std::size_t>(k)]);
            else
              found += claim(visited, nw, batch[static_cast<std::size_t>(k)]);
          }
          size = 0;
        };
        for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
          if (blocks && fw[w]) {
            for_each_block_part(rule, block_of, base + w * 64, fw[w], [&](std::uint64_t part, std::int64_t delta) {
              // part's neighbours: block offsets from `at` on (bit i at at + i)
              const std::int64_t at = static_cast<std::int64_t>(w * 64) + delta;
              if constexpr (kBlock) {
                if (at < 0 || at + 64 > static_cast<std::int64_t>(local)) {
                  for (std::uint64_t out = part; out; out &= out - 1) {
                    const std::int64_t l = at + std::countr_zero(out);
                    if (l < 0 || l >= static_cast<std::int64_t>(local)) {
                      sink(static_cast<std::uint64_t>(static_cast<std::int64_t>(base) + l));
                      part &= ~(out & -out);
                    }
                  }
                }
              }
              const std::int64_t t = at >> 6;  // floor
              const unsigned shift = static_cast<unsigned>(at & 63);
              if (const std::uint64_t lo = part << shift)
                found += claim_word(vw, kVisitedOnly ? nullptr : nw, static_cast<std::uint64_t>(t), lo, alone);
              if (shift) {
                if (const std::uint64_t hi = part >> (64 - shift))
                  found += claim_word(vw, kVisitedOnly ? nullptr : nw, static_cast<std::uint64_t>(t + 1), hi, alone);
              }
            });
          }
          for (std::uint64_t bits = fw[w]; bits; bits &= bits - 1) {
            const std::uint64_t r = base + w * 64 + static_cast<unsigned>(std::countr_zero(bits));
            step_ranks(r, [&](std::uint64_t q) {
              if constexpr (kBlock) {
                if (q - base >= local) return sink(q);  // unsigned: below the block wraps too
                if (far && q - r + far >= 2 * far) return sink(q);  // |q - r| >= far (unsigned)
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
  };
  // Far claims out (far > 0, no block moves): every claim left lands within `reach` words
  // of its state's word. Then stretches of 2 * reach words or more, taken in two phases,
  // the even ones and then the odd ones, never write in the same word at the same time:
  // their claims are plain read-modify-writes (a locked one waits for the stores before it).
  if (kBlock && far && !blocks) {
    const std::uint64_t reach = far / 64 + 2, stretch = 2 * reach;
    std::uint64_t found = 0;
    for (std::uint64_t phase : {0, 1}) {
      const std::uint64_t k0 = lo / stretch + ((lo / stretch) % 2 != phase);
      const std::uint64_t k1 = hi ? (hi - 1) / stretch + 1 : 0;  // past the last stretch
      if (k0 >= k1) continue;
      found += tbb::parallel_reduce(
          tbb::blocked_range<std::uint64_t>(0, (k1 - k0 + 1) / 2, 1), std::uint64_t{0},
          [&](const tbb::blocked_range<std::uint64_t>& ks, std::uint64_t got) {
            for (std::uint64_t j = ks.begin(); j != ks.end(); ++j) {
              const std::uint64_t k = k0 + 2 * j;
              got += task(std::max(lo, k * stretch), std::min(hi, (k + 1) * stretch), true);
            }
            return got;
          },
          std::plus<>());
    }
    return found;
  }
  if (step_alone(kBlock)) {  // this thread runs every task: no worker can write beside it
    std::uint64_t found = 0;
    for (std::uint64_t begin = lo; begin < hi; begin += kGrainWords)
      found += task(begin, std::min(hi, begin + kGrainWords), true);
    return found;
  }
  return tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(lo, hi, kGrainWords), std::uint64_t{0},
      [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t found) {
        return found + task(range.begin(), range.end(), false);
      },
      std::plus<>());
}

// A rule that gives the ranks of a state's neighbours by the moves that move one of its
// first c cells (the only ones that can leave its block of (n-c)! ranks).
template <class R>
concept LeadingRankRule = requires(const R& r, State s, std::uint64_t k) {
  r.for_each_leading_rank(s, k, true, 1, [](std::uint64_t) {});
};

// The other half of a bottom-up level over one block of a space cut into blocks whose
// frontiers are not all in memory (the disk variant's segments): the BFS neighbours of the
// frontier words [lo, hi) that lie outside the block, each handed to the sink of
// remote() (one per task) as topdown_step would; neighbours inside the block are not
// computed into claims (the block's bottom-up step finds them). fixed_cells > 0: the
// block is a union of whole blocks of (n - fixed_cells)! ranks, so only the moves that
// move one of the first fixed_cells cells can leave it; where a state is unranked anyway
// (no rank scanner) only those are ranked (LeadingRankRule). Returns nothing.
template <class R, class Remote>
void remote_neighbours(const R& rule, const BfsOptions& options, std::uint64_t base, const Bitset& frontier,
                       std::uint64_t lo, std::uint64_t hi, const Remote& remote, int fixed_cells = 0) {
  const std::uint64_t* fw = frontier.words();
  const std::uint64_t local = frontier.size();
  const std::uint64_t blocks = block_move_size(rule, options);
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(lo, hi, kGrainWords), [&](const auto& range) {
    if (stop_requested(options)) return;
    StepRanks<R> step_ranks(rule, options, blocks, false);
    [[maybe_unused]] auto unrank = make_unranker(rule);
    [[maybe_unused]] const bool leading =
        fixed_cells > 0 && !blocks && options.incremental_ranks && !step_ranks.from_rank_alone();
    auto sink = remote();
    BlockCursor block_of(blocks);
    for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
      if (!fw[w]) continue;
      if (blocks) {
        for_each_block_part(rule, block_of, base + w * 64, fw[w], [&](std::uint64_t part, std::int64_t delta) {
          const std::int64_t at = static_cast<std::int64_t>(w * 64) + delta;
          if (at >= 0 && at + 64 <= static_cast<std::int64_t>(local)) return;
          for (std::uint64_t out = part; out; out &= out - 1) {
            const std::int64_t l = at + std::countr_zero(out);
            if (l < 0 || l >= static_cast<std::int64_t>(local))
              sink(static_cast<std::uint64_t>(static_cast<std::int64_t>(base) + l));
          }
        });
      }
      for (std::uint64_t bits = fw[w]; bits; bits &= bits - 1) {
        const std::uint64_t r = base + w * 64 + static_cast<unsigned>(std::countr_zero(bits));
        auto out = [&](std::uint64_t q) {
          if (q - base >= local) sink(q);  // unsigned: below the block wraps too
        };
        if constexpr (LeadingRankRule<R>) {
          if (leading) {
            rule.for_each_leading_rank(unrank(r), r, options.forward, fixed_cells, out);
            continue;
          }
        }
        step_ranks(r, out);
      }
    }
  });
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
// With `far` > 0, the parents at |q - r| >= far from the state r are prefetched and
// tested only for the word's states that no nearer parent found: a far parent is a DRAM
// miss in a block of gigabytes, and most states of a dense level have a near one.
// Returns the number of ranks found here (not counting what the remote sinks decide).
template <class R, class Remote = NoRemote>
std::uint64_t bottomup_step(const R& rule, const BfsOptions& options, std::uint64_t base, const Bitset& frontier,
                            Bitset& visited, Bitset& next, std::uint64_t lo, std::uint64_t hi,
                            const Remote& remote = {}, std::uint64_t far = 0) {
  constexpr bool kBlock = !std::is_same_v<Remote, NoRemote>;
  std::uint64_t* vw = visited.words();
  std::uint64_t* nw = next.words();
  const std::uint64_t* fw = frontier.words();
  const std::uint64_t local = visited.size();
  const std::uint64_t fbase = kBlock ? base : 0;  // the rank of the frontier's bit 0
  const std::uint64_t blocks = block_move_size(rule, options);
  return tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(lo, hi, kGrainWords), std::uint64_t{0},
      [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t found) {
        if (stop_requested(options)) return found;             // the level is abandoned
        StepRanks<R> step_ranks(rule, options, blocks, true);  // per task: it caches leading cells
        auto sink = [&] {
          if constexpr (kBlock)
            return remote();
          else
            return 0;
        }();
        // The parents of one word's unvisited states (at most 64 * kMaxMoves ranks),
        // prefetched as they are computed, then tested state by state.
        std::vector<std::uint64_t> parents(64 * static_cast<std::size_t>(rule.max_degree()));
        std::array<std::uint16_t, 65> start;
        BlockCursor block_of(blocks);
        for (std::uint64_t w = range.begin(); w != range.end(); ++w) {
          const std::uint64_t unvisited = ~vw[w] & valid_mask(visited, w);
          if (!unvisited) {
            nw[w] = 0;
            continue;
          }
          // Block-move parents, a word at a time; the states they find need no more.
          std::uint64_t fresh = 0;
          if (blocks) {
            const std::uint64_t g0 = base + w * 64;
            for_each_block_part(rule, block_of, g0, unvisited, [&](std::uint64_t part, std::int64_t delta) {
              fresh |= part & bits_at(frontier, static_cast<std::int64_t>(g0 - fbase) + delta);
            });
          }
          const std::uint64_t rest = unvisited & ~fresh;
          std::size_t size = 0;
          int states = 0;
          for (std::uint64_t bits = rest; bits; bits &= bits - 1) {
            start[static_cast<std::size_t>(states++)] = static_cast<std::uint16_t>(size);
            const std::uint64_t r = base + w * 64 + static_cast<unsigned>(std::countr_zero(bits));
            step_ranks(r, [&](std::uint64_t q) {
              if ((!kBlock || q - fbase < local) && !(far && q - r + far >= 2 * far))
                prefetch_read(fw + ((q - fbase) >> 6));
              parents[size++] = q;
            });
          }
          start[static_cast<std::size_t>(states)] = static_cast<std::uint16_t>(size);
          // Whether a parent of state k (rank r) in [from, to) is in the frontier: the near
          // ones (pass 0) or the far ones (pass 1; every one without `far`).
          auto any_parent = [&](std::size_t from, std::size_t to, std::uint64_t r, int pass) {
            for (std::size_t j = from; j < to; ++j) {
              const std::uint64_t q = parents[j] - fbase;
              if constexpr (kBlock) {
                if (q >= local) continue;
              }
              if (far && (parents[j] - r + far >= 2 * far) != (pass == 1)) continue;
              if (frontier.test(q)) return true;
            }
            return false;
          };
          std::uint64_t pending = 0;  // states whose far parents are still to test
          if (far) {
            int k = 0;
            for (std::uint64_t bits = rest; bits; bits &= bits - 1, ++k) {
              const std::size_t from = start[static_cast<std::size_t>(k)], to = start[static_cast<std::size_t>(k) + 1];
              const std::uint64_t r = base + w * 64 + static_cast<unsigned>(std::countr_zero(bits));
              if (any_parent(from, to, r, 0)) {
                fresh |= bits & -bits;
              } else {
                pending |= bits & -bits;
                for (std::size_t j = from; j < to; ++j)
                  if ((!kBlock || parents[j] - fbase < local) && parents[j] - r + far >= 2 * far)
                    prefetch_read(fw + ((parents[j] - fbase) >> 6));
              }
            }
          }
          int k = 0;
          for (std::uint64_t bits = rest; bits; bits &= bits - 1, ++k) {
            if (far && !(pending & bits & -bits)) continue;  // found by a near parent
            const std::size_t from = start[static_cast<std::size_t>(k)], to = start[static_cast<std::size_t>(k) + 1];
            const std::uint64_t r = base + w * 64 + static_cast<unsigned>(std::countr_zero(bits));
            const bool hit = any_parent(from, to, r, 1);
            if (hit) {
              fresh |= std::uint64_t{1} << std::countr_zero(bits);
            } else if constexpr (kBlock) {
              const std::uint64_t l = w * 64 + static_cast<unsigned>(std::countr_zero(bits));
              for (std::size_t j = from; j < to; ++j)
                if (parents[j] - fbase >= local) sink(l, parents[j]);
              if (blocks) {  // block-move parents outside the block
                const std::uint64_t r = base + l;
                for_each_block_part(rule, block_of, r, 1, [&](std::uint64_t, std::int64_t delta) {
                  const auto q = static_cast<std::uint64_t>(static_cast<std::int64_t>(r) + delta);
                  if (q - fbase >= local) sink(l, q);
                });
              }
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

// The whole space as one block (single machine). `next` need not be clear: it is
// overwritten. On a dense level (frontier_count, the frontier's states, at least a
// quarter of the words) the claims set only visited (one random access per new state,
// not two): next is a copy of visited made before the step, and afterwards the
// difference. That costs two passes over next more than clearing it, about what 2 M
// second random accesses cost, so a sparse level clears next and claims in both.
inline bool snap_next(std::uint64_t frontier_count, std::uint64_t words) { return frontier_count >= words / 4; }
template <class R>
std::uint64_t topdown_step(const R& rule, const BfsOptions& options, const Bitset& frontier, Bitset& visited,
                           Bitset& next, std::uint64_t frontier_count) {
  if (!snap_next(frontier_count, visited.num_words())) {
    parallel_clear(next);
    return topdown_step(rule, options, 0, frontier, visited, next, 0, frontier.num_words());
  }
  std::uint64_t* nw = next.words();
  const std::uint64_t* vw = visited.words();
  const tbb::blocked_range<std::uint64_t> all(0, visited.num_words(), 1u << 16);
  tbb::parallel_for(all, [&](const auto& r) { std::copy(vw + r.begin(), vw + r.end(), nw + r.begin()); });
  const std::uint64_t found = topdown_step<true>(rule, options, 0, frontier, visited, next, 0, frontier.num_words());
  tbb::parallel_for(all, [&](const auto& r) {
    for (std::uint64_t w = r.begin(); w != r.end(); ++w) nw[w] = vw[w] & ~nw[w];
  });
  return found;
}
template <class R>
std::uint64_t bottomup_step(const R& rule, const BfsOptions& options, const Bitset& frontier, Bitset& visited,
                            Bitset& next) {
  return bottomup_step(rule, options, 0, frontier, visited, next, 0, visited.num_words());
}

// Hybrid levels over the whole space for drivers that own their loop (the component
// search, the masked diameter BFS): from `frontier` (count states), each level takes
// choose_direction's step, stopping when a level is empty or nothing is left unvisited;
// after a level, `frontier` holds it and on_level(depth, count) runs (depth 1, 2, ...).
struct LevelsRun {
  int depth = 0;                // of the last non-empty level
  std::uint64_t unvisited = 0;  // left at the end
};
template <class R, class OnLevel>
LevelsRun hybrid_levels(const R& rule, const BfsOptions& options, Bitset& frontier, Bitset& visited, Bitset& next,
                        std::uint64_t count, std::uint64_t unvisited, OnLevel&& on_level) {
  LevelsRun run{0, unvisited};
  std::uint64_t previous = 0;
  while (run.unvisited > 0) {
    const bool bottomup = choose_direction(count, previous, run.unvisited) == Direction::kBottomUp;
    previous = count;
    count = bottomup ? bottomup_step(rule, options, frontier, visited, next)
                     : topdown_step(rule, options, frontier, visited, next, count);
    throw_if_stopped(options, run.depth);  // a step asked to stop abandons its level
    if (count == 0) break;
    run.unvisited -= count;
    ++run.depth;
    std::swap(frontier, next);
    on_level(run.depth, count);
  }
  return run;
}

}  // namespace stategraph::bfs
