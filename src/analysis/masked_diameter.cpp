// BoundingDiameters (Takes & Kosters 2011) on a component too large for an explicit
// adjacency list, each BFS restricted to the component by a mask.
//
// Each BFS is the engine's bitset BFS (top-down / bottom-up steps of
// bfs/engine.hpp) over the whole rank space, restricted to the component by starting
// with every rank outside it marked visited, so the other components neither count as
// unvisited (the direction switch sees the component's own sizes) nor get scanned by
// the bottom-up steps beyond one test per word. Per state of the component it keeps
// 2-byte distance, lower and upper bounds, indexed by the state's position in the mask
// (prefix popcounts per word).
//
// Automorphisms g that map the component onto itself (g.rep in the mask) make each BFS
// from w count for every image g.w: ecc(g.w) = ecc(w) and d(x, g.w) = d(g^-1.x, w), so
// one pass over the candidates x (states whose upper bound still exceeds the lower
// bound) reading d(g^-1.x, w) applies the images' bounds without a BFS. Images already
// known (earlier sources or images) are skipped. A pass applies at most about one BFS's
// work of images (images()); the images it leaves out still count as sources with their
// eccentricity, and the bounds stay valid, only less tight than with every image.
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <unordered_set>

#include "analysis/graph_internal.hpp"
#include "stategraph/bfs/engine.hpp"

namespace stategraph {
namespace {

constexpr std::uint16_t kUnknown = std::numeric_limits<std::uint16_t>::max();

template <class R>
class MaskedBounding {
 public:
  MaskedBounding(const R& rule, const Bitset& mask, bool verbose, const std::vector<Symmetry>& symmetries,
                 std::uint64_t rep, const std::atomic<int>* stop = nullptr)
      : stop_(stop),
        rule_(rule),
        mask_(mask),
        index_(mask),
        n_(index_.size()),
        verbose_(verbose),
        visited_(mask.size()),
        frontier_(mask.size()),
        next_(mask.size()),
        dist_(n_),
        lo_(n_, 0),
        hi_(n_, kUnknown) {
    opts_.forward = true;
    opts_.stop = stop;  // hybrid_levels throws between two levels
    // g maps components onto components: onto this one iff it maps rep into it.
    const State r = rule_.unrank(rep);
    for (const Symmetry& g : symmetries)
      if (!g.identity() && mask_.test(rule_.rank(g.apply(r)))) stab_.push_back(g), stab_inv_.push_back(g.inverse());
  }

  // The eccentricity of one state (rank) by one masked BFS.
  int eccentricity(std::uint64_t rank) {
    std::uint64_t far = 0;
    return bfs(index_.index(rank), far);
  }

