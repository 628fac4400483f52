// The whole-graph analyses (graph.hpp) against an independent brute force: a plain
// adjacency list built from for_each_successor over every rank, components by BFS
// (undirected rules) or Kosaraju (rotate), and BFS from every state of every component.
#include "stategraph/analysis/graph.hpp"

#include <gtest/gtest.h>
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <numeric>
#include <set>

#include "stategraph/analysis/analysis.hpp"
#include "stategraph/io/io.hpp"
#include "stategraph/io/tables.hpp"

namespace stategraph {
namespace {

struct Brute {
  std::vector<std::vector<std::uint64_t>> adj;      // successors by rank
  std::vector<std::uint64_t> comp;                  // component id per rank (ids by smallest rank)
  std::vector<std::vector<std::uint64_t>> members;  // ranks per component, ascending
  std::vector<int> ecc;                             // per rank, along successors within the component
};

Brute brute_force(const AnyRule& rule, bool eccentricities = true) {
  Brute b;
  std::visit(
      [&](const auto& r) {
        const std::uint64_t n = r.size();
        b.adj.resize(n);
        for (std::uint64_t k = 0; k < n; ++k)
          r.for_each_successor(r.unrank(k), [&](State t) { b.adj[k].push_back(r.rank(t)); });
      },
      rule);
  const std::uint64_t n = b.adj.size();
  std::vector<std::vector<std::uint64_t>> radj(n);
  for (std::uint64_t k = 0; k < n; ++k)
    for (auto t : b.adj[k]) radj[t].push_back(k);
  const std::uint64_t none = ~std::uint64_t{0};
  b.comp.assign(n, none);
  // Kosaraju: finishing order on adj, then components on the reverse graph. On an
  // undirected graph adj == radj and this is plain BFS-by-BFS component labelling.
  std::vector<std::uint64_t> order;
  std::vector<char> seen(n, 0);
  for (std::uint64_t s = 0; s < n; ++s) {
    if (seen[s]) continue;
    std::vector<std::pair<std::uint64_t, std::size_t>> stack{{s, 0}};
    seen[s] = 1;
    while (!stack.empty()) {
      auto& [v, i] = stack.back();
      if (i < b.adj[v].size()) {
        const auto w = b.adj[v][i++];
        if (!seen[w]) seen[w] = 1, stack.push_back({w, 0});
      } else {
        order.push_back(v);
        stack.pop_back();
      }
    }
  }
  std::vector<std::uint64_t> label(n, none);
  std::uint64_t labels = 0;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    if (label[*it] != none) continue;
    std::vector<std::uint64_t> q{*it};
    label[*it] = labels;
    for (std::size_t i = 0; i < q.size(); ++i)
      for (auto w : radj[q[i]])
        if (label[w] == none) label[w] = labels, q.push_back(w);
    ++labels;
  }
  // Renumber by smallest rank.
  std::map<std::uint64_t, std::uint64_t> renumber;
  for (std::uint64_t k = 0; k < n; ++k)
    if (!renumber.count(label[k])) renumber.emplace(label[k], renumber.size());
  b.members.resize(renumber.size());
  for (std::uint64_t k = 0; k < n; ++k) b.comp[k] = renumber[label[k]], b.members[b.comp[k]].push_back(k);
  if (!eccentricities) return b;
  b.ecc.assign(n, 0);
  // BFS from every state; distance arrays reused per thread and reset by the queue.
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n, 64), [&](const auto& range) {
    std::vector<std::uint64_t> dist(n, none), q;
    for (std::uint64_t s = range.begin(); s != range.end(); ++s) {
      q.assign(1, s);
      dist[s] = 0;
      for (std::size_t i = 0; i < q.size(); ++i)
        for (auto w : b.adj[q[i]])
          if (dist[w] == none) dist[w] = dist[q[i]] + 1, q.push_back(w);
      int e = 0;
      bool reached_all = true;
      for (auto w : b.members[b.comp[s]]) {
        reached_all = reached_all && dist[w] != none;
        e = std::max(e, static_cast<int>(dist[w]));
      }
      EXPECT_TRUE(reached_all) << "strong component not strongly connected";
      b.ecc[s] = e;
      for (auto w : q) dist[w] = none;
    }
  });
  return b;
}

std::string label(const AnyRule& rule) { return std::string(rule_name(rule)) + " " + rule_grid(rule).label(); }

// The all-pairs brute force is the slow part of this suite: computed once per rule.
const Brute& cached_brute(const AnyRule& rule) {
  static std::map<std::string, Brute> cache;
  std::string key = label(rule);
  if (const auto* c = std::get_if<CardSwap>(&rule)) key += " " + c->format(c->start());
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, brute_force(rule)).first;
  return it->second;
}

std::vector<AnyRule> brute_rules() {
  std::vector<AnyRule> out;
  for (auto [r, c] : std::vector<std::pair<int, int>>{{2, 2}, {2, 3}, {3, 2}}) {
    out.push_back(make_rule("sliding", r, c));
    out.push_back(make_rule("rotate", r, c));
    out.push_back(make_rule("primeswap", r, c));
    out.push_back(make_rule("adjswap", r, c));
  }
  out.push_back(make_rule("sliding", 2, 4));
  out.push_back(make_rule("primeswap", 2, 4));
  out.push_back(make_rule("cardswap", 2, 3, RuleOptions{"* A/**B"}));
  out.push_back(make_rule("cardswap", 3, 2, RuleOptions{"A*/* /*B"}));
  out.push_back(make_rule("cardswap", 2, 4, RuleOptions{"A***/ **B"}));
  out.push_back(make_rule("cardswap", 3, 3, RuleOptions{"A**/* */**B"}));
  return out;
}

