// twobit: 2 bits per rank, the smallest footprint, for spaces where three bitsets do not
// fit. A level runs in parallel, top-down or bottom-up as the hybrid's cost model chooses
// (choose_direction in engine.hpp); the level loop, resume and checkpoints are driver.hpp's.
// A byte per chunk of 512 words (0.05% of the array) says which chunks hold current cells
// and which may hold unseen ones, so a sparse level (the first and last few dozen of the
// 2x7 run's 109) reads only the chunks it needs instead of the whole array.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <memory>

#include "driver.hpp"

namespace stategraph::bfs {
namespace {

// Codes: 00 unseen, 11 old, and "current" / "next" alternate between 01 and 10 from
// level to level (current at even depths is 01), so a top-down level needs no second
// pass: its cells become old (fetch_or 11) as they are expanded.
constexpr std::uint64_t kLow = 0x5555555555555555ULL;  // the low bit of every cell

// A low-bit mask (bit 2i = cell i) as 32 bits (bit i = cell i), and back.
inline std::uint64_t compress_cells(std::uint64_t m) {
#ifdef __BMI2__
  return _pext_u64(m, kLow);
#else
  m &= kLow;
  m = (m | (m >> 1)) & 0x3333333333333333ULL;
  m = (m | (m >> 2)) & 0x0F0F0F0F0F0F0F0FULL;
  m = (m | (m >> 4)) & 0x00FF00FF00FF00FFULL;
  m = (m | (m >> 8)) & 0x0000FFFF0000FFFFULL;
  return (m | (m >> 16)) & 0x00000000FFFFFFFFULL;
#endif
}
inline std::uint64_t expand_cells(std::uint64_t m) {
#ifdef __BMI2__
  return _pdep_u64(m, kLow);
#else
  m &= 0x00000000FFFFFFFFULL;
  m = (m | (m << 16)) & 0x0000FFFF0000FFFFULL;
  m = (m | (m << 8)) & 0x00FF00FF00FF00FFULL;
  m = (m | (m << 4)) & 0x0F0F0F0F0F0F0F0FULL;
  m = (m | (m << 2)) & 0x3333333333333333ULL;
  return (m | (m << 1)) & kLow;
#endif
}

class TwoBitArray {
 public:
  explicit TwoBitArray(std::uint64_t n) : n_(n), words_((n + 31) / 32), data_(allocate_words(words_)) {}
  static std::uint64_t bytes_for(std::uint64_t n) { return (n + 31) / 32 * 8; }

  std::uint64_t num_words() const { return words_; }
  std::uint64_t load(std::uint64_t w) const {
    return std::atomic_ref<std::uint64_t>(data_[w]).load(std::memory_order_relaxed);
  }
  void store(std::uint64_t w, std::uint64_t v) {
    std::atomic_ref<std::uint64_t>(data_[w]).store(v, std::memory_order_relaxed);
  }
  void fetch_or(std::uint64_t w, std::uint64_t v) {
    std::atomic_ref<std::uint64_t>(data_[w]).fetch_or(v, std::memory_order_relaxed);
  }
  std::uint64_t* data() { return data_.get(); }
  // The bits of word w that belong to cells < n.
  std::uint64_t valid_bits(std::uint64_t w) const {
    const std::uint64_t tail = n_ & 31;
    return (w + 1 == words_ && tail) ? (std::uint64_t{1} << (2 * tail)) - 1 : ~std::uint64_t{0};
  }
  unsigned get(std::uint64_t i) const { return static_cast<unsigned>(load(i >> 5) >> (2 * (i & 31))) & 3u; }
  void set_plain(std::uint64_t i, unsigned code) { data_[i >> 5] |= std::uint64_t{code} << (2 * (i & 31)); }

  // 00 -> code with a CAS; true when this call made the change.
  bool claim(std::uint64_t i, unsigned code) {
    std::atomic_ref<std::uint64_t> word(data_[i >> 5]);
    const unsigned shift = 2 * static_cast<unsigned>(i & 31);
    std::uint64_t old = word.load(std::memory_order_relaxed);
    do {
      if ((old >> shift) & 3u) return false;
    } while (!word.compare_exchange_weak(old, old | (std::uint64_t{code} << shift), std::memory_order_relaxed));
    return true;
  }