  DiameterBounds run(std::uint64_t rep, std::uint64_t budget_runs, double deadline) {
    DiameterBounds out;
    out.method = ComponentMethod::kBoundingMasked;
    const double t0 = now_seconds();
    auto out_of_budget = [&] {
      return (budget_runs > 0 && out.runs >= budget_runs) || (deadline > 0 && now_seconds() >= deadline);
    };
    std::uint64_t source = index_.index(rep);
    bool pick_upper = true;  // after the double sweep: alternate largest upper / smallest lower bound
    while (true) {
      throw_if_stopped(stop_);
      std::uint64_t far = 0;
      const int e = bfs(source, far);
      ++out.runs;
      DiameterWitness& w = out.witness;
      if (w.sources.empty() || e > lower_) w.lower_a = index_.rank(source), w.lower_b = index_.rank(far), w.lower = e;
      w.sources.emplace_back(index_.rank(source), e);
      lower_ = std::max(lower_, e);
      apply(e);
      lo_[source] = hi_[source] = static_cast<std::uint16_t>(e);
      images(source, e, out);
      int pair_upper = std::numeric_limits<int>::max();
      if (keep_limit_ >= 2 && e < 255) {
        // The pair bound over up to keep_limit_ kept distance arrays: a new BFS joins
        // while there is room, else replaces the kept array whose replacement lowers the
        // bound most (none when no replacement lowers it; ties: the earliest).
        std::vector<std::uint8_t> cand(n_);
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n_, 1u << 16), [&](const auto& r) {
          for (std::uint64_t i = r.begin(); i != r.end(); ++i) cand[i] = static_cast<std::uint8_t>(dist_[i]);
        });
        if (keep_.size() < keep_limit_) {
          keep_.push_back(std::move(cand));
          keep_ecc_.push_back(e);
          w.pair_sources.push_back(index_.rank(source));
          if (keep_.size() >= 2) w.pair_upper = pair_bound(keep_, keep_ecc_);
        } else {
          int best = w.pair_upper;
          std::size_t best_j = keep_.size();
          for (std::size_t j = 0; j < keep_.size(); ++j) {
            std::swap(keep_[j], cand);
            std::swap(keep_ecc_[j], e_swap_ = e);
            const int u = pair_bound(keep_, keep_ecc_);
            std::swap(keep_[j], cand);
            std::swap(keep_ecc_[j], e_swap_);
            if (u < best) best = u, best_j = j;
          }
          if (best_j < keep_.size()) {
            keep_[best_j] = std::move(cand);
            keep_ecc_[best_j] = e;
            w.pair_sources[best_j] = index_.rank(source);
            w.pair_upper = best;
          }
        }
      }
      if (w.pair_upper > 0) pair_upper = w.pair_upper;
      // The next source: the double sweep's far end first, then alternately the
      // candidate with the largest upper bound and the one with the smallest lower
      // bound (ties: the smaller position, so the choice is the same on any thread count).
      auto [upper, best_hi, best_lo] = scan();
      if (pair_upper < upper) upper = std::max(lower_, pair_upper);
      if (verbose_)
        std::cerr << "  large component (" << n_ << " states): BFS " << out.runs << " ecc " << e << " (+"
                  << out.image_sources << " images), bounds [" << lower_ << ", " << upper << "], "
                  << (now_seconds() - t0) << " s\n";
      out.lower = lower_, out.upper = upper;
      if (upper <= lower_) break;
      if (out_of_budget()) {
        out.stopped = true;
        break;
      }
      if (static_cast<int>(out.runs) <= sweeps_ && far != source && hi_[far] > lower_) {
        source = far;
      } else {
        source = pick_upper ? best_hi : best_lo;
        pick_upper = !pick_upper;
      }
    }
    out.witness.lower = out.lower, out.witness.upper = out.upper;
    return out;
  }

 private:
  // Bitset BFS from position src inside the mask; fills dist_, returns the eccentricity
  // and the smallest-rank state at that distance (far).
  int bfs(std::uint64_t src, std::uint64_t& far) {
    visit_outside(mask_, visited_);
    bfs::parallel_clear(frontier_);
    const std::uint64_t src_rank = index_.rank(src);
    visited_.set(src_rank), frontier_.set(src_rank);
    dist_[src] = 0;
    const auto run = bfs::hybrid_levels(rule_, opts_, frontier_, visited_, next_, 1, n_ - 1,
                                        [&](int depth, std::uint64_t) { record(static_cast<std::uint16_t>(depth)); });
    const int depth = run.depth;
    if (run.unvisited != 0) throw std::logic_error("masked component is not connected");
    if (depth >= kUnknown / 2) throw std::length_error("component too deep for 16-bit distances");
    const std::uint64_t* fw = frontier_.words();
    far = src;
    for (std::uint64_t w = 0; w < frontier_.num_words(); ++w)
      if (fw[w]) {
        far = index_.index(w * 64 + static_cast<unsigned>(std::countr_zero(fw[w])));
        break;
      }
    return depth;
  }