void expect_matches(const AnyRule& rule, const Brute& b, const GraphReport& g, const std::string& what) {
  if (std::holds_alternative<Sliding>(rule)) {
    // The whole space: the other parity class's components follow, images of the first's.
    const std::size_t k = b.members.size();
    ASSERT_EQ(g.components.size(), 2 * k) << what;
    for (std::size_t i = 0; i < k; ++i) {
      const ComponentInfo& o = g.components[k + i];
      EXPECT_TRUE(o.other_class) << what;
      EXPECT_EQ(o.mirror_of, static_cast<std::int64_t>(i)) << what;
      EXPECT_EQ(o.size, g.components[i].size) << what;
      EXPECT_EQ(o.diameter, g.components[i].diameter) << what;
    }
  } else {
    ASSERT_EQ(g.components.size(), b.members.size()) << what;
  }
  int diameter = 0;
  std::uint64_t goal_part = 0;
  std::set<std::uint64_t> goal_ranks;
  std::visit(
      [&](const auto& r) {
        for (State s : r.goals()) goal_ranks.insert(r.rank(s));
      },
      rule);
  for (std::size_t i = 0; i < b.members.size(); ++i) {
    const auto& m = b.members[i];
    const ComponentInfo& c = g.components[i];
    EXPECT_EQ(c.size, m.size()) << what << " component " << i;
    EXPECT_EQ(c.representative, m.front()) << what << " component " << i;
    EXPECT_EQ(c.eccentricity_of_representative, b.ecc[m.front()]) << what << " component " << i;
    int d = 0;
    bool goal = false;
    for (auto k : m) d = std::max(d, b.ecc[k]), goal = goal || goal_ranks.count(k);
    EXPECT_EQ(c.diameter, d) << what << " component " << i;
    EXPECT_EQ(c.diameter_lower, d) << what << " component " << i;
    EXPECT_EQ(c.diameter_upper, d) << what << " component " << i;
    EXPECT_EQ(c.has_goal, goal) << what << " component " << i;
    diameter = std::max(diameter, d);
    if (goal) goal_part += m.size();
  }
  EXPECT_EQ(g.diameter, diameter) << what;
  EXPECT_EQ(g.goal_component_size, goal_part) << what;
}

TEST(Graph, ComponentsAndDiametersMatchBruteForce) {
  for (const AnyRule& rule : brute_rules()) {
    const Brute& b = cached_brute(rule);
    expect_matches(rule, b, analyze_graph(rule), label(rule) + " auto");
    const BfsResult from_goal = find_variant("serial").run(rule, BfsOptions{});
    GraphOptions with_goal;
    with_goal.goal_bfs = &from_goal;  // may skip the component search (one component)
    expect_matches(rule, b, analyze_graph(rule, with_goal), label(rule) + " with goal BFS");
    // Without shortcuts (BoundingDiameters on sliding 2x4 takes ~11,000 BFS runs: skipped;
    // the shortcut is checked on it above and state by state below).
    if (std::holds_alternative<Sliding>(rule) && rule_size(rule) > 5040) continue;
    GraphOptions exact;
    exact.method = DiameterMethod::kExact;
    expect_matches(rule, b, analyze_graph(rule, exact), label(rule) + " exact");
    GraphOptions multi = exact;
    multi.engine = DiameterEngine::kMultiSource;
    expect_matches(rule, b, analyze_graph(rule, multi), label(rule) + " exact, 64 sources per BFS");
    GraphOptions single = exact;
    single.engine = DiameterEngine::kSingleSource;
    expect_matches(rule, b, analyze_graph(rule, single), label(rule) + " exact, one source per BFS");
    if (rule_size(rule) > 1000) continue;  // bigger components already took BoundingDiameters above
    exact.all_sources_limit = 0;           // BoundingDiameters on every undirected component
    expect_matches(rule, b, analyze_graph(rule, exact), label(rule) + " bounding");
  }
}

// ---- Bounds past the exact limit, budgets, witnesses, orbits. ----

// Distances from rank s in the brute-force graph (-1: another component).
std::vector<int> brute_dist(const Brute& b, std::uint64_t s) {
  std::vector<int> d(b.adj.size(), -1);
  std::vector<std::uint64_t> q{s};
  d[s] = 0;
  for (std::size_t i = 0; i < q.size(); ++i)
    for (auto w : b.adj[q[i]])
      if (d[w] < 0) d[w] = d[q[i]] + 1, q.push_back(w);
  return d;
}

