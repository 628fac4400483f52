// Exact diameters of components.
//
//  * rotate (DiameterKind::kCayley). A move turns one 2x2 block: t = s∘π_i, the same
//    permutation π_i of positions applied to every state. So the graph is the Cayley
//    graph of S_n with generators π_i (acting on the right), and its components are the
//    left cosets sH of the group H = <π_i>. For any permutation g, s ↦ g∘s is a graph
//    automorphism (g∘s∘π_i = (g∘s)∘π_i); for u, v in one component, g = v∘u⁻¹ maps u to
//    v and the component onto itself. So every vertex of a component has the same
//    (out-)eccentricity, and the diameter max_{u,v} d(u,v) = max_u ecc(u) is the
//    eccentricity of any vertex: the one the component search already measured from the
//    representative. (All components are even isomorphic, but we do not rely on it.)
//    A defined rule whose pieces are all distinct is the same case: a move is a fixed
//    passive permutation p of the positions, t = s∘p, and relabelling the pieces
//    (s ↦ g∘s) is an automorphism. With identical pieces it is not: the states are
//    cosets, the graph a Schreier coset graph, which need not be vertex-transitive
//    (eccentricities differ), so such a rule takes the exact method.
//
//  * sliding (DiameterKind::kBlankOrbits). Relabelling tiles, s ↦ σ∘s for a
//    permutation σ of the tiles 1..n-1, commutes with every move (a move swaps the blank
//    with a neighbouring cell, whatever the tiles are), so it is an automorphism of the
//    graph on all n! states. The ranked class holds, for each blank cell, the (n-1)!/2
//    states of one parity; two of them with the same blank cell differ by an even σ,
//    which maps the class onto itself. So within the class a state's eccentricity
//    depends only on its blank cell. A mirror symmetry ρ of the grid (flips; and the
//    transposes when rows == cols) maps moves to moves, so s ↦ τ∘s∘ρ⁻¹ is an
//    automorphism too, with τ = identity or the swap of tiles 1 and 2 chosen so that the
//    image lies in the ranked class; it moves the blank from b to ρ(b). So one BFS per
//    orbit of blank cells gives every eccentricity, and diameter = their maximum. This
//    needs the class to be one component (true on every grid with rows, cols >= 2; the
//    component search confirms it, else the diameters stay undetermined).
//
//  * otherwise (primeswap, cardswap, or --exact): the component's explicit adjacency
//    list (CSR) and BFS from every state when it is small, else BoundingDiameters
//    (Takes & Kosters, "Determining the diameter of small world networks", CIKM 2011):
//    every state w keeps bounds eL(w) <= ecc(w) <= eU(w); a BFS from v with eccentricity
//    e gives, by the triangle inequality, eL(w) >= max(d(v,w), e - d(v,w)) and
//    eU(w) <= e + d(v,w). The diameter lies in [max eL, max eU]; states with
//    eU(w) <= max eL can no longer raise it and are dropped. The first two BFS runs are
//    a double sweep (the representative, then the state farthest from it); then rounds
//    of BFS runs in parallel from the candidates with the largest eU and the smallest eL,
//    alternately, until the bounds meet. Directed components (rotate with --exact) take
//    BFS from every state.
//    The BFS runs take one of two engines (DiameterEngine): one source per BFS, several
//    in parallel, or 64 sources per bit-parallel BFS (MultiBfs below). Measured on
//    primeswap 3x3 (bench/bench_graph.cpp): the 64-source engine is about 1.9x faster
//    for BFS from every state of a component, but about 1.6x slower inside
//    BoundingDiameters, whose rounds need the sources' eccentricities before the bounds
//    (two passes per batch) and adapt better in small rounds; a puzzle graph is no
//    small world, so a state's distances from 64 sources spread over many depths and a
//    bit-parallel level shares little. kAuto takes the faster one for each.
//    Automorphisms (primeswap: grid symmetries x prime-keeping relabellings) that map the
//    component onto itself keep eccentricities and distances: ecc(g.w) = ecc(w) and
//    d(x, g.w) = d(g^-1.x, w). So all-sources runs one BFS per orbit of the component's
//    states, and BoundingDiameters shares the bounds within each orbit after every round
//    (the bounds a BFS from each image of the sources would give) and picks its sources
//    among orbit leaders only; the images are counted (image_sources) and listed in the
//    witness.
#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "analysis/graph_internal.hpp"