  // Of the cells holding `code` (the current layer), the 32 from cell `start` on as a
  // compressed mask (bit i = cell start + i); 0 outside the array. Only cells holding
  // 00 change under other tasks, so the answer is stable while they run.
  std::uint64_t cells_at(std::int64_t start, unsigned code) const {
    if (start <= -32 || start >= static_cast<std::int64_t>(n_)) return 0;
    const std::int64_t i = start >> 5;  // floor
    const unsigned shift = static_cast<unsigned>(start & 31);
    auto mask = [&](std::int64_t w) {
      if (w < 0 || static_cast<std::uint64_t>(w) >= words_) return std::uint64_t{0};
      const auto u = static_cast<std::uint64_t>(w);
      return compress_cells(cells_equal(u, load(u), code));
    };
    const std::uint64_t both = mask(i) | (shift ? mask(i + 1) << 32 : 0);
    return (both >> shift) & 0xFFFFFFFFULL;
  }
  // Sets the cells of compressed mask m in word w that hold 00 to `code` (a CAS loop);
  // returns those cells as a compressed mask.
  std::uint64_t claim_cells(std::uint64_t w, std::uint64_t m, unsigned code) {
    std::atomic_ref<std::uint64_t> word(data_[w]);
    const std::uint64_t spread = expand_cells(m);
    std::uint64_t old = word.load(std::memory_order_relaxed), fresh;
    do {
      fresh = cells_equal(w, old, 0) & spread;
      if (!fresh) return 0;
    } while (!word.compare_exchange_weak(old, old | (code & 1 ? fresh : 0) | (code & 2 ? fresh << 1 : 0),
                                         std::memory_order_relaxed));
    return compress_cells(fresh);
  }

  // Low-bit mask (one bit per cell, at the cell's low bit) of the cells holding code,
  // restricted to cells < n.
  std::uint64_t cells_equal(std::uint64_t w, std::uint64_t word, unsigned code) const {
    const std::uint64_t lo = word & kLow, hi = (word >> 1) & kLow;
    std::uint64_t m = (code & 1 ? lo : ~lo & kLow) & (code & 2 ? hi : ~hi & kLow);
    const std::uint64_t tail = n_ & 31;
    if (w + 1 == words_ && tail) m &= (std::uint64_t{1} << (2 * tail)) - 1;
    return m;
  }

 private:
  std::uint64_t n_, words_;
  WordsPtr data_;
};

// One flag per chunk of kChunkWords words. Set concurrently (relaxed byte stores of 1,
// skipped when already set so that a hot chunk's line is not written over and over) and
// read or cleared between levels, or by the chunk's own task.
class ChunkFlags {
 public:
  explicit ChunkFlags(std::uint64_t chunks, std::uint8_t value = 0) : flags_(chunks, value) {}
  bool test(std::uint64_t c) const { return std::atomic_ref<std::uint8_t>(flags_[c]).load(std::memory_order_relaxed); }
  void set(std::uint64_t c) {
    std::atomic_ref<std::uint8_t> f(flags_[c]);
    if (!f.load(std::memory_order_relaxed)) f.store(1, std::memory_order_relaxed);
  }
  void clear(std::uint64_t c) { flags_[c] = 0; }
  void clear_all() { std::fill(flags_.begin(), flags_.end(), std::uint8_t{0}); }
  void swap(ChunkFlags& other) { flags_.swap(other.flags_); }

 private:
  mutable std::vector<std::uint8_t> flags_;
};

// The 2-bit cells as a Store of the shared level loop (driver.hpp).
template <Rule R>
class TwoBitStore {
 public:
  static constexpr std::uint64_t kChunkWords = kGrainWords;
  TwoBitStore(const R& rule, const BfsOptions& options, std::uint8_t* depth_table)
      : rule_(rule),
        options_(options),
        n_(rule.size()),
        cells_(n_),
        depth_(depth_table),
        chunks_((cells_.num_words() + kChunkWords - 1) / kChunkWords),
        current_(chunks_),
        next_(chunks_),
        unseen_(chunks_, 1) {}
  std::vector<std::uint64_t> layout() const { return {TwoBitArray::bytes_for(n_)}; }
  std::vector<CheckpointBuffer> buffers() { return {{cells_.data(), TwoBitArray::bytes_for(n_)}}; }
  // Layer `depth` holds its `current` code, every earlier layer is old (11), nothing is `next`.
  void restore(const LoadedCheckpoint& c, int depth, std::uint64_t count) {
    std::memcpy(cells_.data(), c.buffers[0].data, c.buffers[0].bytes);
    const unsigned cur = depth % 2 == 0 ? 1u : 2u;
    std::uint64_t seen = 0, current = 0;
    bool clean = true;
    for (std::uint64_t w = 0; w < cells_.num_words(); ++w) {
      const std::uint64_t word = cells_.load(w);
      current += static_cast<std::uint64_t>(std::popcount(cells_.cells_equal(w, word, cur)));
      seen += static_cast<std::uint64_t>(std::popcount(cells_.cells_equal(w, word, 3)));
      clean = clean && cells_.cells_equal(w, word, 3u ^ cur) == 0 && (word & ~cells_.valid_bits(w)) == 0;
    }
    if (!clean || current != count || seen + current != c.reached())
      throw InputError("checkpoint " + c.file.string() + ": cell array disagrees with the level counts");
    for (std::uint64_t w = 0; w < cells_.num_words(); ++w)
      if (cells_.cells_equal(w, cells_.load(w), cur)) current_.set(w / kChunkWords);
  }
  bool seed(std::uint64_t r) {
    if (depth_) depth_[r] = 0;
    if (cells_.get(r) != 0) return false;
    cells_.set_plain(r, 1);
    current_.set((r >> 5) / kChunkWords);
    return true;
  }
  void mark_depths(int /*depth*/) {}  // the steps write the depths of what they find
  std::uint64_t words() const { return cells_.num_words(); }
  std::uint64_t peak_bytes() const { return TwoBitArray::bytes_for(n_); }

