// A BFS from a --start on every rule (search_from): each variant's depth of every rank
// against a plain BFS over states from the start written in this file, a start equal to
// the goal against no start, the sliding start of the other parity class, and the graph
// analysis (components do not depend on the start; the goal component is the start's).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "defs_common.hpp"
#include "stategraph/analysis/analysis.hpp"
#include "stategraph/analysis/graph.hpp"
#include "stategraph/bfs/bfs.hpp"

namespace stategraph {
namespace {

std::string label(const AnyRule& rule) { return std::string(rule_name(rule)) + " " + rule_grid(rule).label(); }

std::string format_state(const AnyRule& rule, State s) {
  return std::visit([&](const auto& r) { return r.format(s); }, rule);
}

// Distances to `start` by a BFS over states (no ranks): a state's distance is the number
// of moves from it to the start, so the search walks predecessors.
std::unordered_map<State, int> distances_to(const AnyRule& rule, State start) {
  std::unordered_map<State, int> dist{{start, 0}};
  std::deque<State> queue{start};
  while (!queue.empty()) {
    const State s = queue.front();
    queue.pop_front();
    const int d = dist[s];
    std::visit(
        [&](const auto& r) {
          r.for_each_predecessor(s, [&](State p) {
            if (dist.emplace(p, d + 1).second) queue.push_back(p);
          });
        },
        rule);
  }
  return dist;
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path) << text;
  return path;
}

// Small grids of every rule, with a name and options that make_rule takes again.
struct Case {
  std::string name;
  int rows, cols;
  RuleOptions options;
};

std::vector<Case> cases() {
  RuleOptions both;
  both.directions = "both";
  const std::string multiset = "file:" + write_file("stategraph_start_multiset.def", defs_test::kMultiset);
  const std::string rotate_def =
      "file:" + write_file("stategraph_start_rotate.def", defs_test::definition_of(Rotate(Grid(2, 3), false)));
  return {{"sliding", 2, 2, {}},  {"sliding", 2, 3, {}},   {"sliding", 3, 2, {}}, {"rotate", 2, 3, {}},
          {"rotate", 2, 3, both}, {"primeswap", 2, 3, {}}, {"adjswap", 2, 3, {}}, {"adjswap", 2, 2, {}},
          {multiset, 2, 4, {}},   {rotate_def, 2, 3, {}}};
}

AnyRule with_start(const Case& c, const std::string& start) {
  RuleOptions o = c.options;
  o.start = start;
  return make_rule(c.name, c.rows, c.cols, o);
}

// Starts spread over the ranks of the rule without a start, and for sliding the same
// states with tiles 1 and 2 exchanged (the other parity class).
std::vector<State> starts_of(const AnyRule& plain) {
  std::vector<State> out;
  const std::uint64_t n = rule_size(plain);
  std::visit(
      [&](const auto& r) {
        for (std::uint64_t k : {std::uint64_t{1}, n / 3, n - 1}) {
          const State s = r.unrank(k);
          out.push_back(s);
          if (rule_name(plain) == "sliding") {
            const int a = find_cell(s, r.cells(), 1), b = find_cell(s, r.cells(), 2);
            out.push_back(set_cell(set_cell(s, a, 2), b, 1));
          }
        }
      },
      plain);
  return out;
}

TEST(Start, EveryVariantMatchesABfsOverStates) {
  for (const Case& c : cases()) {
    const AnyRule plain = make_rule(c.name, c.rows, c.cols, c.options);
    for (const State s : starts_of(plain)) {
      const std::string text = format_state(plain, s);
      const AnyRule rule = with_start(c, text);
      const std::string what = label(rule) + " from " + text;
      ASSERT_TRUE(rule_search_start(rule).has_value()) << what;
      ASSERT_EQ(*rule_search_start(rule), s) << what;
      ASSERT_EQ(rule_size(rule), rule_size(plain)) << what;
      const auto ref = distances_to(rule, s);
      int ecc = 0;
      for (const auto& [t, d] : ref) ecc = std::max(ecc, d);
      std::uint64_t at_ecc = 0;
      for (const auto& [t, d] : ref) at_ecc += d == ecc;
      for (const VariantInfo& v : variant_table()) {
        if (v.on_disk) continue;  // no depth table; disk_test.cpp runs it from a --start
        BfsOptions o;
        o.want_depths = true;
        const BfsResult got = v.run(rule, o);
        ASSERT_EQ(got.reached(), ref.size()) << what << " " << v.name;
        std::visit(
            [&](const auto& r) {
              for (std::uint64_t k = 0; k < r.size(); ++k) {
                const State t = r.unrank(k);
                ASSERT_EQ(r.rank(t), k) << what;
                const auto it = ref.find(t);
                const int want = it == ref.end() ? kUnreached : it->second;
                ASSERT_EQ(static_cast<int>(got.depth[k]), want) << what << " " << v.name << " at " << r.format(t);
              }
            },
            rule);
        EXPECT_EQ(verify_bfs(rule, got), "") << what << " " << v.name;
        const Summary sum = summarize(rule, got, std::string(v.name), 1);
        EXPECT_EQ(sum.max_depth, ecc) << what << " " << v.name;  // the start's eccentricity
        EXPECT_EQ(sum.antipodes, at_ecc) << what << " " << v.name;
        EXPECT_EQ(antipodes(got, 1000).size(), at_ecc) << what;
        if (v.name != "hybrid") continue;
        // Shortest paths to the start, per depth, counted over states in depth order.
        std::vector<std::pair<int, State>> order;
        for (const auto& [t, d] : ref) order.emplace_back(d, t);
        std::sort(order.begin(), order.end());
        std::unordered_map<State, std::uint64_t> paths;
        std::vector<std::uint64_t> per_depth(static_cast<std::size_t>(ecc) + 1);
        for (const auto& [d, t] : order) {
          std::uint64_t p = d == 0 ? 1 : 0;
          std::visit(
              [&](const auto& r) {
                r.for_each_successor(t, [&](State u) {
                  if (const auto it = ref.find(u); it != ref.end() && it->second == d - 1) p += paths[u];
                });
              },
              rule);
          paths[t] = p;
          per_depth[static_cast<std::size_t>(d)] += p;
        }
        const std::vector<PathCount> counted = path_counts(rule, got);
        ASSERT_EQ(counted.size(), per_depth.size()) << what;
        for (std::size_t d = 0; d < per_depth.size(); ++d)
          EXPECT_TRUE(counted[d].paths == per_depth[d] && !counted[d].overflow) << what << " paths at depth " << d;
      }
    }
  }
}

TEST(Start, TheGoalAsStartChangesNothing) {
  for (const Case& c : cases()) {
    const AnyRule plain = make_rule(c.name, c.rows, c.cols, c.options);
    const State goal = std::visit([](const auto& r) { return r.goals().front(); }, plain);
    const AnyRule rule = with_start(c, format_state(plain, goal));
    EXPECT_TRUE(rule_searches_from_goal(rule)) << label(rule);
    BfsOptions o;
    o.want_depths = true;
    const BfsResult a = find_variant("hybrid").run(plain, o), b = find_variant("hybrid").run(rule, o);
    EXPECT_EQ(a.layers, b.layers) << label(rule);
    EXPECT_EQ(a.depth, b.depth) << label(rule);
    const std::vector<PathCount> pa = path_counts(plain, a), pb = path_counts(rule, b);
    ASSERT_EQ(pa.size(), pb.size()) << label(rule);
    for (std::size_t d = 0; d < pa.size(); ++d) EXPECT_TRUE(pa[d].paths == pb[d].paths) << label(rule) << " " << d;
  }
}

// Components and diameters do not depend on the start (for sliding, the two classes
// trade places); the goal component is the one holding the start, whose size a BFS
// over states gives (every component here is strongly connected, graph.cpp).
TEST(Start, GraphAnalysisMarksTheStartsComponent) {
  for (const Case& c : cases()) {
    const AnyRule plain = make_rule(c.name, c.rows, c.cols, c.options);
    const GraphReport base = analyze_graph(plain);
    for (const State s : starts_of(plain)) {
      const AnyRule rule = with_start(c, format_state(plain, s));
      const std::string what = label(rule) + " from " + format_state(rule, s);
      EXPECT_EQ(rule_searches_from_goal(rule), s == std::visit([](const auto& r) { return r.goals().front(); }, plain))
          << what;
      const GraphReport g = analyze_graph(rule);
      ASSERT_EQ(g.components.size(), base.components.size()) << what;
      std::vector<std::uint64_t> sizes_a, sizes_b;
      for (const auto& x : base.components) sizes_a.push_back(x.size);
      for (const auto& x : g.components) sizes_b.push_back(x.size);
      std::sort(sizes_a.begin(), sizes_a.end());
      std::sort(sizes_b.begin(), sizes_b.end());
      EXPECT_EQ(sizes_a, sizes_b) << what;
      EXPECT_EQ(g.diameter, base.diameter) << what;
      EXPECT_EQ(g.goal_component_size, distances_to(rule, s).size()) << what;
    }
  }
}

// The other parity class, ranked: every rank is a state of the start's class, rank and
// unrank are inverse, and the incremental neighbour ranks are those of rank().
TEST(Start, SlidingRanksTheStartsClass) {
  for (auto [rows, cols] : {std::pair{2, 3}, std::pair{3, 2}, std::pair{3, 3}}) {
    const AnyRule plain = make_rule("sliding", rows, cols);
    const Sliding& goal_class = std::get<Sliding>(plain);
    State swapped = goal_class.goals().front();
    swapped = set_cell(set_cell(swapped, 0, 2), 1, 1);
    ASSERT_FALSE(goal_class.in_space(swapped));
    const AnyRule rule = make_rule("sliding", rows, cols, RuleOptions{.start = goal_class.format(swapped)});
    const Sliding& other = std::get<Sliding>(rule);
    ASSERT_TRUE(other.in_space(swapped));
    for (std::uint64_t k = 0; k < other.size(); ++k) {
      const State s = other.unrank(k);
      ASSERT_TRUE(other.in_space(s) && !goal_class.in_space(s)) << k;
      ASSERT_EQ(other.rank(s), k);
      std::vector<std::uint64_t> a, b;
      other.for_each_successor(s, [&](State t) { a.push_back(other.rank(t)); });
      other.for_each_neighbour_rank(s, k, [&](std::uint64_t r) { b.push_back(r); });
      ASSERT_EQ(a, b) << other.format(s);
    }
  }
}

TEST(Start, BadStartsAreInputErrors) {
  for (const char* bad : {"1 2 3/4 5", "1 2 3/4 5 5", "1 2 3/4 5 x", "1 2 3/4 5 6 7", "0 1 2/3 4 5 6"})
    for (const char* rule : {"sliding", "rotate", "primeswap", "adjswap"})
      EXPECT_THROW(make_rule(rule, 2, 3, RuleOptions{.start = bad}), InputError) << rule << " " << bad;
  const std::string multiset = "file:" + write_file("stategraph_start_multiset.def", defs_test::kMultiset);
  EXPECT_THROW(make_rule(multiset, 2, 4, RuleOptions{.start = "1 1 2 2/3 3 4 5"}), InputError);
  EXPECT_NO_THROW(make_rule(multiset, 2, 4, RuleOptions{.start = "4 4 3 3/2 2 1 1"}));
}

}  // namespace
}  // namespace stategraph