// Every component's bounds bracket the brute-force diameter (equal unless a budget
// stopped the search), and every witness re-checks by BFS: the lower pair is at the
// stated distance, each source has the stated eccentricity, and the upper bound is at
// least the sources' bound max_w min_s ecc(s) + d(s, w) or the pair bound
// max_{x,y} min_s d(s, x) + d(s, y) (recomputed here over all pairs).
void expect_valid_bounds(const Brute& b, const GraphReport& g, const std::string& what, bool budgeted) {
  ASSERT_EQ(g.components.size(), b.members.size()) << what;
  for (std::size_t i = 0; i < b.members.size(); ++i) {
    const auto& m = b.members[i];
    const ComponentInfo& c = g.components[i];
    int d = 0;
    for (auto k : m) d = std::max(d, b.ecc[k]);
    EXPECT_LE(c.diameter_lower, d) << what << " component " << i;
    EXPECT_GE(c.diameter_upper, d) << what << " component " << i;
    if (!budgeted) EXPECT_EQ(c.diameter_lower, c.diameter_upper) << what << " component " << i;
    if (c.diameter >= 0) EXPECT_EQ(c.diameter, d) << what << " component " << i;
    if (c.mirror_of >= 0) {
      const ComponentInfo& o = g.components[static_cast<std::size_t>(c.mirror_of)];
      EXPECT_EQ(o.size, c.size) << what << " component " << i;
      EXPECT_EQ(o.diameter_upper, c.diameter_upper) << what << " component " << i;
    }
  }
  for (const DiameterWitness& w : g.witnesses) {
    const auto& m = b.members.at(w.component);
    const ComponentInfo& c = g.components[w.component];
    EXPECT_EQ(w.lower, c.diameter_lower) << what << " witness " << w.component;
    EXPECT_EQ(w.upper, c.diameter_upper) << what << " witness " << w.component;
    EXPECT_EQ(brute_dist(b, w.lower_a)[w.lower_b], w.lower) << what << " witness " << w.component;
    std::vector<int> bd(b.adj.size(), std::numeric_limits<int>::max());
    for (const auto& [src, e] : w.sources) {
      EXPECT_EQ(b.ecc[src], e) << what << " witness " << w.component;
      const auto ds = brute_dist(b, src);
      for (auto k : m) bd[k] = std::min(bd[k], e + ds[k]);
    }
    // The sources' images under automorphisms keeping the component: other states of it,
    // with their source's eccentricity, bounding like sources.
    std::set<std::uint64_t> run;
    for (const auto& se : w.sources) run.insert(se.first);
    for (const auto& im : w.images) {
      EXPECT_EQ(b.ecc[im.state], im.eccentricity) << what << " witness " << w.component;
      EXPECT_EQ(b.ecc[im.of], im.eccentricity) << what << " witness " << w.component;
      EXPECT_NE(im.state, im.of) << what << " witness " << w.component;
      EXPECT_TRUE(run.count(im.of)) << what << " witness " << w.component;
      EXPECT_TRUE(std::binary_search(m.begin(), m.end(), im.state)) << what << " witness " << w.component;
      const auto ds = brute_dist(b, im.state);
      for (auto k : m) bd[k] = std::min(bd[k], im.eccentricity + ds[k]);
    }
    if (!w.sources.empty()) EXPECT_EQ(w.images.size(), c.image_sources) << what << " witness " << w.component;
    int sources_bound = 0;
    for (auto k : m) sources_bound = std::max(sources_bound, bd[k]);
    int pair_bound = std::numeric_limits<int>::max();
    if (w.pair_upper > 0) {
      std::vector<std::vector<int>> ds;
      for (auto src : w.pair_sources) ds.push_back(brute_dist(b, src));
      pair_bound = 0;
      for (auto x : m)
        for (auto y : m) {
          int p = std::numeric_limits<int>::max();
          for (const auto& dv : ds) p = std::min(p, dv[x] + dv[y]);
          pair_bound = std::max(pair_bound, p);
        }
      EXPECT_EQ(pair_bound, w.pair_upper) << what << " witness " << w.component;
    }
    if (!w.sources.empty())
      EXPECT_LE(std::min(sources_bound, pair_bound), w.upper) << what << " witness " << w.component;
  }
}

std::vector<AnyRule> bounded_rules() {
  return {make_rule("primeswap", 2, 3), make_rule("primeswap", 3, 2), make_rule("primeswap", 2, 4),
          make_rule("adjswap", 2, 3), make_rule("cardswap", 3, 3, RuleOptions{"A**/* */**B"})};
}

// Every component above the exact limit of 1 state takes the masked search (bitset BFS
// restricted to it, pair bound); with and without the automorphisms.
TEST(GraphBounds, MaskedSearchMatchesBruteForce) {
  for (const AnyRule& rule : bounded_rules()) {
    const Brute& b = cached_brute(rule);
    for (bool symmetry : {true, false}) {
      GraphOptions o;
      o.method = DiameterMethod::kExact;
      o.exact_limit = 1;
      o.symmetry = symmetry;
      o.witness_min_size = 0;
      const GraphReport g = analyze_graph(rule, o);
      const std::string what = label(rule) + (symmetry ? " masked" : " masked, no symmetry");
      expect_matches(rule, b, g, what);
      expect_valid_bounds(b, g, what, false);
      for (const auto& c : g.components)
        if (c.size > 1)
          EXPECT_TRUE(c.method == ComponentMethod::kBoundingMasked || c.method == ComponentMethod::kMirror) << what;
      if (!symmetry) EXPECT_EQ(g.mirrored_components, 0u) << what;
    }
  }
}

// Symmetry images as sources: with the automorphisms that map a component onto itself,
// all-sources runs one BFS per orbit and BoundingDiameters (explicit adjacency list,
// either engine; masked bitset BFS) counts each BFS for its source's images. The
// diameters still equal the brute-force all-pairs ones, every image's eccentricity
// re-checks, and runs plus images never exceed the component (equal for all-sources).
TEST(GraphBounds, SourceImagesMatchBruteForce) {
  std::uint64_t images_all = 0, images_bounding = 0, images_masked = 0;
  for (const AnyRule& rule : bounded_rules()) {
    const Brute& b = cached_brute(rule);
    auto check = [&](const GraphOptions& o, const std::string& what, std::uint64_t& images) {
      const GraphReport g = analyze_graph(rule, o);
      expect_matches(rule, b, g, what);
      if (o.all_sources_limit == 0 || o.exact_limit == 1) expect_valid_bounds(b, g, what, false);
      std::uint64_t sum = 0;
      for (const auto& c : g.components) {
        sum += c.image_sources;
        EXPECT_LE(c.bfs_runs + c.image_sources, c.size) << what;
        if (c.method == ComponentMethod::kAllSources) EXPECT_EQ(c.bfs_runs + c.image_sources, c.size) << what;
        if (c.method == ComponentMethod::kMirror) EXPECT_EQ(c.image_sources, 0u) << what;
      }
      EXPECT_EQ(sum, g.diameter_image_sources) << what;
      images += sum;
    };
    GraphOptions all;
    all.method = DiameterMethod::kExact;
    all.all_sources_limit = ~std::uint64_t{0};
    check(all, label(rule) + " all sources, images", images_all);
    for (DiameterEngine e : {DiameterEngine::kSingleSource, DiameterEngine::kMultiSource}) {
      GraphOptions bounding;
      bounding.method = DiameterMethod::kExact;
      bounding.all_sources_limit = 0;
      bounding.engine = e;
      bounding.witness_min_size = 0;
      check(bounding, label(rule) + " bounding, images, engine " + std::to_string(static_cast<int>(e)),
            images_bounding);
    }
    GraphOptions masked;
    masked.method = DiameterMethod::kExact;
    masked.exact_limit = 1;
    masked.witness_min_size = 0;
    check(masked, label(rule) + " masked, images", images_masked);
    GraphOptions none = masked;
    none.symmetry = false;
    const GraphReport g = analyze_graph(rule, none);
    EXPECT_EQ(g.diameter_image_sources, 0u) << label(rule);
  }
  // primeswap 2x4 has components that automorphisms map onto themselves.
  EXPECT_GT(images_all, 0u);
  EXPECT_GT(images_bounding, 0u);
  EXPECT_GT(images_masked, 0u);
}