  // One level over words of 32 cells:
  //  * top-down: each current cell is expanded; an unseen neighbour is claimed with a
  //    compare-and-swap of its 00 to `next` (only 00 cells ever change under another
  //    task, so a lost race just re-reads the word);
  //  * bottom-up: each unseen cell asks whether a BFS parent is current, stopping at the
  //    first; the task owns its words, others only read them. Its current cells become
  //    old in a separate pass after the level, since other tasks still read them.
  std::uint64_t step(Direction dir, int depth) {
    // One task per chunk or more; a task skips the chunks its level does not need.
    const tbb::blocked_range<std::uint64_t> all(0, chunks_, 1);
    const std::uint64_t words = cells_.num_words();
    auto words_of = [&](std::uint64_t c) { return std::pair{c * kChunkWords, std::min(words, (c + 1) * kChunkWords)}; };
    auto progress = [&](const tbb::blocked_range<std::uint64_t>& range) {
      if (options_.progress)
        options_.progress->add(std::min(words, range.end() * kChunkWords) - range.begin() * kChunkWords);
    };
    const unsigned cur = depth % 2 == 0 ? 1u : 2u, nxt = 3u ^ cur;
    const auto next_depth = static_cast<std::uint8_t>(depth + 1);
    const std::uint64_t blocks = block_move_size(rule_, options_);
    // Marks the compressed cells m of word w found (depth table).
    auto mark = [&](std::uint64_t w, std::uint64_t m) {
      if (depth_)
        for (; m; m &= m - 1) depth_[w * 32 + static_cast<unsigned>(std::countr_zero(m))] = next_depth;
    };
    if (dir == Direction::kTopDown) {
      const std::uint64_t count = tbb::parallel_reduce(
          all, std::uint64_t{0},
          [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t found) {
            if (stop_requested(options_)) return found;               // the level is abandoned
            StepRanks<R> step_ranks(rule_, options_, blocks, false);  // per task: it caches leading cells
            BlockCursor block_of(blocks);
            // Neighbour ranks are prefetched and claimed in batches (as engine.hpp's
            // topdown_step): the misses of a batch overlap.
            std::array<std::uint64_t, kBatch + kMaxMoves> batch;
            int size = 0;
            auto flush = [&] {
              size = keep_only(batch.data(), size, [this](std::uint64_t q) { return cells_.get(q) == 0; });
              for (int k = 0; k < size; ++k) {
                const std::uint64_t q = batch[static_cast<std::size_t>(k)];
                if (cells_.claim(q, nxt)) {
                  ++found;
                  next_.set((q >> 5) / kChunkWords);
                  if (depth_) depth_[q] = next_depth;
                }
              }
              size = 0;
            };
            for (std::uint64_t c = range.begin(); c != range.end(); ++c) {
              if (!current_.test(c)) continue;
              const auto [w0, w1] = words_of(c);
              for (std::uint64_t w = w0; w != w1; ++w) {
                const std::uint64_t m = cells_.cells_equal(w, cells_.load(w), cur);
                if (blocks && m) {  // block moves: 32 cells at a time
                  for_each_block_part(
                      rule_, block_of, w * 32, compress_cells(m), [&](std::uint64_t part, std::int64_t d) {
                        const std::int64_t at = static_cast<std::int64_t>(w * 32) + d;  // part's bit i goes to at + i
                        const std::uint64_t spread = part << (at & 31);
                        const auto t = static_cast<std::uint64_t>(at >> 5);
                        if (const std::uint64_t lo = spread & 0xFFFFFFFFULL) {
                          const std::uint64_t got = cells_.claim_cells(t, lo, nxt);
                          found += static_cast<std::uint64_t>(std::popcount(got)), mark(t, got);
                          if (got) next_.set(t / kChunkWords);
                        }
                        if (const std::uint64_t hi = spread >> 32) {
                          const std::uint64_t got = cells_.claim_cells(t + 1, hi, nxt);
                          found += static_cast<std::uint64_t>(std::popcount(got)), mark(t + 1, got);
                          if (got) next_.set((t + 1) / kChunkWords);
                        }
                      });
                }
                for (std::uint64_t bits = m; bits; bits &= bits - 1) {
                  const std::uint64_t r = w * 32 + static_cast<unsigned>(std::countr_zero(bits)) / 2;
                  step_ranks(r, [&](std::uint64_t q) {
                    prefetch_write(cells_.data() + (q >> 5));
                    batch[static_cast<std::size_t>(size++)] = q;
                  });
                  if (size >= kBatch) flush();
                }
                if (m) cells_.fetch_or(w, m | (m << 1));  // current -> old
              }
            }
            flush();
            progress(range);
            return found;
          },
          std::plus<>());
      end_level();
      return count;
    }
    const std::uint64_t count = tbb::parallel_reduce(
        all, std::uint64_t{0},
        [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t found) {
          if (stop_requested(options_)) return found;              // the level is abandoned
          StepRanks<R> step_ranks(rule_, options_, blocks, true);  // per task: it caches leading cells
          BlockCursor block_of(blocks);
          for (std::uint64_t c = range.begin(); c != range.end(); ++c) {
            if (!unseen_.test(c)) continue;
            const auto [w0, w1] = words_of(c);
            std::uint64_t left = 0, chunk_found = 0;  // unseen cells left (a mask), cells found
            for (std::uint64_t w = w0; w != w1; ++w) {
              const std::uint64_t word = cells_.load(w);
              const std::uint64_t unseen = cells_.cells_equal(w, word, 0);
              std::uint64_t fresh = 0;
              if (blocks && unseen) {  // block-move parents, 32 cells at a time
                std::uint64_t hits = 0;
                for_each_block_part(rule_, block_of, w * 32, compress_cells(unseen),
                                    [&](std::uint64_t part, std::int64_t d) {
                                      hits |= part & cells_.cells_at(static_cast<std::int64_t>(w * 32) + d, cur);
                                    });
                const std::uint64_t low = expand_cells(hits);
                fresh = (nxt & 1 ? low : 0) | (nxt & 2 ? low << 1 : 0);
                mark(w, hits);
              }
              for (std::uint64_t bits = unseen & ~(fresh | fresh >> 1); bits; bits &= bits - 1) {
                const unsigned b = static_cast<unsigned>(std::countr_zero(bits));
                const std::uint64_t r = w * 32 + b / 2;
                bool hit = false;
                step_ranks(r, [&](std::uint64_t q) {
                  hit = cells_.get(q) == cur;
                  return hit;
                });
                if (hit) {
                  fresh |= std::uint64_t{nxt} << b;
                  if (depth_) depth_[r] = next_depth;
                }
              }
              if (fresh) {
                cells_.store(w, word | fresh);
                chunk_found += static_cast<std::uint64_t>(std::popcount(fresh));
              }
              left |= unseen & ~((fresh | fresh >> 1) & kLow);
            }
            found += chunk_found;
            if (chunk_found) next_.set(c);
            if (!left) unseen_.clear(c);
          }
          progress(range);
          return found;
        },
        std::plus<>());
    tbb::parallel_for(all, [&](const tbb::blocked_range<std::uint64_t>& range) {  // current -> old
      for (std::uint64_t c = range.begin(); c != range.end(); ++c) {
        if (!current_.test(c)) continue;
        const auto [w0, w1] = words_of(c);
        for (std::uint64_t w = w0; w != w1; ++w) {
          const std::uint64_t word = cells_.load(w), m = cells_.cells_equal(w, word, cur);
          if (m) cells_.store(w, word | m | (m << 1));
        }
      }
    });
    end_level();
    return count;
  }