  // dist = depth for every state of the frontier.
  void record(std::uint16_t depth) {
    const std::uint64_t* fw = frontier_.words();
    const std::uint64_t* mw = mask_.words();
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, frontier_.num_words(), 1u << 14), [&](const auto& r) {
      for (std::uint64_t w = r.begin(); w != r.end(); ++w) {
        const std::uint64_t f = fw[w];
        if (!f) continue;
        const std::uint64_t base = index_.word_base(w), m = mw[w];
        for (std::uint64_t b = f; b; b &= b - 1) {
          const int bit = std::countr_zero(b);
          dist_[base + static_cast<std::uint64_t>(std::popcount(m & ((std::uint64_t{1} << bit) - 1)))] = depth;
        }
      }
    });
  }

  // The triangle inequality bounds of one BFS of eccentricity e (distances in dist_).
  void apply(int e) {
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n_, 1u << 16), [&](const auto& r) {
      for (std::uint64_t i = r.begin(); i != r.end(); ++i) {
        const int d = dist_[i];
        lo_[i] = static_cast<std::uint16_t>(std::max<int>(lo_[i], std::max(d, e - d)));
        hi_[i] = static_cast<std::uint16_t>(std::min<int>(hi_[i], e + d));
      }
    });
  }

  // The bounds of the source's images g.w not yet known: ecc(g.w) = e, and the state
  // g.y is at distance dist_[y] from g.w.
  void images(std::uint64_t source, int e, DiameterBounds& out) {
    if (stab_.empty()) return;
    const std::uint64_t src_rank = index_.rank(source);
    const State s = rule_.unrank(src_rank);
    known_.insert(src_rank);
    std::vector<std::size_t> fresh;  // the automorphisms giving images not known yet
    for (std::size_t k = 0; k < stab_.size(); ++k) {
      const std::uint64_t t = rule_.rank(stab_[k].apply(s));
      if (!known_.insert(t).second) continue;
      fresh.push_back(k);
      const std::uint64_t ti = index_.index(t);
      lo_[ti] = hi_[ti] = static_cast<std::uint16_t>(e);
      ++out.image_sources;
      out.witness.images.push_back({t, src_rank, e});
    }
    if (fresh.empty()) return;
    // Only the candidates (hi > lower) can still matter: the others never raise the
    // upper bound again (lower only grows, hi only shrinks). For a candidate x, the
    // distance to g.w is d(g^-1.x, w), read from dist_.
    const int lower = lower_;
    // An image costs one move and one random look-up per candidate, a BFS about one per
    // move of every state: the pass takes at most as many images as make up one BFS's
    // work (n * degree / candidates, at least one; the first in the stabiliser's order, so
    // the choice is the same on any thread count). The other images still give their own
    // eccentricity above. All 127 images of a primeswap 3x4 giant over its 239 M states
    // took more than 30 minutes, for a BFS of about 10 s; its first pass (17 images) took
    // 414 s with one look-up at a time, 103 s batched (below), on 2 cores: still about
    // 5 s an image, memory-bound (three random reads per look-up).
    const std::uint64_t candidates = tbb::parallel_reduce(
        tbb::blocked_range<std::uint64_t>(0, n_, 1u << 16), std::uint64_t{0},
        [&](const auto& r, std::uint64_t c) {
          for (std::uint64_t i = r.begin(); i != r.end(); ++i) c += hi_[i] > lower;
          return c;
        },
        std::plus<>());
    if (candidates == 0) return;
    const auto degree = static_cast<std::uint64_t>(std::max(1, rule_.max_degree()));
    const std::uint64_t take = std::clamp<std::uint64_t>(n_ * degree / candidates, 1, fresh.size());
    fresh.resize(static_cast<std::size_t>(take));
    const std::uint64_t* mw = mask_.words();
    const std::size_t f = fresh.size();
    // Each look-up (the image's mask word and position, then its distance) is a miss in
    // memory: they go in batches of about kBatchLookups, each stage's addresses prefetched
    // before the next stage reads them, so that the misses overlap (one at a time, a pass
    // of ten images over a primeswap 3x4 giant took minutes).
    constexpr std::size_t kBatchLookups = 512;
    const std::size_t per_batch = std::max<std::size_t>(1, kBatchLookups / f);
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, mask_.num_words(), 1u << 10), [&](const auto& r) {
      if (stop_ && stop_->load(std::memory_order_relaxed)) return;  // thrown below, after the pass
      std::vector<std::uint64_t> at(per_batch), pos(per_batch), look(per_batch * f);
      std::size_t count = 0;
      auto flush = [&] {
        for (std::size_t c = 0; c < count; ++c) {  // the images' ranks
          const State x = rule_.unrank(at[c]);
          for (std::size_t k = 0; k < f; ++k) {
            const std::uint64_t y = rule_.rank(stab_inv_[fresh[k]].apply(x));
            look[c * f + k] = y;
            bfs::prefetch_read(mw + (y >> 6));
            index_.prefetch(y);
          }
        }
        for (std::size_t q = 0; q < count * f; ++q) {  // their positions
          const std::uint64_t y = look[q];
          if (!(mw[y >> 6] >> (y & 63) & 1)) throw std::logic_error("an automorphism does not keep the masked component");
          look[q] = index_.index(y);
          bfs::prefetch_read(dist_.data() + look[q]);
        }
        for (std::size_t c = 0; c < count; ++c) {  // their distances
          const std::uint64_t i = pos[c];
          int l = lo_[i], h = hi_[i];
          for (std::size_t k = 0; k < f; ++k) {
            const int d = dist_[look[c * f + k]];
            l = std::max(l, std::max(d, e - d));
            h = std::min(h, e + d);
          }
          lo_[i] = static_cast<std::uint16_t>(l), hi_[i] = static_cast<std::uint16_t>(h);
        }
        count = 0;
      };
      for (std::uint64_t w = r.begin(); w != r.end(); ++w) {
        std::uint64_t i = index_.word_base(w);
        for (std::uint64_t b = mw[w]; b; b &= b - 1, ++i) {
          if (hi_[i] <= lower) continue;
          at[count] = w * 64 + static_cast<unsigned>(std::countr_zero(b)), pos[count++] = i;
          if (count == per_batch) flush();
        }
      }
      flush();
    });
    throw_if_stopped(stop_);  // some chunks were skipped: the bounds are not to be used
  }

  struct Scan {
    int upper;
    std::uint64_t best_hi, best_lo;  // positions of the candidates (states with hi > lower)
  };
  Scan scan() const {
    struct Acc {
      int upper = 0;
      std::uint64_t best_hi = kNone, best_lo = kNone;
    };
    const int lower = lower_;
    auto better_hi = [&](std::uint64_t a, std::uint64_t b) {  // a before b?
      if (b == kNone) return true;
      return hi_[a] != hi_[b] ? hi_[a] > hi_[b] : a < b;
    };
    auto better_lo = [&](std::uint64_t a, std::uint64_t b) {
      if (b == kNone) return true;
      return lo_[a] != lo_[b] ? lo_[a] < lo_[b] : a < b;
    };
    const Acc acc = tbb::parallel_reduce(
        tbb::blocked_range<std::uint64_t>(0, n_, 1u << 16), Acc{},
        [&](const auto& r, Acc a) {
          for (std::uint64_t i = r.begin(); i != r.end(); ++i) {
            if (hi_[i] <= lower) continue;
            a.upper = std::max<int>(a.upper, hi_[i]);
            if (better_hi(i, a.best_hi)) a.best_hi = i;
            if (better_lo(i, a.best_lo)) a.best_lo = i;
          }
          return a;
        },
        [&](Acc a, const Acc& b) {
          a.upper = std::max(a.upper, b.upper);
          if (b.best_hi != kNone && better_hi(b.best_hi, a.best_hi)) a.best_hi = b.best_hi;
          if (b.best_lo != kNone && better_lo(b.best_lo, a.best_lo)) a.best_lo = b.best_lo;
          return a;
        });
    return {std::max(lower, acc.upper), acc.best_hi, acc.best_lo};
  }

  static constexpr std::uint64_t kNone = ~std::uint64_t{0};
  // Measured on primeswap 3x3's giant (177,872 states, diameter 98): the pair bound of
  // the first 4 BFS gives 118 where 3 give 126 and a 5th adds nothing at first; a
  // second sweep (the far end of the far end) before the alternation slows it down.
  const std::atomic<int>* stop_;
  std::size_t keep_limit_ = 4;
  int sweeps_ = 1;
  std::vector<Symmetry> stab_;               // the automorphisms (but the identity) keeping the component
  std::vector<Symmetry> stab_inv_;           // their inverses
  std::unordered_set<std::uint64_t> known_;  // ranks of the sources and images so far
  std::vector<std::vector<std::uint8_t>> keep_;
  std::vector<int> keep_ecc_;
  int e_swap_ = 0;
  const R& rule_;
  const Bitset& mask_;
  MaskIndex index_;
  std::uint64_t n_;
  bool verbose_;
  Bitset visited_, frontier_, next_;
  HugeArray<std::uint16_t> dist_, lo_, hi_;
  BfsOptions opts_;
  int lower_ = 0;
};