// The 64-source bit-parallel BFS over a masked component gives every source's
// eccentricity as one masked BFS per source and the brute-force graph do (70 sources:
// a full pass of 64 and one of 6; sources spread over each component).
TEST(GraphBounds, MaskedMultiSourceEccentricities) {
  for (const AnyRule& rule : bounded_rules()) {
    const Brute& b = cached_brute(rule);
    ComponentOptions co;
    co.collect_limit = 1;
    std::size_t masks = 0;
    co.on_large_component = [&](std::size_t, ComponentInfo& info, Bitset&& mask) {
      std::vector<std::uint64_t> sources;
      const std::uint64_t step = std::max<std::uint64_t>(1, info.size / 70);
      std::uint64_t seen = 0;
      for (std::uint64_t r = 0; r < mask.size() && sources.size() < 70; ++r)
        if (mask.test(r) && seen++ % step == 0) sources.push_back(r);
      const std::vector<int> multi = masked_eccentricities(rule, mask, sources, true);
      const std::vector<int> single = masked_eccentricities(rule, mask, sources, false);
      ASSERT_EQ(multi.size(), sources.size());
      ASSERT_EQ(single.size(), sources.size());
      for (std::size_t i = 0; i < sources.size(); ++i) {
        EXPECT_EQ(multi[i], b.ecc[sources[i]]) << label(rule) << " source " << sources[i];
        EXPECT_EQ(single[i], b.ecc[sources[i]]) << label(rule) << " source " << sources[i];
      }
      ++masks;
    };
    find_components(rule, co);
    EXPECT_GT(masks, 0u) << label(rule);
  }
}

// Budgets in runs stop the searches early; the bounds stay valid and the witnesses
// re-check (masked searches, and the explicit adjacency lists' BoundingDiameters).
TEST(GraphBounds, BudgetStoppedBoundsAreValid) {
  for (const AnyRule& rule : bounded_rules()) {
    const Brute& b = cached_brute(rule);
    for (std::uint64_t runs : {1u, 2u, 3u}) {
      GraphOptions masked;
      masked.method = DiameterMethod::kExact;
      masked.exact_limit = 1;
      masked.budget_runs = runs;
      masked.witness_min_size = 0;
      expect_valid_bounds(b, analyze_graph(rule, masked), label(rule) + " masked, budget " + std::to_string(runs),
                          true);
      GraphOptions csr;
      csr.method = DiameterMethod::kExact;
      csr.all_sources_limit = 0;
      csr.budget_runs_small = runs;
      csr.witness_min_size = 0;
      csr.symmetry = false;
      const GraphReport g = analyze_graph(rule, csr);
      expect_valid_bounds(b, g, label(rule) + " adjacency list, budget " + std::to_string(runs), true);
      for (const auto& c : g.components) EXPECT_LE(c.bfs_runs, runs) << label(rule);
    }
  }
}

// The sources a bounding search picks, hence its bounds, witnesses and run counts, do not
// depend on the thread count (primeswap 3x3: masked giants with a budget, and the
// explicit adjacency lists' BoundingDiameters with one).
TEST(GraphBounds, SameResultsOnOneAndTwoThreads) {
  const AnyRule rule = make_rule("primeswap", 3, 3);
  auto run = [&](int threads, bool masked) {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
    GraphOptions o;
    if (masked)
      o.exact_limit = 1000, o.budget_runs = 6;
    else
      o.budget_runs_small = 20;
    return analyze_graph(rule, o);
  };
  for (bool masked : {true, false}) {
    const GraphReport a = run(1, masked), b = run(2, masked);
    ASSERT_EQ(a.components.size(), b.components.size());
    for (std::size_t i = 0; i < a.components.size(); ++i) {
      EXPECT_EQ(a.components[i].diameter_lower, b.components[i].diameter_lower) << i;
      EXPECT_EQ(a.components[i].diameter_upper, b.components[i].diameter_upper) << i;
      EXPECT_EQ(a.components[i].bfs_runs, b.components[i].bfs_runs) << i;
      EXPECT_EQ(a.components[i].method, b.components[i].method) << i;
    }
    ASSERT_EQ(a.witnesses.size(), b.witnesses.size());
    for (std::size_t i = 0; i < a.witnesses.size(); ++i) {
      EXPECT_EQ(a.witnesses[i].sources, b.witnesses[i].sources);
      EXPECT_EQ(a.witnesses[i].pair_sources, b.witnesses[i].pair_sources);
    }
    EXPECT_EQ(a.diameter_bfs_runs, b.diameter_bfs_runs);
    // primeswap 3x3's two giants (diameter 98, the all-sources figure of the test below)
    EXPECT_LE(a.diameter_lower, 98);
    EXPECT_GE(a.diameter_upper, 98);
    if (masked) EXPECT_TRUE(a.budget_stopped);
  }
}