namespace stategraph {
namespace {

using Index = std::uint32_t;
constexpr std::uint16_t kFar = std::numeric_limits<std::uint16_t>::max();

// Adjacency list of one component over local indices 0..n-1 (ranks sorted ascending,
// so index 0 is the representative).
struct Csr {
  std::vector<std::uint64_t> offset;  // n + 1
  std::vector<Index> target;
  Index size() const { return static_cast<Index>(offset.size() - 1); }
};

template <class R>
Csr build_csr(const R& rule, const std::vector<std::uint64_t>& ranks) {
  const std::size_t n = ranks.size();
  auto index_of = [&](std::uint64_t q) {
    const auto it = std::lower_bound(ranks.begin(), ranks.end(), q);
    if (it == ranks.end() || *it != q) throw std::logic_error("component is not closed under moves");
    return static_cast<Index>(it - ranks.begin());
  };
  Csr g;
  g.offset.assign(n + 1, 0);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      std::uint64_t d = 0;
      rule.for_each_successor(rule.unrank(ranks[i]), [&](State) { ++d; });
      g.offset[i + 1] = d;
    }
  });
  for (std::size_t i = 0; i < n; ++i) g.offset[i + 1] += g.offset[i];
  g.target.resize(g.offset[n]);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      std::uint64_t k = g.offset[i];
      rule.for_each_successor(rule.unrank(ranks[i]), [&](State t) { g.target[k++] = index_of(rule.rank(t)); });
    }
  });
  return g;
}

// BFS over the CSR from src; fills dist (kFar = unreached) and returns the eccentricity.
int csr_bfs(const Csr& g, Index src, std::vector<std::uint16_t>& dist, std::vector<Index>& queue) {
  dist.assign(g.size(), kFar);
  queue.resize(g.size());
  std::size_t head = 0, tail = 0;
  queue[tail++] = src;
  dist[src] = 0;
  int ecc = 0;
  while (head < tail) {
    const Index v = queue[head++];
    const std::uint16_t dv = dist[v];
    ecc = dv;
    for (std::uint64_t k = g.offset[v]; k < g.offset[v + 1]; ++k) {
      const Index w = g.target[k];
      if (dist[w] == kFar) dist[w] = static_cast<std::uint16_t>(dv + 1), queue[tail++] = w;
    }
  }
  if (tail != g.size()) throw std::logic_error("component is not connected along successors");
  return ecc;
}

// Multi-source bit-parallel BFS (Then et al., "The More the Merrier: Efficient
// Multi-Source Graph Traversal", VLDB 2015): up to 64 BFS at once, source i owning bit i
// of one machine word per state in `seen`, `frontier` and `next`. A level expands each
// state whose frontier word is non-zero once, for every source that reached it at that
// depth, pushing the word to its neighbours: the adjacency list is read once per
// (state, distinct depth) instead of once per (state, source), and the bookkeeping is
// one OR per edge. Serial within a batch; batches run in parallel.
class MultiBfs {
 public:
  // BFS from sources[0..k) (k <= 64) over g; ecc[i] = eccentricity of sources[i].
  // on_reach(v, bits, depth) is called once per state and depth for the sources (bits)
  // that reach v at that depth.
  template <class F>
  void run(const Csr& g, const Index* sources, std::size_t k, int* ecc, F&& on_reach) {
    const Index n = g.size();
    seen_.assign(n, 0);
    frontier_.assign(n, 0);
    next_.assign(n, 0);
    active_.clear();
    for (std::size_t i = 0; i < k; ++i) {
      const Index s = sources[i];
      if (!frontier_[s]) active_.push_back(s);
      frontier_[s] |= std::uint64_t{1} << i;
      ecc[i] = 0;
    }
    for (Index v : active_) seen_[v] = frontier_[v], on_reach(v, frontier_[v], 0);
    const std::uint64_t all = k == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << k) - 1;
    std::uint64_t reached = 0;  // (state, source) pairs
    for (Index v : active_) reached += static_cast<std::uint64_t>(std::popcount(frontier_[v]));
    int depth = 0;
    while (!active_.empty()) {
      next_active_.clear();
      for (Index v : active_) {
        const std::uint64_t f = frontier_[v];
        frontier_[v] = 0;
        for (std::uint64_t e = g.offset[v]; e < g.offset[v + 1]; ++e) {
          const Index u = g.target[e];
          const std::uint64_t add = f & ~seen_[u];
          if (!add) continue;
          if (!next_[u]) next_active_.push_back(u);
          next_[u] |= add;
        }
      }
      ++depth;
      std::uint64_t level_bits = 0;
      for (Index u : next_active_) {
        const std::uint64_t b = next_[u];
        next_[u] = 0;
        seen_[u] |= b;
        frontier_[u] = b;
        level_bits |= b;
        reached += static_cast<std::uint64_t>(std::popcount(b));
        on_reach(u, b, depth);
      }
      for (std::uint64_t b = level_bits; b; b &= b - 1) ecc[std::countr_zero(b)] = depth;
      active_.swap(next_active_);
    }
    if (reached != static_cast<std::uint64_t>(n) * std::popcount(all))
      throw std::logic_error("component is not connected along successors");
  }

 private:
  std::vector<std::uint64_t> seen_, frontier_, next_;
  std::vector<Index> active_, next_active_;
};

