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
#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <limits>
#include <stdexcept>

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

int all_sources(const Csr& g, std::uint64_t& runs) {
  runs += g.size();
  return tbb::parallel_reduce(
      tbb::blocked_range<Index>(0, g.size(), 16), 0,
      [&](const auto& range, int best) {
        std::vector<std::uint16_t> dist;
        std::vector<Index> queue;
        for (Index v = range.begin(); v != range.end(); ++v) best = std::max(best, csr_bfs(g, v, dist, queue));
        return best;
      },
      [](int a, int b) { return std::max(a, b); });
}

int bounding_diameters(const Csr& g, std::uint64_t& runs) {
  const Index n = g.size();
  std::vector<std::uint16_t> lo(n, 0), hi(n, kFar);
  std::vector<std::uint8_t> active(n, 1);
  int lower = 0;
  auto degree = [&](Index v) { return g.offset[v + 1] - g.offset[v]; };

  const std::size_t batch = std::max<std::size_t>(4, 2 * static_cast<std::size_t>(tbb::this_task_arena::max_concurrency()));
  std::vector<std::vector<std::uint16_t>> dist(batch);
  std::vector<std::vector<Index>> queues(batch);
  std::vector<int> ecc(batch);

  // Applies the bounds of the BFS runs held in dist[0..k) from sources[0..k).
  auto update = [&](const std::vector<Index>& sources) {
    const std::size_t k = sources.size();
    for (std::size_t i = 0; i < k; ++i) lower = std::max(lower, ecc[i]);
    lower = tbb::parallel_reduce(
        tbb::blocked_range<Index>(0, n, 8192), lower,
        [&](const auto& range, int best) {
          for (Index w = range.begin(); w != range.end(); ++w) {
            if (!active[w]) continue;
            for (std::size_t i = 0; i < k; ++i) {
              const int d = dist[i][w], e = ecc[i];
              lo[w] = static_cast<std::uint16_t>(std::max<int>(lo[w], std::max(d, e - d)));
              hi[w] = static_cast<std::uint16_t>(std::min<int>(hi[w], e + d));
            }
            best = std::max<int>(best, lo[w]);
          }
          return best;
        },
        [](int a, int b) { return std::max(a, b); });
  };
  auto run = [&](const std::vector<Index>& sources) {
    tbb::parallel_for(std::size_t{0}, sources.size(),
                      [&](std::size_t i) { ecc[i] = csr_bfs(g, sources[i], dist[i], queues[i]); });
    runs += sources.size();
    update(sources);
  };

  // Double sweep: the representative, then a state farthest from it.
  run({0});
  Index far = 0;
  for (Index w = 0; w < n; ++w)
    if (dist[0][w] > dist[0][far]) far = w;
  run({far});

  std::vector<Index> sources;
  while (true) {
    // Drop the states that can no longer raise the lower bound; find the upper bound.
    int upper = lower;
    for (Index w = 0; w < n; ++w) {
      if (!active[w]) continue;
      if (hi[w] <= lower) active[w] = 0;
      else upper = std::max<int>(upper, hi[w]);
    }
    if (upper <= lower) return lower;
    // Next sources: alternately the largest upper bound and the smallest lower bound
    // among the candidates (ties: the larger degree, then the smaller index).
    sources.clear();
    for (std::size_t pick = 0; pick < batch; ++pick) {
      const bool by_upper = pick % 2 == 0;
      Index best = n;
      for (Index w = 0; w < n; ++w) {
        if (!active[w] || std::find(sources.begin(), sources.end(), w) != sources.end()) continue;
        if (best == n) { best = w; continue; }
        const bool better = by_upper ? (hi[w] > hi[best] || (hi[w] == hi[best] && degree(w) > degree(best)))
                                     : (lo[w] < lo[best] || (lo[w] == lo[best] && degree(w) > degree(best)));
        if (better) best = w;
      }
      if (best == n) break;
      sources.push_back(best);
    }
    run(sources);
    for (std::size_t i = 0; i < sources.size(); ++i) active[sources[i]] = 0;  // eccentricity known exactly
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
      for (int i = 0; i < 4; ++i) images.push_back({images[static_cast<std::size_t>(i)][1], images[static_cast<std::size_t>(i)][0]});
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

int exact_diameter(const AnyRule& rule, std::vector<std::uint64_t> ranks, std::uint64_t all_sources_limit,
                   std::uint64_t& runs) {
  if (ranks.size() <= 1) return 0;
  if (ranks.size() >= std::numeric_limits<Index>::max()) throw std::length_error("component too large for a CSR");
  std::sort(ranks.begin(), ranks.end());
  return std::visit(
      [&](const auto& r) {
        const Csr g = build_csr(r, ranks);
        ranks = {};
        // Directed components: the bounds above need symmetric distances, so BFS from all.
        if (r.directed() || g.size() <= all_sources_limit) return all_sources(g, runs);
        return bounding_diameters(g, runs);
      },
      rule);
}

// The sliding orbit argument in the header comment, as code: a state of the ranked
// class with the blank on `cell`.
static State sliding_state_with_blank(const Sliding& s, int cell) {
  State st = 0;
  unsigned tile = 1;
  for (int i = 0; i < s.cells(); ++i)
    if (i != cell) st = set_cell(st, i, tile++);
  if (!s.in_space(st)) {
    const int a = cell == 0 ? 1 : 0, b = (cell == 0 || cell == 1) ? 2 : 1;
    st = swap_cells(st, a, b);
  }
  return st;
}

DiameterPlan plan_diameter(const AnyRule& rule, const GraphOptions& options) {
  DiameterPlan plan;
  if (options.method == DiameterMethod::kAuto) {
    if (std::holds_alternative<Rotate>(rule)) plan.kind = DiameterKind::kCayley, plan.collect = false;
    if (const auto* d = std::get_if<DefinedRule>(&rule); d && d->distinct())
      plan.kind = DiameterKind::kCayley, plan.collect = false;
    if (std::holds_alternative<Sliding>(rule)) plan.kind = DiameterKind::kBlankOrbits, plan.collect = false;
  }
  return plan;
}

void finish_diameters(const AnyRule& rule, const GraphOptions& options, const DiameterPlan& plan, GraphReport& report) {
  using Clock = std::chrono::steady_clock;
  switch (plan.kind) {
    case DiameterKind::kExact:
      report.diameter_method = "exact";
      return;
    case DiameterKind::kCayley:
      report.diameter_method = "cayley";
      for (auto& c : report.components) c.diameter = c.eccentricity_of_representative;
      return;
    case DiameterKind::kBlankOrbits: {
      report.diameter_method = "blank-orbits";
      if (report.components.size() != 1) return;  // the argument needs one component
      const auto t = Clock::now();
      const Sliding& s = std::get<Sliding>(rule);
      ComponentInfo& comp = report.components.front();
      const int rep_blank = find_cell(s.unrank(comp.representative), s.cells(), 0);
      const VariantInfo& variant = find_variant(options.variant);
      int diameter = 0;
      for (const auto& orbit : blank_orbits(s.grid())) {
        int ecc;
        if (std::find(orbit.begin(), orbit.end(), rep_blank) != orbit.end()) {
          ecc = comp.eccentricity_of_representative;  // measured by the component search
        } else {
          BfsOptions bo;
          bo.forward = true;
          bo.sources = {sliding_state_with_blank(s, orbit.front())};
          ecc = variant.run(rule, bo).max_depth();
          ++report.diameter_bfs_runs;
        }
        diameter = std::max(diameter, ecc);
      }
      comp.diameter = diameter;
      report.diameter_seconds += std::chrono::duration<double>(Clock::now() - t).count();
      return;
    }
  }
}

}  // namespace stategraph