// A memory limit below the labelling's bitsets stops the analysis before it allocates.
TEST(GraphBounds, MemoryLimitIsCheckedBeforeAllocating) {
  GraphOptions o;
  o.memory_limit = 1000;
  EXPECT_THROW(analyze_graph(make_rule("primeswap", 3, 3), o), InputError);
  o.memory_limit = std::uint64_t{1} << 30;
  EXPECT_EQ(analyze_graph(make_rule("primeswap", 2, 3), o).components.size(),
            analyze_graph(make_rule("primeswap", 2, 3)).components.size());
}

// rotate: weak components (both directions), forward-reachability components and
// forward-backward strong components are the same partition (every move is a
// bijection, so every edge lies on a cycle), and match Kosaraju's.
TEST(Graph, RotateWeakEqualsStrong) {
  for (auto [r, c] : std::vector<std::pair<int, int>>{{2, 2}, {2, 3}, {3, 2}, {2, 4}}) {
    const AnyRule rule = make_rule("rotate", r, c);
    ComponentOptions weak, forward;
    weak.connectivity = Connectivity::kWeak;
    forward.connectivity = Connectivity::kForward;
    const auto w = find_components(rule, weak);
    const auto f = find_components(rule, forward);
    const auto s = strong_components(rule);
    const Brute b = brute_force(rule, false);
    ASSERT_EQ(w.size(), s.size()) << label(rule);
    ASSERT_EQ(f.size(), s.size()) << label(rule);
    ASSERT_EQ(b.members.size(), s.size()) << label(rule);
    for (std::size_t i = 0; i < s.size(); ++i) {
      EXPECT_EQ(w[i].representative, s[i].first) << label(rule);
      EXPECT_EQ(w[i].size, s[i].second) << label(rule);
      EXPECT_EQ(f[i].representative, s[i].first) << label(rule);
      EXPECT_EQ(f[i].size, s[i].second) << label(rule);
      EXPECT_EQ(b.members[i].front(), s[i].first) << label(rule);
      EXPECT_EQ(b.members[i].size(), s[i].second) << label(rule);
    }
  }
  // 2x2: one block, a 4-cycle of positions: 24 / 4 = 6 components of 4 states.
  const auto c22 = find_components(make_rule("rotate", 2, 2));
  ASSERT_EQ(c22.size(), 6u);
  for (const auto& c : c22) {
    EXPECT_EQ(c.size, 4u);
    EXPECT_EQ(c.eccentricity_of_representative, 3);
  }
}

// The facts the symmetry shortcuts rest on, checked on all states: rotate — every state
// of a component has the same eccentricity; sliding — a state's eccentricity depends only
// on the orbit of its blank cell under the grid's mirror symmetries.
TEST(Graph, SymmetryShortcutsHoldOnEveryState) {
  for (auto [r, c] : std::vector<std::pair<int, int>>{{2, 2}, {2, 3}, {3, 2}, {2, 4}}) {
    const AnyRule rot = make_rule("rotate", r, c);
    if (rule_size(rot) <= 720) {
      const Brute b = brute_force(rot);
      for (const auto& m : b.members)
        for (auto k : m) EXPECT_EQ(b.ecc[k], b.ecc[m.front()]) << label(rot);
    }
    const AnyRule sl = make_rule("sliding", r, c);
    const Brute& b = cached_brute(sl);
    const auto& s = std::get<Sliding>(sl);
    std::map<int, int> by_blank;
    for (std::uint64_t k = 0; k < s.size(); ++k) {
      const int blank = find_cell(s.unrank(k), s.cells(), 0);
      auto [it, fresh] = by_blank.emplace(blank, b.ecc[k]);
      EXPECT_EQ(it->second, b.ecc[k]) << label(sl) << " blank " << blank;
    }
    for (auto [blank, e] : by_blank) {
      const int br = blank / c, bc = blank % c;
      EXPECT_EQ(by_blank[br * c + (c - 1 - bc)], e) << label(sl);
      EXPECT_EQ(by_blank[(r - 1 - br) * c + bc], e) << label(sl);
      if (r == c) EXPECT_EQ(by_blank[bc * c + br], e) << label(sl);
    }
  }
}

// adjswap is a Cayley graph: the diameter is the goal's eccentricity (no extra BFS run),
// equal to the all-pairs brute force.
TEST(Graph, AdjSwapDiameterIsTheGoalsEccentricity) {
  for (auto [r, c] : std::vector<std::pair<int, int>>{{2, 2}, {2, 3}}) {
    const AnyRule rule = make_rule("adjswap", r, c);
    const Brute& b = cached_brute(rule);
    const int all_pairs = *std::max_element(b.ecc.begin(), b.ecc.end());
    const GraphReport report = analyze_graph(rule);
    EXPECT_EQ(report.diameter_method, "cayley") << label(rule);
    EXPECT_EQ(report.diameter_bfs_runs, 0u) << label(rule);
    ASSERT_EQ(report.components.size(), 1u) << label(rule);
    EXPECT_EQ(report.diameter, all_pairs) << label(rule);
  }
  EXPECT_EQ(analyze_graph(make_rule("adjswap", 2, 2)).diameter, 4);
}

// Known: the 8-puzzle's diameter is 31; from a state with the blank in the centre the
// eccentricity is 30 with 148 states at 30 (every such state: tile relabelling).
TEST(Graph, EightPuzzle) {
  const AnyRule rule = make_rule("sliding", 3, 3);
  const GraphReport g = analyze_graph(rule);
  ASSERT_EQ(g.components.size(), 2u);  // both parity classes of the 9! arrangements
  EXPECT_EQ(g.components[0].size, 181440u);
  EXPECT_EQ(g.components[1].size, 181440u);
  EXPECT_EQ(g.components[1].diameter, 31);
  // The second class's representative is in the other class: the CSV writes its image.
  const CsvTable t = components_table(rule, g, 10);
  ASSERT_EQ(t.rows().size(), 2u);
  EXPECT_FALSE(std::get<Sliding>(rule).in_space(std::get<Sliding>(rule).parse(t.rows()[1][2])));
  EXPECT_EQ(g.diameter, 31);
  EXPECT_EQ(g.diameter_method, "blank-orbits");
  EXPECT_LE(g.diameter_bfs_runs, 2u);  // three orbits, one measured by the component search
  const auto& s = std::get<Sliding>(rule);
  State centre = s.parse("1 2 3/4 _ 5/6 7 8");
  if (!s.in_space(centre)) centre = s.parse("2 1 3/4 _ 5/6 7 8");
  BfsOptions o;
  o.sources = {centre};
  const BfsResult r = find_variant("hybrid").run(rule, o);
  EXPECT_EQ(r.max_depth(), 30);
  EXPECT_EQ(r.layers.back(), 148u);
}