constexpr std::size_t kMultiWidth = 64;

// The orbits of a component's states under the automorphisms that map it onto itself
// (its stabilizer, a group when the automorphisms are: then the orbit of x is {g.x}).
// Every state of an orbit has the same eccentricity (ecc(g.x) = ecc(x)), so bounds
// eL <= ecc <= eU that hold for every state still hold when each state takes the
// largest eL and the smallest eU of its orbit. After BFS runs from sources S this gives
// exactly the bounds of BFS runs from every image g.s as well (d(x, g.s) = d(g^-1.x, s)),
// without running them.
struct Orbits {
  std::vector<Index> leader;   // the smallest index of each state's orbit; empty: no symmetry
  std::vector<Index> order;    // the states grouped by orbit (ascending leaders, each orbit ascending)
  std::vector<Index> start;    // orbit k is order[start[k] .. start[k + 1])
  std::vector<Index> leaders;  // leaders[k] = order[start[k]]
  bool any() const { return !leader.empty(); }
  std::size_t count() const { return leaders.size(); }
  // The orbit holding state v, as [begin, end) into order.
  std::pair<const Index*, const Index*> of(Index v) const {
    const std::size_t k =
        static_cast<std::size_t>(std::lower_bound(leaders.begin(), leaders.end(), leader[v]) - leaders.begin());
    return {order.data() + start[k], order.data() + start[k + 1]};
  }
};

template <class R>
Orbits component_orbits(const R& rule, const std::vector<std::uint64_t>& ranks, const std::vector<Symmetry>& syms) {
  Orbits o;
  const std::size_t n = ranks.size();
  auto index_of = [&](std::uint64_t q) {
    const auto it = std::lower_bound(ranks.begin(), ranks.end(), q);
    if (it == ranks.end() || *it != q) throw std::logic_error("an automorphism does not keep the component");
    return static_cast<Index>(it - ranks.begin());
  };
  for (const Symmetry& g : syms) {
    if (g.identity()) continue;
    // g maps components onto components: onto this one iff it maps one state into it.
    if (!std::binary_search(ranks.begin(), ranks.end(), rule.rank(g.apply(rule.unrank(ranks[0]))))) continue;
    if (o.leader.empty()) {
      o.leader.resize(n);
      for (std::size_t i = 0; i < n; ++i) o.leader[i] = static_cast<Index>(i);
    }
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const auto& range) {
      for (std::size_t i = range.begin(); i != range.end(); ++i)
        o.leader[i] = std::min(o.leader[i], index_of(rule.rank(g.apply(rule.unrank(ranks[i])))));
    });
  }
  if (o.leader.empty()) return o;
  std::vector<Index> slot(n, 0);  // per leader: the orbit's size, then its next free position
  for (std::size_t i = 0; i < n; ++i) {
    if (o.leader[i] == i) o.leaders.push_back(static_cast<Index>(i));
    ++slot[o.leader[i]];
  }
  o.start.reserve(o.leaders.size() + 1);
  Index pos = 0;
  for (Index l : o.leaders) o.start.push_back(pos), pos += std::exchange(slot[l], pos);
  o.start.push_back(pos);
  o.order.resize(n);
  for (std::size_t i = 0; i < n; ++i) o.order[slot[o.leader[i]]++] = static_cast<Index>(i);
  return o;
}