// Multi-source bit-parallel BFS (Then et al., VLDB 2015) on the implicit rank space
// restricted to the component: per state of the component (its position in the mask)
// a 64-bit word of the sources that have seen it, and the frontier and next words. A
// level either pushes each frontier state's word to its neighbours (top-down, atomic
// OR) or has each state not yet seen by every source gather its neighbours' frontier
// words (bottom-up), whichever touches fewer states; neighbours are computed from the
// ranks (unrank, move, rank) once per state and level for all sources at once.
template <class R>
class MaskedMultiBfs {
 public:
  MaskedMultiBfs(const R& rule, const Bitset& mask)
      : rule_(rule), mask_(mask), index_(mask), n_(index_.size()), seen_(n_), frontier_(n_), next_(n_) {}

  // Eccentricities of up to 64 sources (ranks in the mask).
  std::vector<int> run(const std::vector<std::uint64_t>& sources) {
    const std::size_t k = sources.size();
    if (k == 0 || k > 64) throw std::invalid_argument("a multi-source pass takes 1 to 64 sources");
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n_, 1u << 16), [&](const auto& r) {
      for (std::uint64_t i = r.begin(); i != r.end(); ++i) seen_[i] = frontier_[i] = next_[i] = 0;
    });
    const std::uint64_t all = k == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << k) - 1;
    std::uint64_t active = 0, pending = n_;  // states in the frontier; states some source has not seen
    for (std::size_t j = 0; j < k; ++j) {
      if (!mask_.test(sources[j])) throw std::invalid_argument("a source lies outside the component");
      const std::uint64_t p = index_.index(sources[j]);
      if (!frontier_[p]) ++active;
      frontier_[p] |= std::uint64_t{1} << j;
      seen_[p] = frontier_[p];
      if (seen_[p] == all) --pending;
    }
    std::vector<int> ecc(k, 0);
    const std::uint64_t* mw = mask_.words();
    const std::uint64_t words = mask_.num_words();
    // f(i, state) for every position i of the component whose word pred(i) holds.
    auto for_positions = [&](auto&& pred, auto&& f) {
      tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, words, 1u << 8), [&](const auto& r) {
        for (std::uint64_t w = r.begin(); w != r.end(); ++w) {
          std::uint64_t i = index_.word_base(w);
          for (std::uint64_t b = mw[w]; b; b &= b - 1, ++i)
            if (pred(i)) f(i, rule_.unrank(w * 64 + static_cast<unsigned>(std::countr_zero(b))));
        }
      });
    };
    int depth = 0;
    while (active > 0) {
      if (active < pending) {  // top-down
        for_positions([&](std::uint64_t i) { return frontier_[i] != 0; },
                      [&](std::uint64_t i, State s) {
                        const std::uint64_t f = frontier_[i];
                        rule_.for_each_successor(s, [&](State t) {
                          const std::uint64_t j = index_.index(rule_.rank(t));
                          const std::uint64_t add = f & ~seen_[j];
                          if (add) std::atomic_ref<std::uint64_t>(next_[j]).fetch_or(add, std::memory_order_relaxed);
                        });
                      });
      } else {  // bottom-up
        for_positions([&](std::uint64_t i) { return seen_[i] != all; },
                      [&](std::uint64_t i, State s) {
                        std::uint64_t got = 0;
                        rule_.for_each_successor(s, [&](State t) { got |= frontier_[index_.index(rule_.rank(t))]; });
                        next_[i] = got & ~seen_[i];
                      });
      }
      struct Acc {
        std::uint64_t bits = 0, active = 0, done = 0;
      };
      const Acc acc = tbb::parallel_reduce(
          tbb::blocked_range<std::uint64_t>(0, n_, 1u << 16), Acc{},
          [&](const auto& r, Acc a) {
            for (std::uint64_t i = r.begin(); i != r.end(); ++i) {
              const std::uint64_t nb = next_[i] & ~seen_[i];
              next_[i] = 0;
              frontier_[i] = nb;
              if (!nb) continue;
              seen_[i] |= nb;
              a.bits |= nb, ++a.active;
              if (seen_[i] == all) ++a.done;
            }
            return a;
          },
          [](Acc a, const Acc& b) {
            return Acc{a.bits | b.bits, a.active + b.active, a.done + b.done};
          });
      ++depth;
      for (std::uint64_t b = acc.bits; b; b &= b - 1) ecc[static_cast<std::size_t>(std::countr_zero(b))] = depth;
      active = acc.active, pending -= acc.done;
    }
    if (pending != 0) throw std::logic_error("masked component is not connected");
    return ecc;
  }

 private:
  const R& rule_;
  const Bitset& mask_;
  MaskIndex index_;
  std::uint64_t n_;
  std::vector<std::uint64_t> seen_, frontier_, next_;
};

}  // namespace