// BoundingDiameters against BFS from every state on the largest components of
// primeswap 2x4 and 3x3 (small enough for all sources).
TEST(Graph, BoundingMatchesAllSources) {
  for (auto [r, c] : std::vector<std::pair<int, int>>{{2, 4}, {3, 3}}) {
    const AnyRule rule = make_rule("primeswap", r, c);
    std::vector<std::vector<std::uint64_t>> comps;
    ComponentOptions co;
    co.collect_limit = 3000;
    co.on_component = [&](ComponentInfo& info, std::vector<std::uint64_t>& ranks) {
      if (info.size >= 20 && !ranks.empty()) comps.push_back(ranks);
    };
    find_components(rule, co);
    std::sort(comps.begin(), comps.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
    if (comps.size() > 6) comps.resize(6);
    ASSERT_FALSE(comps.empty());
    for (const auto& m : comps) {
      // Every pairing of {all sources, BoundingDiameters} x {one source per BFS, 64-source
      // bit-parallel BFS}: four independent computations of the same number.
      std::uint64_t runs_all = 0, runs_bound = 0, runs_all1 = 0, runs_bound1 = 0;
      const int all1 = exact_diameter(rule, m, ~std::uint64_t{0}, runs_all1, DiameterEngine::kSingleSource);
      const int all = exact_diameter(rule, m, ~std::uint64_t{0}, runs_all, DiameterEngine::kMultiSource);
      const int bound1 = exact_diameter(rule, m, 0, runs_bound1, DiameterEngine::kSingleSource);
      const int bound = exact_diameter(rule, m, 0, runs_bound, DiameterEngine::kMultiSource);
      EXPECT_EQ(all, all1) << label(rule) << " component of " << m.size();
      EXPECT_EQ(bound, all1) << label(rule) << " component of " << m.size();
      EXPECT_EQ(bound1, all1) << label(rule) << " component of " << m.size();
      EXPECT_EQ(runs_all, m.size());
      EXPECT_EQ(runs_all1, m.size());
      EXPECT_LE(runs_bound1, m.size());
    }
  }
}

TEST(Graph, PrimeSwap3x3) {
  const AnyRule rule = make_rule("primeswap", 3, 3);
  const GraphReport g = analyze_graph(rule);
  EXPECT_EQ(g.goal_component_size, 177872u);
  EXPECT_EQ(g.largest_component, 177872u);
  std::uint64_t total = 0;
  for (const auto& c : g.components) {
    total += c.size;
    EXPECT_GE(c.diameter, c.eccentricity_of_representative);
  }
  EXPECT_EQ(total, 362880u);
  EXPECT_GE(g.diameter, 68);  // at least the goal's eccentricity
  EXPECT_EQ(g.diameter_method, "exact");
  // The giants' diameter again by the masked search (bitset BFS, another source order,
  // the pair bound), without symmetry: the same number.
  GraphOptions masked;
  masked.exact_limit = 1000;
  masked.symmetry = false;
  const GraphReport m = analyze_graph(rule, masked);
  EXPECT_EQ(m.diameter, g.diameter);
  EXPECT_EQ(m.mirrored_components, 0u);
  std::uint64_t giants = 0;
  for (const auto& c : m.components) {
    if (c.size != 177872) continue;
    ++giants;
    EXPECT_EQ(c.method, ComponentMethod::kBoundingMasked);
  }
  EXPECT_EQ(giants, 2u);
  // Again with the automorphisms: the 8 that keep a giant make each BFS count for its
  // source's images too (fewer runs than without them), the other giant is its mirror.
  GraphOptions masked_images;
  masked_images.exact_limit = 1000;
  const GraphReport mi = analyze_graph(rule, masked_images);
  EXPECT_EQ(mi.diameter, g.diameter);
  for (std::size_t i = 0; i < mi.components.size(); ++i) {
    const ComponentInfo& c = mi.components[i];
    if (c.size != 177872 || c.method == ComponentMethod::kMirror) continue;
    EXPECT_EQ(c.method, ComponentMethod::kBoundingMasked);
    EXPECT_GT(c.image_sources, 0u);
    EXPECT_LT(c.bfs_runs, m.components[i].bfs_runs);
    EXPECT_GT(g.components[i].image_sources, 0u);  // the adjacency list's search too
  }
  // With the automorphisms, every component of an orbit but the first copies its bounds;
  // what is left takes far fewer BFS runs than the 4,572 of BFS from every small
  // component and BoundingDiameters on both giants.
  EXPECT_EQ(g.symmetries, 16u);
  EXPECT_LE(g.diameter_bfs_runs, 1000u);
}

// ---- The pure functions on hand-checkable cases. ----

BfsResult goal_bfs(const AnyRule& rule) {
  BfsOptions o;
  o.want_depths = true;
  return find_variant("serial").run(rule, o);
}

// sliding 2x2: the 12 states form one cycle; from the goal 2 states at each depth 1..5
// (one path each) and one at depth 6 reached both ways round (2 paths).
TEST(GraphPure, PathsOnTheTwelveCycle) {
  const AnyRule rule = make_rule("sliding", 2, 2);
  const BfsResult r = goal_bfs(rule);
  const auto p = path_counts(rule, r);
  ASSERT_EQ(p.size(), 7u);
  EXPECT_EQ(format_paths(p[0]), "1");
  for (int d = 1; d <= 5; ++d) EXPECT_EQ(format_paths(p[static_cast<std::size_t>(d)]), "2");
  EXPECT_EQ(format_paths(p[6]), "2");
  EXPECT_EQ(reached_edges(rule, r), 12u);
  EXPECT_DOUBLE_EQ(average_distance(r), (2.0 * (1 + 2 + 3 + 4 + 5) + 6) / 12);
  const auto a = antipodes(r, 100);
  ASSERT_EQ(a.size(), 1u);
  const auto table = antipodes_table(rule, a);
  EXPECT_EQ(table.rows()[0][1], std::get<Sliding>(rule).format(std::get<Sliding>(rule).unrank(a[0])));
  const auto dist = distribution_with_paths(r, p).str();
  EXPECT_EQ(dist.substr(0, dist.find('\n')), "depth,states,cumulative,fraction,paths");
}

// Shortest-path counts against a brute-force DP over the adjacency list.
TEST(GraphPure, PathsMatchBruteForce) {
  for (const AnyRule& rule : {make_rule("rotate", 2, 3), make_rule("primeswap", 2, 3), make_rule("sliding", 2, 4),
                              make_rule("cardswap", 2, 3, RuleOptions{"* A/**B"})}) {
    const BfsResult r = goal_bfs(rule);
    const Brute b = brute_force(rule, false);
    std::vector<Uint128> count(b.adj.size(), 0);
    std::vector<Uint128> per_depth(r.layers.size(), 0);
    for (std::size_t d = 0; d < r.layers.size(); ++d)
      for (std::uint64_t k = 0; k < b.adj.size(); ++k) {
        if (r.depth[k] != d) continue;
        if (d == 0) count[k] = 1;
        for (auto t : b.adj[k])
          if (d > 0 && r.depth[t] == d - 1) count[k] += count[t];
        per_depth[d] += count[k];
      }
    const auto p = path_counts(rule, r);
    for (std::size_t d = 0; d < p.size(); ++d) {
      EXPECT_FALSE(p[d].overflow);
      EXPECT_TRUE(p[d].paths == per_depth[d]) << label(rule) << " depth " << d;
    }
  }
}

TEST(GraphPure, AntipodeLimitAndCount) {
  const AnyRule rule = make_rule("rotate", 2, 3);
  const BfsResult r = goal_bfs(rule);
  const auto all = antipodes(r, ~std::uint64_t{0});
  EXPECT_EQ(all.size(), r.layers.back());
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
  const auto some = antipodes(r, 2);
  ASSERT_EQ(some.size(), std::min<std::size_t>(2, all.size()));
  for (std::size_t i = 0; i < some.size(); ++i) EXPECT_EQ(some[i], all[i]);
  for (auto k : all) EXPECT_EQ(r.depth[k], r.max_depth());
}

TEST(GraphPure, ComponentTablesTruncateToTheLargest) {
  const AnyRule rule = make_rule("primeswap", 2, 3);
  const GraphReport g = analyze_graph(rule);
  ASSERT_GT(g.components.size(), 3u);
  const CsvTable full = components_table(rule, g, 1000000);
  EXPECT_EQ(full.rows().size(), g.components.size());
  EXPECT_EQ(full.str().substr(0, full.str().find('\n')),
            "component,size,representative,eccentricity_of_representative,diameter,diameter_lower,"
            "diameter_upper,diameter_method,diameter_bfs_runs,mirror_of,diameter_image_sources");
  const CsvTable top = components_table(rule, g, 3);
  ASSERT_EQ(top.rows().size(), 3u);
  std::vector<std::uint64_t> sizes;
  for (const auto& c : g.components) sizes.push_back(c.size);
  std::sort(sizes.rbegin(), sizes.rend());
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(top.rows()[i][1], std::to_string(sizes[i]));
  const CsvTable hist = component_sizes_table(g);
  std::uint64_t comps = 0, states = 0;
  for (const auto& row : hist.rows()) comps += std::stoull(row[1]), states += std::stoull(row[0]) * std::stoull(row[1]);
  EXPECT_EQ(comps, g.components.size());
  EXPECT_EQ(states, 720u);
  // The representative is the smallest rank, written as a state.
  const auto& ps = std::get<PrimeSwap>(rule);
  EXPECT_EQ(full.rows()[0][2], ps.format(ps.unrank(0)));
}

// ---- The committed atlas (results/atlas/atlas.csv): its rows up to 8 cells, every rule at
// 2x2, 2x3 and 2x4 and cardswap's 2x3 seed, recomputed here without the graph code: the
// distribution by the reference BFS, components, diameters and edges by the brute force. ----

// Every rank's eccentricity along successors within its component, by BFS from 256 sources
// at once: a state's 256 bits say which sources reached it; a level ORs the predecessors'
// frontier bits. The same n^2 * degree work as one BFS per source, 64 sources per word op:
// the 40,320-state spaces in about a second where brute_force's queues take half a minute.
std::vector<int> bit_parallel_eccentricities(const Brute& b) {
  constexpr std::size_t kWords = 4;  // 256 sources per batch
  const std::size_t n = b.adj.size();
  std::vector<std::vector<std::uint32_t>> pred(n);
  for (std::size_t k = 0; k < n; ++k)
    for (auto t : b.adj[k]) pred[t].push_back(static_cast<std::uint32_t>(k));
  std::vector<int> ecc(n, 0);
  const std::size_t batches = (n + 64 * kWords - 1) / (64 * kWords);
  using Bits = std::array<std::uint64_t, kWords>;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, batches), [&](const auto& range) {
    std::vector<Bits> seen(n), frontier(n), next(n);
    for (std::size_t batch = range.begin(); batch != range.end(); ++batch) {
      std::fill(seen.begin(), seen.end(), Bits{});
      std::fill(frontier.begin(), frontier.end(), Bits{});
      const std::size_t first = batch * 64 * kWords, last = std::min(n, first + 64 * kWords);
      for (std::size_t s = first; s < last; ++s) {
        const std::size_t i = s - first;
        seen[s][i / 64] = frontier[s][i / 64] = std::uint64_t{1} << (i % 64);
      }
      for (int level = 1;; ++level) {
        Bits grew{};
        for (std::size_t v = 0; v < n; ++v) {
          Bits acc{};
          for (auto u : pred[v])
            for (std::size_t j = 0; j < kWords; ++j) acc[j] |= frontier[u][j];
          for (std::size_t j = 0; j < kWords; ++j) {
            next[v][j] = acc[j] & ~seen[v][j];
            seen[v][j] |= next[v][j];
            grew[j] |= next[v][j];
          }
        }
        if (std::all_of(grew.begin(), grew.end(), [](std::uint64_t x) { return x == 0; })) break;
        for (std::size_t i = 0; i < last - first; ++i)  // a source that reached a new state
          if (grew[i / 64] >> (i % 64) & 1) ecc[first + i] = level;
        std::swap(frontier, next);
      }
      // Within its component a source reaches exactly the component (strongly connected).
      for (std::size_t s = first; s < last; ++s) {
        const std::size_t i = s - first;
        for (auto w : b.members[b.comp[s]])
          EXPECT_TRUE(seen[w][i / 64] >> (i % 64) & 1) << "source " << s << " misses " << w;
      }
    }
  });
  return ecc;
}