// Each state takes the largest lower and the smallest upper bound of its orbit.
void share_bounds(const Orbits& o, std::vector<std::uint16_t>& lo, std::vector<std::uint16_t>& hi) {
  if (!o.any()) return;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, o.count(), 1024), [&](const auto& range) {
    for (std::size_t k = range.begin(); k != range.end(); ++k) {
      const Index *b = o.order.data() + o.start[k], *e = o.order.data() + o.start[k + 1];
      if (e - b < 2) continue;
      std::uint16_t l = 0, h = kFar;
      for (const Index* p = b; p != e; ++p) l = std::max(l, lo[*p]), h = std::min(h, hi[*p]);
      for (const Index* p = b; p != e; ++p) lo[*p] = l, hi[*p] = h;
    }
  });
}

// The eccentricity of every state from a BFS per orbit (its leader; every state when
// there is no symmetry).
int all_sources(const Csr& g, const Orbits& orbits, std::uint64_t& runs, std::uint64_t& images, bool multi) {
  std::vector<Index> all;
  if (orbits.any()) {
    all = orbits.leaders;
  } else {
    all.resize(g.size());
    for (Index v = 0; v < g.size(); ++v) all[v] = v;
  }
  runs += all.size();
  images += g.size() - all.size();
  const Index count = static_cast<Index>(all.size());
  if (!multi)
    return tbb::parallel_reduce(
        tbb::blocked_range<Index>(0, count, 16), 0,
        [&](const auto& range, int best) {
          std::vector<std::uint16_t> dist;
          std::vector<Index> queue;
          for (Index v = range.begin(); v != range.end(); ++v) best = std::max(best, csr_bfs(g, all[v], dist, queue));
          return best;
        },
        [](int a, int b) { return std::max(a, b); });
  const Index batches = static_cast<Index>((count + kMultiWidth - 1) / kMultiWidth);
  return tbb::parallel_reduce(
      tbb::blocked_range<Index>(0, batches, 1), 0,
      [&](const auto& range, int best) {
        MultiBfs bfs;
        std::vector<Index> sources;
        int ecc[kMultiWidth];
        for (Index b = range.begin(); b != range.end(); ++b) {
          sources.clear();
          for (Index v = static_cast<Index>(b * kMultiWidth); v < count && sources.size() < kMultiWidth; ++v)
            sources.push_back(all[v]);
          bfs.run(g, sources.data(), sources.size(), ecc, [](Index, std::uint64_t, int) {});
          for (std::size_t i = 0; i < sources.size(); ++i) best = std::max(best, ecc[i]);
        }
        return best;
      },
      [](int a, int b) { return std::max(a, b); });
}

// BoundingDiameters. Each round runs BFS from a batch of candidates and tightens every
// state's bounds; single-source mode runs kBoundingBatch csr_bfs per round (in
// parallel), multi-source mode kMultiBatch sources as MultiBfs batches of 64, each batch
// twice: once for its sources' eccentricities, once more to apply the bounds, which need
// them (the two passes cost less than keeping 64 distances per state). The batch sizes
// are constants, so the sources picked never depend on the thread count.
// Stops when the bounds meet, or after budget_runs runs (0: no limit), or at the
// deadline (steady-clock seconds, 0: none); fills out (witness in local indices).
// Measured on primeswap 3x3's giants (177,872 states, diameter 98), without symmetry:
// rounds of 2 (1 by upper, 1 by lower bound) need 144 and 149 runs, rounds of 4 140 and
// 173, rounds of 1 alternating 149 (the first), rounds of 1 by upper bound only 315;
// with the 8 automorphisms keeping a giant (source images): rounds of 1 or 2 need 17
// runs, rounds of 4 32, 8 96.
constexpr std::size_t kBoundingBatch = 2;
constexpr std::size_t kMultiBatch = 2 * kMultiWidth;