 private:
  const R& rule_;
  const BfsOptions& options_;
  // After a level: its `next` chunks are the new `current` ones.
  void end_level() {
    current_.swap(next_);
    next_.clear_all();
  }

  std::uint64_t n_;
  TwoBitArray cells_;
  std::uint8_t* depth_;
  std::uint64_t chunks_;
  ChunkFlags current_;  // chunks holding a cell of the current layer
  ChunkFlags next_;     // chunks where this level found cells
  ChunkFlags unseen_;   // chunks that may hold unseen cells (cleared when they hold none)
};

}  // namespace

BfsResult run_twobit(const AnyRule& rule, const BfsOptions& options) {
  return std::visit(
      [&](const auto& r) {
        BfsResult result;
        if (options.want_depths) result.depth.assign(r.size(), kUnreached);
        TwoBitStore store(r, options, options.want_depths ? result.depth.data() : nullptr);
        return run_levels(r, options, DirectionPolicy::kHybrid, store, std::move(result));
      },
      rule);
}

std::uint64_t bytes_twobit(const AnyRule& rule, const BfsOptions& options) {
  const std::uint64_t n = rule_size(rule);
  return TwoBitArray::bytes_for(n) + (options.want_depths ? n : 0);
}

}  // namespace stategraph::bfs