TEST(Atlas, SmallRowsMatchTheReferenceAndBruteForce) {
  const CsvData atlas = read_csv_file(std::string(STATEGRAPH_SOURCE_DIR) + "/results/atlas/atlas.csv");
  auto col = [&](const std::vector<std::string>& row, const char* name) {
    return row[atlas.column(name, "atlas.csv")];
  };
  std::set<std::string> seen;
  for (const auto& row : atlas.rows) {
    const int rows = std::stoi(col(row, "rows")), cols = std::stoi(col(row, "cols"));
    if (rows * cols > 8) continue;
    const std::string name = col(row, "rule");
    const AnyRule rule = make_rule(name, rows, cols);
    const std::string what = name + " " + std::to_string(rows) + "x" + std::to_string(cols);
    seen.insert(what);
    const BfsResult ref = find_variant("reference").run(rule, BfsOptions{});
    const std::uint64_t reachable = std::accumulate(ref.layers.begin(), ref.layers.end(), std::uint64_t{0});
    double total = 0;
    for (std::size_t d = 0; d < ref.layers.size(); ++d) total += static_cast<double>(d * ref.layers[d]);
    EXPECT_EQ(col(row, "ranks"), std::to_string(rule_size(rule))) << what;
    EXPECT_EQ(col(row, "reachable"), std::to_string(reachable)) << what;
    EXPECT_EQ(col(row, "goal_eccentricity"), std::to_string(ref.max_depth())) << what;
    EXPECT_EQ(col(row, "antipodes"), std::to_string(ref.layers.back())) << what;
    EXPECT_NEAR(std::stod(col(row, "average_distance")), total / static_cast<double>(reachable), 1e-8) << what;

    const Brute b = brute_force(rule, rows * cols <= 6);  // with a queue BFS per source on 2x3
    const std::vector<int> ecc = bit_parallel_eccentricities(b);
    if (rows * cols <= 6) EXPECT_EQ(ecc, b.ecc) << what << ": the two brute forces differ";
    std::set<std::uint64_t> goal_components;
    std::visit(
        [&](const auto& r) {
          for (State g : r.goals()) goal_components.insert(b.comp[r.rank(g)]);
        },
        rule);
    std::uint64_t largest = 0;
    int diameter = 0;
    for (const auto& m : b.members) largest = std::max<std::uint64_t>(largest, m.size());
    for (int e : ecc) diameter = std::max(diameter, e);
    // Sliding searches one parity class; the other's components are its mirror images.
    const std::uint64_t components = b.members.size() * (std::holds_alternative<Sliding>(rule) ? 2 : 1);
    // Moves inside the goal's component: edges of an undirected graph, arcs of a directed one.
    std::set<std::pair<std::uint64_t, std::uint64_t>> arcs;
    for (std::uint64_t c : goal_components)
      for (std::uint64_t k : b.members[c])
        for (std::uint64_t t : b.adj[k]) arcs.emplace(k, t);
    const bool undirected = std::all_of(arcs.begin(), arcs.end(), [&](auto a) {
      return arcs.count({a.second, a.first});
    });
    EXPECT_EQ(col(row, "components"), std::to_string(components)) << what;
    EXPECT_EQ(col(row, "largest_component"), std::to_string(largest)) << what;
    EXPECT_EQ(col(row, "diameter"), std::to_string(diameter)) << what;
    EXPECT_EQ(col(row, "diameter_lower"), std::to_string(diameter)) << what;
    EXPECT_EQ(col(row, "diameter_upper"), std::to_string(diameter)) << what;
    EXPECT_EQ(col(row, "edges"), std::to_string(undirected ? arcs.size() / 2 : arcs.size())) << what;
  }
  // The sample is every rule at 2x3 and 2x4, and cardswap's seed: none may go missing.
  for (const char* rule : {"sliding", "rotate", "rotate-both", "primeswap", "adjswap"})
    for (const char* grid : {" 2x3", " 2x4"}) EXPECT_TRUE(seen.count(rule + std::string(grid))) << rule << grid;
  EXPECT_TRUE(seen.count("cardswap 2x3"));
}

}  // namespace
}  // namespace stategraph