// With orbits, the bounds are shared within each orbit after every round, only orbit
// leaders are candidates, and a source's images join the witness's sources unrun.
void bounding_diameters(const Csr& g, const Orbits& orbits, bool multi, std::uint64_t budget_runs, double deadline,
                        DiameterBounds& out, const std::atomic<int>* stop) {
  const Index n = g.size();
  std::vector<std::uint16_t> lo(n, 0), hi(n, kFar);
  std::vector<std::uint8_t> active(n, 1);
  if (orbits.any())
    for (Index w = 0; w < n; ++w) active[w] = orbits.leader[w] == w;
  int lower = 0;
  auto degree = [&](Index v) { return g.offset[v + 1] - g.offset[v]; };
  DiameterWitness& wit = out.witness;
  // Source s's images (its orbit but s): eccentricity e without a BFS.
  auto note_images = [&](Index s, int e) {
    if (!orbits.any()) return;
    const auto [b, end] = orbits.of(s);
    for (const Index* p = b; p != end; ++p)
      if (*p != s) wit.images.push_back({*p, s, e}), ++out.image_sources;
    active[orbits.leader[s]] = 0;
  };

  const std::size_t batch = multi ? kMultiBatch : kBoundingBatch;
  std::vector<std::vector<std::uint16_t>> dist(multi ? 0 : batch);
  std::vector<std::vector<Index>> queues(multi ? 0 : batch);
  std::vector<int> ecc(batch);

  // The lower bound's witness: a source of the largest eccentricity and a state
  // farthest from it.
  auto note_source = [&](Index s, int e, Index far) {
    wit.sources.emplace_back(s, e);
    if (e > lower || wit.sources.size() == 1) wit.lower_a = s, wit.lower_b = far, wit.lower = e;
    lower = std::max(lower, e);
  };
  auto farthest = [&](const std::vector<std::uint16_t>& d, int e) {
    for (Index w = 0; w < n; ++w)
      if (d[w] == e) return w;
    return Index{0};
  };
  // Tightens the bounds of every state whose orbit's leader is active (every active state
  // without symmetry) with tighten(w): share_bounds then gives each leader its orbit's best.
  auto apply_bounds = [&](auto&& tighten) {
    tbb::parallel_for(tbb::blocked_range<Index>(0, n, 8192), [&](const auto& range) {
      for (Index w = range.begin(); w != range.end(); ++w)
        if (active[orbits.any() ? orbits.leader[w] : w]) tighten(w);
    });
  };
  // Single-source: the bounds of the BFS runs held in dist[0..k).
  auto update = [&](std::size_t k) {
    apply_bounds([&](Index w) {
      for (std::size_t i = 0; i < k; ++i) {
        const int d = dist[i][w], e = ecc[i];
        lo[w] = static_cast<std::uint16_t>(std::max<int>(lo[w], std::max(d, e - d)));
        hi[w] = static_cast<std::uint16_t>(std::min<int>(hi[w], e + d));
      }
    });
  };
  // Multi-source: per batch, its own bound arrays (merged afterwards, so batches run
  // in parallel without sharing lo/hi).
  std::vector<std::vector<std::uint16_t>> batch_lo, batch_hi;
  std::vector<Index> batch_far;
  auto run_multi = [&](const std::vector<Index>& sources) {
    const std::size_t k = sources.size(), nb = (k + kMultiWidth - 1) / kMultiWidth;
    batch_lo.resize(nb), batch_hi.resize(nb);
    batch_far.assign(k, 0);
    tbb::parallel_for(std::size_t{0}, nb, [&](std::size_t b) {
      const std::size_t first = b * kMultiWidth, width = std::min(kMultiWidth, k - first);
      int* e = ecc.data() + first;
      MultiBfs bfs;
      bfs.run(g, sources.data() + first, width, e, [](Index, std::uint64_t, int) {});
      auto& blo = batch_lo[b];
      auto& bhi = batch_hi[b];
      blo.assign(n, 0), bhi.assign(n, kFar);
      Index* far = batch_far.data() + first;
      // (run() rewrites its ecc array level by level: the bounds read the first pass's e)
      int again[kMultiWidth];
      bfs.run(g, sources.data() + first, width, again, [&](Index w, std::uint64_t bits, int d) {
        int l = blo[w], h = bhi[w];
        for (; bits; bits &= bits - 1) {
          const int i = std::countr_zero(bits), ei = e[i];
          if (d == ei && far[i] == 0) far[i] = w;
          l = std::max(l, std::max(d, ei - d));
          h = std::min(h, ei + d);
        }
        blo[w] = static_cast<std::uint16_t>(l), bhi[w] = static_cast<std::uint16_t>(h);
      });
    });
    for (std::size_t i = 0; i < k; ++i) note_source(sources[i], ecc[i], batch_far[i]), note_images(sources[i], ecc[i]);
    apply_bounds([&](Index w) {
      for (std::size_t b = 0; b < nb; ++b) {
        lo[w] = std::max(lo[w], batch_lo[b][w]);
        hi[w] = std::min(hi[w], batch_hi[b][w]);
      }
    });
  };
  auto run = [&](const std::vector<Index>& sources) {
    throw_if_stopped(stop);
    out.runs += sources.size();
    if (multi) {
      run_multi(sources);
    } else {
      tbb::parallel_for(std::size_t{0}, sources.size(),
                        [&](std::size_t i) { ecc[i] = csr_bfs(g, sources[i], dist[i], queues[i]); });
      for (std::size_t i = 0; i < sources.size(); ++i)
        note_source(sources[i], ecc[i], farthest(dist[i], ecc[i])), note_images(sources[i], ecc[i]);
      update(sources.size());
    }
    share_bounds(orbits, lo, hi);
  };
  auto out_of_budget = [&] {
    return (budget_runs > 0 && out.runs >= budget_runs) || (deadline > 0 && now_seconds() >= deadline);
  };
  auto finish = [&](int upper, bool stopped) {
    out.lower = lower, out.upper = std::max(lower, upper), out.stopped = stopped;
    out.method = ComponentMethod::kBounding;
    wit.lower = lower, wit.upper = out.upper;
  };

  // Double sweep: the representative (index 0), then a state farthest from it.
  {
    std::vector<std::uint16_t> d0;
    std::vector<Index> q;
    const int e0 = csr_bfs(g, 0, d0, q);
    ++out.runs;
    const Index far = farthest(d0, e0);
    note_source(0, e0, far);
    note_images(0, e0);
    for (Index w = 0; w < n; ++w) {
      lo[w] = static_cast<std::uint16_t>(std::max<int>(d0[w], e0 - d0[w]));
      hi[w] = static_cast<std::uint16_t>(e0 + d0[w]);
    }
    share_bounds(orbits, lo, hi);
    active[0] = 0;
    // (a far end in the representative's orbit has its eccentricity already)
    const bool known = orbits.any() && orbits.leader[far] == 0;
    if (far != 0 && !known && !out_of_budget()) run({far}), active[far] = 0;
  }

  std::vector<Index> sources, candidates;
  bool pick_upper = true;
  while (true) {
    // Drop the states that can no longer raise the lower bound; find the upper bound.
    int upper = lower;
    candidates.clear();
    for (Index w = 0; w < n; ++w) {
      if (!active[w]) continue;
      if (hi[w] <= lower)
        active[w] = 0;
      else
        upper = std::max<int>(upper, hi[w]), candidates.push_back(w);
    }
    if (upper <= lower) return finish(lower, false);
    if (out_of_budget()) return finish(upper, true);
    // Next sources: half the batch by the largest upper bound, half by the smallest lower
    // bound among the candidates (ties: the larger degree, then the smaller index).
    std::size_t want = batch;
    if (budget_runs > 0) want = std::min<std::size_t>(want, budget_runs - out.runs);
    sources.clear();
    auto by_upper = [&](Index a, Index b) {
      if (hi[a] != hi[b]) return hi[a] > hi[b];
      if (degree(a) != degree(b)) return degree(a) > degree(b);
      return a < b;
    };
    auto by_lower = [&](Index a, Index b) {
      if (lo[a] != lo[b]) return lo[a] < lo[b];
      if (degree(a) != degree(b)) return degree(a) > degree(b);
      return a < b;
    };
    if (candidates.size() <= want) {
      sources = candidates;
    } else if (want == 1) {  // one source per round: alternately by upper and by lower bound
      sources.push_back(pick_upper ? *std::min_element(candidates.begin(), candidates.end(), by_upper)
                                   : *std::min_element(candidates.begin(), candidates.end(), by_lower));
      pick_upper = !pick_upper;
    } else {
      const std::size_t half = (want + 1) / 2;
      std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(half), candidates.end(),
                        by_upper);
      sources.assign(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(half));
      const auto rest = candidates.begin() + static_cast<std::ptrdiff_t>(half);
      const std::size_t more = std::min(want - half, static_cast<std::size_t>(candidates.end() - rest));
      std::partial_sort(rest, rest + static_cast<std::ptrdiff_t>(more), candidates.end(), by_lower);
      sources.insert(sources.end(), rest, rest + static_cast<std::ptrdiff_t>(more));
    }
    run(sources);
    for (Index s : sources) active[s] = 0;  // eccentricity known exactly
  }
}