// The pair bound of the kept distance arrays D_0..D_{k-1} (k >= 2): every pair x, y
// has d(x, y) <= d(s_i, x) + d(s_i, y) for each kept source s_i, so
//   diameter <= U = max over x, y of min_i (D_i[x] + D_i[y]).
// U is found exactly: a table over the first k - 1 distances gives, for (a_0..a_{k-2}),
// the largest D_{k-1}[y] among states y with D_j[y] >= a_j for all j (suffix maxima);
// pair (x, y) reaches T iff D_j[y] >= T - D_j[x] for all j, so x reaches T iff the table
// at (T - D_j[x])_j is >= T - D_{k-1}[x], monotone in T. One pass over x raises T.
int pair_bound(const std::vector<std::vector<std::uint8_t>>& keep_, const std::vector<int>& ecc) {
  const std::size_t k = keep_.size();
  const std::uint64_t n_ = keep_.front().size();
  int emax = 0;
  for (int e : ecc) emax = std::max(emax, e);
  const std::size_t side = static_cast<std::size_t>(emax) + 1;
  std::size_t cells = 1;
  for (std::size_t j = 0; j + 1 < k; ++j) cells *= side;
  auto cell_of = [&](auto&& coord) {
    std::size_t c = 0;
    for (std::size_t j = 0; j + 1 < k; ++j) c = c * side + static_cast<std::size_t>(coord(j));
    return c;
  };
  tbb::enumerable_thread_specific<std::vector<std::int16_t>> local(
      [&] { return std::vector<std::int16_t>(cells, -1); });
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n_, 1u << 16), [&](const auto& r) {
    auto& t = local.local();
    for (std::uint64_t x = r.begin(); x != r.end(); ++x) {
      const std::size_t c = cell_of([&](std::size_t j) { return keep_[j][x]; });
      t[c] = std::max<std::int16_t>(t[c], keep_[k - 1][x]);
    }
  });
  std::vector<std::int16_t> table(cells, -1);
  for (const auto& t : local)
    for (std::size_t c = 0; c < cells; ++c) table[c] = std::max(table[c], t[c]);
  // Suffix maxima along each dimension.
  std::size_t stride = 1;
  for (std::size_t j = k - 1; j-- > 0;) {
    for (std::size_t c = cells; c-- > 0;)
      if ((c / stride) % side + 1 < side) table[c] = std::max(table[c], table[c + stride]);
    stride *= side;
  }
  std::atomic<int> best{0};
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n_, 1u << 16), [&](const auto& r) {
    int b = best.load(std::memory_order_relaxed);
    for (std::uint64_t x = r.begin(); x != r.end(); ++x) {
      while (true) {
        const int t = b + 1;
        bool ok = true;
        const std::size_t c = cell_of([&](std::size_t j) {
          const int a = std::max(0, t - static_cast<int>(keep_[j][x]));
          if (a > emax) ok = false;
          return std::min(a, emax);
        });
        if (!ok || table[c] < t - static_cast<int>(keep_[k - 1][x])) break;
        b = t;
      }
    }
    int cur = best.load(std::memory_order_relaxed);
    while (b > cur && !best.compare_exchange_weak(cur, b)) {
    }
  });
  return best.load();
}