// Orbit representatives of the blank cells under the grid's mirror symmetries.
std::vector<std::vector<int>> blank_orbits(const Grid& grid) {
  const int R = grid.rows, C = grid.cols;
  std::vector<int> orbit_of(static_cast<std::size_t>(R * C), -1);
  std::vector<std::vector<int>> orbits;
  for (int cell = 0; cell < R * C; ++cell) {
    if (orbit_of[static_cast<std::size_t>(cell)] >= 0) continue;
    const int r = cell / C, c = cell % C;
    std::vector<std::array<int, 2>> images = {{r, c}, {r, C - 1 - c}, {R - 1 - r, c}, {R - 1 - r, C - 1 - c}};
    if (R == C)  // the transposes and quarter turns of a square grid
      for (int i = 0; i < 4; ++i)
        images.push_back({images[static_cast<std::size_t>(i)][1], images[static_cast<std::size_t>(i)][0]});
    orbits.emplace_back();
    for (auto [ir, ic] : images) {
      const int img = ir * C + ic;
      if (orbit_of[static_cast<std::size_t>(img)] < 0) {
        orbit_of[static_cast<std::size_t>(img)] = static_cast<int>(orbits.size() - 1);
        orbits.back().push_back(img);
      }
    }
  }
  return orbits;
}

}  // namespace

DiameterBounds bound_diameter(const AnyRule& rule, std::vector<std::uint64_t> ranks, std::uint64_t all_sources_limit,
                              std::uint64_t budget_runs, double deadline, DiameterEngine engine,
                              const std::vector<Symmetry>& symmetries, const std::atomic<int>* stop) {
  DiameterBounds out;
  if (ranks.size() <= 1) {
    out.method = ComponentMethod::kSingle;
    if (!ranks.empty()) out.witness.lower_a = out.witness.lower_b = ranks[0];
    return out;
  }
  if (ranks.size() >= std::numeric_limits<Index>::max()) throw std::length_error("component too large for a CSR");
  std::sort(ranks.begin(), ranks.end());
  std::visit(
      [&](const auto& r) {
        const Csr g = build_csr(r, ranks);
        const Orbits orbits = r.directed() ? Orbits{} : component_orbits(r, ranks, symmetries);
        // Directed components: the bounds above need symmetric distances, so BFS from all.
        if (r.directed() || g.size() <= all_sources_limit) {
          out.lower = out.upper =
              all_sources(g, orbits, out.runs, out.image_sources, engine != DiameterEngine::kSingleSource);
          out.method = ComponentMethod::kAllSources;
          out.witness.lower = out.witness.upper = out.lower;
          return;
        }
        bounding_diameters(g, orbits, engine == DiameterEngine::kMultiSource, budget_runs, deadline, out, stop);
      },
      rule);
  // Local indices to ranks.
  DiameterWitness& w = out.witness;
  w.lower_a = ranks[w.lower_a], w.lower_b = ranks[w.lower_b];
  for (auto& [s, e] : w.sources) s = ranks[s];
  for (auto& im : w.images) im.state = ranks[im.state], im.of = ranks[im.of];
  return out;
}