std::uint64_t masked_multi_bytes(std::uint64_t space, std::uint64_t component) {
  return 3 * 8 * component + Bitset::bytes_for(space);
}

std::vector<int> masked_eccentricities(const AnyRule& rule, const Bitset& mask,
                                       const std::vector<std::uint64_t>& sources, bool multi) {
  return std::visit(
      [&](const auto& r) {
        if (r.directed()) throw std::logic_error("masked eccentricities need an undirected rule");
        std::vector<int> out;
        if (multi) {
          MaskedMultiBfs<std::decay_t<decltype(r)>> m(r, mask);
          for (std::size_t first = 0; first < sources.size(); first += 64) {
            const std::vector<std::uint64_t> part(
                sources.begin() + static_cast<std::ptrdiff_t>(first),
                sources.begin() + static_cast<std::ptrdiff_t>(std::min(sources.size(), first + 64)));
            for (int e : m.run(part)) out.push_back(e);
          }
          return out;
        }
        bfs::check_batchable(r);
        MaskedBounding<std::decay_t<decltype(r)>> b(r, mask, false, {}, sources.empty() ? 0 : sources[0]);
        for (auto s : sources) out.push_back(b.eccentricity(s));
        return out;
      },
      rule);
}

std::uint64_t masked_bytes(std::uint64_t space, std::uint64_t component) {
  return 4 * Bitset::bytes_for(space) + 6 * component;
}

DiameterBounds bound_diameter_masked(const AnyRule& rule, const Bitset& mask, std::uint64_t rep,
                                     std::uint64_t budget_runs, double deadline, bool verbose,
                                     const std::vector<Symmetry>& symmetries, const std::atomic<int>* stop) {
  return std::visit(
      [&](const auto& r) {
        if (r.directed()) throw std::logic_error("masked BoundingDiameters needs an undirected rule");
        bfs::check_batchable(r);
        MaskedBounding<std::decay_t<decltype(r)>> b(r, mask, verbose, symmetries, rep, stop);
        return b.run(rep, budget_runs, deadline);
      },
      rule);
}

}  // namespace stategraph