std::uint64_t csr_bytes(std::uint64_t component, int max_degree) {
  // sorted ranks, offsets, targets, orbits, then per BFS batch distances / bounds / queues
  return component * (8 + 8 + 4 * static_cast<std::uint64_t>(max_degree) + 3 * 4 + 2 * 3 + 1 + 4 * kBoundingBatch * 6);
}

int exact_diameter(const AnyRule& rule, std::vector<std::uint64_t> ranks, std::uint64_t all_sources_limit,
                   std::uint64_t& runs, DiameterEngine engine) {
  const DiameterBounds b = bound_diameter(rule, std::move(ranks), all_sources_limit, 0, 0, engine);
  runs += b.runs;
  return b.lower;
}

DiameterPlan plan_diameter(const AnyRule& rule, const GraphOptions& options) {
  DiameterPlan plan;
  if (options.method == DiameterMethod::kAuto) {
    switch (rule_diameter_symmetry(rule)) {
      case DiameterSymmetry::kCayley:
        plan.kind = DiameterKind::kCayley, plan.collect = false;
        break;
      case DiameterSymmetry::kBlankOrbits:
        plan.kind = DiameterKind::kBlankOrbits, plan.collect = false;
        break;
      case DiameterSymmetry::kNone:
        break;
    }
  }
  return plan;
}

void finish_diameters(const AnyRule& rule, const GraphOptions& options, const DiameterPlan& plan, GraphReport& report) {
  using Clock = std::chrono::steady_clock;
  switch (plan.kind) {
    case DiameterKind::kExact: {
      // "exact", plus the methods of the components that are bounded (not exact).
      report.diameter_method = "exact";
      for (ComponentMethod m : {ComponentMethod::kBoundingMasked, ComponentMethod::kBounding,
                                ComponentMethod::kEccentricity, ComponentMethod::kNone}) {
        const bool used = std::any_of(report.components.begin(), report.components.end(),
                                      [&](const ComponentInfo& c) { return c.method == m && c.diameter < 0; });
        if (used)
          report.diameter_method +=
              std::string("+") + (m == ComponentMethod::kNone ? "none" : component_method_name(m));
      }
      return;
    }
    case DiameterKind::kCayley:
      report.diameter_method = "cayley";
      for (auto& c : report.components)
        c.diameter = c.eccentricity_of_representative, c.method = ComponentMethod::kCayley;
      return;
    case DiameterKind::kBlankOrbits: {
      report.diameter_method = "blank-orbits";
      if (report.components.size() != 1) return;  // the argument needs one component
      const auto t = Clock::now();
      ComponentInfo& comp = report.components.front();
      const State rep = std::visit([&](const auto& r) { return r.unrank(comp.representative); }, rule);
      const int rep_blank = rule_blank_cell(rule, rep);
      const VariantInfo& variant = find_variant(options.variant);
      int diameter = 0;
      for (const auto& orbit : blank_orbits(rule_grid(rule))) {
        int ecc;
        if (std::find(orbit.begin(), orbit.end(), rep_blank) != orbit.end()) {
          ecc = comp.eccentricity_of_representative;  // measured by the component search
        } else {
          BfsOptions bo;
          bo.forward = true;
          bo.stop = options.stop;  // the variant throws BfsInterrupted between two levels
          bo.sources = {rule_state_with_blank(rule, orbit.front())};
          ecc = variant.run(rule, bo).max_depth();
          ++report.diameter_bfs_runs;
        }
        diameter = std::max(diameter, ecc);
      }
      comp.diameter = diameter;
      comp.method = ComponentMethod::kBlankOrbits;
      comp.bfs_runs = report.diameter_bfs_runs;
      report.diameter_seconds += std::chrono::duration<double>(Clock::now() - t).count();
      return;
    }
  }
}

}  // namespace stategraph
