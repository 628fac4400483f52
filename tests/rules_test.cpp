#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <random>
#include <set>

#include "stategraph/bfs/bfs.hpp"
#include "stategraph/rules/rule.hpp"
#include "stategraph/solve/solve.hpp"

namespace stategraph {
namespace {

const std::vector<Grid> kSmallGrids = {{2, 2}, {2, 3}, {3, 2}, {2, 4}, {3, 3}};

// Every rank maps to a state of the space and back; every move stays in the space and
// successor/predecessor are mirror relations.
template <Rule R>
void check_space(const R& rule, std::uint64_t max_checked_moves) {
  std::set<State> seen;
  for (std::uint64_t r = 0; r < rule.size(); ++r) {
    const State s = rule.unrank(r);
    ASSERT_TRUE(rule.in_space(s)) << rule.format(s);
    ASSERT_EQ(rule.rank(s), r) << rule.format(s);
    ASSERT_EQ(rule.parse(rule.format(s)), s) << rule.format(s);
    seen.insert(s);
    if (r >= max_checked_moves) continue;
    rule.for_each_successor(s, [&](State t) {
      ASSERT_TRUE(rule.in_space(t));
      bool back = false;
      rule.for_each_predecessor(t, [&](State u) { back |= (u == s); });
      ASSERT_TRUE(back) << rule.format(s) << " -> " << rule.format(t) << " has no predecessor link back";
    });
  }
  EXPECT_EQ(seen.size(), rule.size());
}

TEST(RulesTest, SlidingParityRankingIsABijection) {
  for (const Grid& g : kSmallGrids) check_space(Sliding(g), 5000);
  EXPECT_EQ(Sliding(Grid(3, 3)).size(), 181440u);
}

TEST(RulesTest, SlidingOtherParityIsOutsideTheSpace) {
  const Sliding rule(Grid(3, 3));
  const State goal = rule.goals()[0];
  EXPECT_TRUE(rule.in_space(goal));
  EXPECT_FALSE(rule.in_space(swap_cells(goal, 0, 1)));  // swap two tiles: unsolvable
}

TEST(RulesTest, SlidingParsesBlankAsZeroNineOrUnderscore) {
  const Sliding rule(Grid(3, 3));
  const State goal = rule.goals()[0];
  EXPECT_EQ(rule.parse("1 2 3/4 5 6/7 8 0"), goal);
  EXPECT_EQ(rule.parse("1 2 3 4 5 6 7 8 9"), goal);
  EXPECT_EQ(rule.parse("12345678_"), goal);
  EXPECT_EQ(rule.format(goal), "1 2 3/4 5 6/7 8 _");
  EXPECT_THROW(rule.parse("1 2 3 4 5 6 7 8"), InputError);
  EXPECT_THROW(rule.parse("1 2 3 4 5 6 7 8 8"), InputError);
  EXPECT_THROW(rule.parse("1 2 3 4 5 6 7 8 x"), InputError);
  EXPECT_THROW(rule.parse("0 2 3 4 5 6 7 8 9"), InputError);  // two blanks
}

TEST(RulesTest, RotateTurnsClockwise) {
  const Rotate rule(Grid(3, 3));
  // a b / c d -> c a / d b on the top-left block.
  EXPECT_EQ(rule.format(rule.turn_clockwise(rule.goals()[0], 0)), "4 1 3/5 2 6/7 8 9");
  EXPECT_EQ(rule.max_degree(), 4);
  EXPECT_EQ(Rotate(Grid(3, 4)).max_degree(), 6);
  for (const Grid& g : kSmallGrids) check_space(Rotate(g), 5000);
}

TEST(RulesTest, PrimeSwapMovesOnlyOnPrimeSums) {
  const PrimeSwap rule(Grid(3, 3));
  int moves = 0;
  rule.for_each_successor(rule.goals()[0], [&](State) { ++moves; });
  // Goal 1 2 3/4 5 6/7 8 9: horizontal sums 3,5,9,11,15,17 (4 prime), vertical 5,7,9,11,13,15 (4 prime).
  EXPECT_EQ(moves, 4 + 4);
  for (const Grid& g : kSmallGrids) check_space(PrimeSwap(g), 5000);
}

TEST(RulesTest, CardSwapParsesAndBuildsGoals) {
  const CardSwap rule(Grid(2, 3), "* A\n**B");
  EXPECT_EQ(rule.size(), 120u);
  EXPECT_EQ(rule.format(rule.start()), "*_A/**B");
  EXPECT_EQ(rule.parse("* A/**B"), rule.start());
  EXPECT_EQ(rule.parse("*_A/**B"), rule.start());
  const auto goals = rule.goals();
  EXPECT_EQ(goals.size(), 4u);
  for (State g : goals) {
    EXPECT_EQ(get_cell(g, 2), CardSwap::kCardB);
    EXPECT_EQ(get_cell(g, 5), CardSwap::kCardA);
  }
  // A missing trailing space is a blank at the end of the line.
  EXPECT_EQ(CardSwap(Grid(2, 3), "**A/*B").format(CardSwap(Grid(2, 3), "**A/*B ").start()), "**A/*B_");
  EXPECT_THROW(CardSwap(Grid(2, 3), "* A/**C"), InputError);
  EXPECT_THROW(CardSwap(Grid(2, 3), "* A/* B"), InputError);
  EXPECT_THROW(CardSwap(Grid(2, 3), "* A"), InputError);
  EXPECT_THROW(CardSwap(Grid(2, 3), "* A /**B"), InputError);
  check_space(rule, 120);
}

TEST(RulesTest, RegistryRefusesBadNamesAndSizes) {
  EXPECT_THROW(make_rule("nosuch"), InputError);
  EXPECT_THROW(make_solve_rule("nosuch"), InputError);
  EXPECT_THROW(make_rule(""), InputError);
  EXPECT_THROW(make_rule("sliding", 3, 3, RuleOptions{.directions = "both"}), InputError);
  EXPECT_THROW(make_rule("adjswap", 3, 3, RuleOptions{"1 2 3"}), InputError);
  EXPECT_THROW(make_rule("sliding", 1, 9), InputError);
  EXPECT_THROW(make_rule("sliding", 3, 6), InputError);
  EXPECT_THROW(make_rule("rotate", 3, 3, RuleOptions{"1 2 3"}), InputError);
  EXPECT_THROW(make_rule("cardswap", 3, 3), InputError);
  EXPECT_EQ(rule_size(make_rule("sliding", 2, 7)), kFactorial[14] / 2);
  EXPECT_EQ(rule_size(make_rule("cardswap", 3, 3, RuleOptions{"A* /***/**B"})), 9u * 8u * 7u);
}

// ---- The rule table: every row has what the consumers need ----------------------------

// Forward BFS distances from s over the whole space (std::map; small spaces only).
std::map<State, int> distances_from(const AnyRule& rule, State s) {
  std::map<State, int> d{{s, 0}};
  std::deque<State> queue{s};
  while (!queue.empty()) {
    const State x = queue.front();
    queue.pop_front();
    std::visit(
        [&](const auto& r) {
          r.for_each_successor(x, [&](State t) {
            if (d.emplace(t, d[x] + 1).second) queue.push_back(t);
          });
        },
        rule);
  }
  return d;
}

int eccentricity(const AnyRule& rule, State s) {
  int e = 0;
  for (const auto& [t, d] : distances_from(rule, s)) e = std::max(e, d);
  return e;
}

// The rule on a small grid for brute force: 2x3 when the row accepts it without options.
AnyRule small_rule(const RuleInfo& info) {
  try {
    return make_rule(info.name, 2, 3);
  } catch (const InputError&) {
    return make_rule(info.name);
  }
}

// The judge's text for s: the rule's text form, one row per line.
std::string judge_text(const AnyRule& rule, State s) {
  std::string board = std::visit([s](const auto& r) { return r.format(s); }, rule);
  std::replace(board.begin(), board.end(), '/', '\n');
  return (rule_judge_format(rule) == JudgeFormat::kNumberGrids ? "1\n" : "") + board + "\n";
}

// Space, moves, labels, parsing and the judge format of one rule.
template <Rule R>
void check_row(const R& rule) {
  const AnyRule any(rule);
  ASSERT_FALSE(rule.goals().empty());
  for (State g : rule.goals()) {
    ASSERT_TRUE(rule.in_space(g)) << rule.format(g);
    ASSERT_LT(rule.rank(g), rule.size());
  }
  const std::uint64_t stride = rule.size() <= 400000 ? 1 : rule.size() / 400000;
  for (std::uint64_t k = 0; k < rule.size(); k += stride) ASSERT_EQ(rule.rank(rule.unrank(k)), k);
  const std::uint64_t move_stride = std::max<std::uint64_t>(1, rule.size() / 3000);
  for (std::uint64_t k = 0; k < rule.size(); k += move_stride) {
    const State s = rule.unrank(k);
    ASSERT_TRUE(rule.in_space(s));
    ASSERT_EQ(rule.parse(rule.format(s)), s) << rule.format(s);
    const std::vector<Query> q = parse_queries(any, judge_text(any, s), false);
    ASSERT_EQ(q.size(), 1u) << judge_text(any, s);
    ASSERT_EQ(q[0].state, s) << judge_text(any, s);
    ASSERT_LT(section_of(rule, s), rule_sections(any));
    // Labelled moves are the successors, in order, with distinct non-empty labels.
    std::vector<State> successors, moved, predecessors;
    std::set<std::string> labels;
    rule.for_each_successor(s, [&](State t) { successors.push_back(t); });
    rule.for_each_move(s, [&](const auto& label, State t) {
      moved.push_back(t);
      const std::string l = label();
      EXPECT_FALSE(l.empty());
      EXPECT_TRUE(labels.insert(l).second) << "label " << l << " twice at " << rule.format(s);
    });
    ASSERT_EQ(moved, successors) << rule.format(s);
    ASSERT_LE(static_cast<int>(successors.size()), rule.max_degree());
    rule.for_each_predecessor(s, [&](State t) { predecessors.push_back(t); });
    ASSERT_LE(static_cast<int>(predecessors.size()), rule.max_degree());
    for (State t : successors) {
      ASSERT_TRUE(rule.in_space(t));
      bool back = false;
      rule.for_each_predecessor(t, [&](State u) { back |= u == s; });
      ASSERT_TRUE(back) << rule.format(s) << " -> " << rule.format(t);
    }
    if (!rule.directed()) {
      std::sort(successors.begin(), successors.end());
      std::sort(predecessors.begin(), predecessors.end());
      ASSERT_EQ(predecessors, successors)
          << "undirected, yet successors differ from predecessors at " << rule.format(s);
    }
    // A stop request ends the walk after the first move.
    int calls = 0;
    rule.for_each_move(s, [&](const auto&, State) { return ++calls == 1; });
    ASSERT_LE(calls, 1);
  }
}

// The properties the consumers rely on, against brute force on a small grid.
template <Rule R>
void check_properties(const R& rule) {
  const AnyRule any(rule);
  std::vector<State> all;
  for (std::uint64_t k = 0; k < rule.size(); ++k) all.push_back(rule.unrank(k));
  if (const int order = rule.max_move_order(); order > 0) {
    // Move j (by label) is one permutation of the states, of order at most `order`.
    std::map<std::string, std::map<State, State>> move;
    for (State s : all) rule.for_each_move(s, [&](const auto& label, State t) { move[label()][s] = t; });
    for (const auto& [label, image] : move) {
      ASSERT_EQ(image.size(), all.size()) << "move " << label << " does not apply to every state";
      std::set<State> targets;
      for (const auto& [s, t] : image) targets.insert(t);
      ASSERT_EQ(targets.size(), all.size()) << "move " << label << " is not a bijection";
      for (const auto& [s, t] : image) {
        State x = t;
        int k = 1;
        while (x != s && k <= order) x = image.at(x), ++k;
        ASSERT_EQ(x, s) << "move " << label << " has an order above " << order;
      }
    }
  }
  switch (rule.diameter_symmetry()) {
    case DiameterSymmetry::kCayley: {
      // Every state has the same eccentricity within what it reaches.
      const int e = eccentricity(any, all[0]);
      for (State s : all) ASSERT_EQ(eccentricity(any, s), e) << rule.format(s);
      break;
    }
    case DiameterSymmetry::kBlankOrbits:
      // A state's eccentricity is that of the chosen state with its blank cell.
      for (int c = 0; c < rule.cells(); ++c) {
        const State t = rule_state_with_blank(any, c);
        ASSERT_TRUE(rule.in_space(t));
        ASSERT_EQ(rule_blank_cell(any, t), c);
      }
      for (std::size_t i = 0; i < all.size(); i += 7)
        ASSERT_EQ(eccentricity(any, all[i]),
                  eccentricity(any, rule_state_with_blank(any, rule_blank_cell(any, all[i]))))
            << rule.format(all[i]);
      break;
    case DiameterSymmetry::kNone:
      break;
  }
}

// solve on the default size: a state's depth is its BFS distance to the goals of its
// section's rule (the rule itself when there is one section), and its path is legal,
// that long, and ends at one of those goals.
void check_solve(const AnyRule& rule) {
  const DepthTable table = build_depth_table(rule, DepthEncoding::kByte);
  ASSERT_EQ(table.sections(), rule_sections(rule));
  if (rule_sections(rule) == 1)
    for (State g : std::visit([](const auto& r) { return r.goals(); }, rule)) ASSERT_EQ(depth_of(rule, table, g), 0);
  std::map<std::uint64_t, BfsResult> reference;  // per section
  BfsOptions o;
  o.want_depths = true;
  const std::uint64_t n = rule_size(rule);
  for (std::uint64_t k = 0; k < n; k += n / 200 + 1) {
    const State s = std::visit([k](const auto& r) { return r.unrank(k); }, rule);
    const std::uint64_t section = std::visit([s](const auto& r) { return section_of(r, s); }, rule);
    const AnyRule goal_rule = rule_for_section(rule, section);
    auto it = reference.find(section);
    if (it == reference.end()) it = reference.emplace(section, find_variant("reference").run(goal_rule, o)).first;
    const unsigned want = it->second.depth[k];
    const int d = depth_of(rule, table, s);
    ASSERT_EQ(d, want == kUnreached ? -1 : static_cast<int>(want)) << "rank " << k;
    const std::vector<PathStep> path = optimal_path(rule, table, s);
    ASSERT_EQ(static_cast<int>(path.size()), std::max(d, 0));
    if (d <= 0) continue;
    const auto goals = std::visit([](const auto& r) { return r.goals(); }, goal_rule);
    ASSERT_NE(std::find(goals.begin(), goals.end(), path.back().board), goals.end()) << "rank " << k;
  }
}

TEST(RuleTable, EveryRowHasWhatConsumersNeed) {
  std::set<std::string_view> names;
  for (const RuleInfo& info : rule_table()) {
    SCOPED_TRACE(std::string(info.name));
    ASSERT_TRUE(names.insert(info.name).second) << "two rows named " << info.name;
    ASSERT_NE(info.build, nullptr);
    EXPECT_FALSE(info.summary.empty());
    EXPECT_EQ(&find_rule(info.name), &info);
    if (!info.alias.empty()) EXPECT_EQ(&find_rule(info.alias), &info);
    const AnyRule rule = make_rule(info.name);
    EXPECT_EQ(rule_name(rule), info.name);
    EXPECT_EQ(rule_grid(rule).rows, info.default_rows);
    EXPECT_EQ(rule_grid(rule).cols, info.default_cols);
    // An option the row does not read is refused, one it reads is not ignored.
    if (!(info.options & kStartOption)) EXPECT_THROW(make_rule(info.name, 0, 0, RuleOptions{.start = "x"}), InputError);
    if (!(info.options & kDirectionsOption))
      EXPECT_THROW(make_rule(info.name, 0, 0, RuleOptions{.directions = "cw"}), InputError);
    EXPECT_THROW(make_rule(info.name, 0, 0, RuleOptions{.metric = "given"}), InputError);
    std::visit([](const auto& r) { check_row(r); }, rule);
    std::visit([](const auto& r) { check_properties(r); }, small_rule(info));
    check_solve(make_solve_rule(info.name));
  }
  // analyze --all runs exactly the four seed rules.
  std::vector<std::string_view> seeds;
  for (const RuleInfo& info : rule_table())
    if (info.seed) seeds.push_back(info.name);
  EXPECT_EQ(seeds, (std::vector<std::string_view>{"sliding", "rotate", "primeswap", "cardswap"}));
}

// ---- adjswap ----------------------------------------------------------------------------

// The reference BFS's distances from the goal against a BFS written here from the grid's
// geometry (every pair of cells at taxicab distance 1 may swap), on 2x2 and 2x3.
TEST(AdjSwap, DistancesMatchABruteForceBfs) {
  for (const Grid& g : {Grid(2, 2), Grid(2, 3), Grid(3, 2)}) {
    SCOPED_TRACE(g.label());
    const AdjSwap rule(g);
    check_space(rule, rule.size());
    const int n = g.cells();
    std::map<State, int> dist{{identity_state(n), 0}};
    std::deque<State> queue{identity_state(n)};
    while (!queue.empty()) {
      const State x = queue.front();
      queue.pop_front();
      for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b) {
          if (std::abs(a / g.cols - b / g.cols) + std::abs(a % g.cols - b % g.cols) != 1) continue;
          const State t = swap_cells(x, a, b);
          if (dist.emplace(t, dist[x] + 1).second) queue.push_back(t);
        }
    }
    ASSERT_EQ(dist.size(), rule.size());  // one component: all n! states
    BfsOptions o;
    o.want_depths = true;
    for (const char* variant : {"reference", "hybrid"}) {
      const BfsResult r = find_variant(variant).run(AnyRule(rule), o);
      for (const auto& [s, d] : dist) ASSERT_EQ(r.depth[rule.rank(s)], d) << variant << " " << rule.format(s);
    }
  }
  // 2x2 is a 4-cycle of cells: 4 transpositions, and the farthest state is 4 swaps away.
  EXPECT_EQ(AdjSwap(Grid(2, 2)).max_degree(), 4);
  EXPECT_EQ(AdjSwap(Grid(3, 3)).max_degree(), 12);
}

TEST(AdjSwap, SolvePrintsCellSwaps) {
  const AnyRule rule = make_solve_rule("adjswap", 2, 3);
  const DepthTable table = build_depth_table(rule, default_encoding(rule));
  std::string out;
  AnswerOptions o;
  o.path = true;
  append_answer(rule, table, parse_state(rule, "2 1 3/4 5 6"), o, out);
  EXPECT_EQ(out, "1 path=r1c1-r1c2\n");
  out.clear();
  append_answer(rule, table, parse_state(rule, "4 2 3/1 5 6"), o, out);
  EXPECT_EQ(out, "1 path=r1c1-r2c1\n");
  // A 3-cycle along a row takes two swaps.
  out.clear();
  append_answer(rule, table, parse_state(rule, "2 3 1/4 5 6"), o, out);
  EXPECT_EQ(out.substr(0, 2), "2 ");
  EXPECT_EQ(solve_input(rule, table, "2\n1 2 3\n4 5 6\n2 1 3\n4 5 6\n", {}, false).out, "0\n1\n");
}

}  // namespace
}  // namespace stategraph

// The ranked space of sliding is the goal's class at every size (odd and even cell
// counts): the goal is in it, and unrank lands in it.
TEST(SlidingSpace, GoalClassAtEverySize) {
  for (auto [r, c] : {std::pair{2, 2}, {2, 3}, {3, 3}, {2, 4}, {3, 4}, {2, 5}, {4, 4}}) {
    const stategraph::Sliding rule(stategraph::Grid(r, c));
    for (auto g : rule.goals()) EXPECT_TRUE(rule.in_space(g)) << r << "x" << c;
    for (std::uint64_t k = 0; k < rule.size(); k += rule.size() / 97 + 1) {
      const auto s = rule.unrank(k);
      EXPECT_TRUE(rule.in_space(s)) << r << "x" << c << " rank " << k;
      EXPECT_EQ(rule.rank(s), k);
    }
  }
}

// Sliding's block moves (whole blocks of ranks shifted by a multiple of the block size,
// one block per blank cell) and its other neighbour ranks together give rank() of every
// successor, on every state of the small grids (block sizes below 64, not multiples of
// 64) and a sample of the larger ones.
TEST(SlidingSpace, BlockMovesAndOtherRanksMakeTheNeighbourSet) {
  for (auto [r, c] : {std::pair{2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}, {3, 3}, {2, 5}, {3, 4}, {2, 7}}) {
    const stategraph::Sliding rule(stategraph::Grid(r, c));
    const std::uint64_t w = rule.block_move_size();
    ASSERT_EQ(w * static_cast<std::uint64_t>(r * c), rule.size()) << r << "x" << c;
    const std::uint64_t step = rule.size() <= 2000000 ? 1 : rule.size() / 100003;
    for (std::uint64_t k = 0; k < rule.size(); k += step) {
      const auto s = rule.unrank(k);
      ASSERT_EQ(static_cast<int>(k / w), rule.blank_cell(s)) << r << "x" << c << " rank " << k;
      std::vector<std::uint64_t> want, got;
      rule.for_each_successor(s, [&](stategraph::State t) { want.push_back(rule.rank(t)); });
      rule.for_each_block_move(k / w, [&](std::uint64_t b) { got.push_back(k + b * w - (k / w) * w); });
      rule.for_each_other_neighbour_rank(s, k, [&](std::uint64_t q) { got.push_back(q); });
      std::sort(want.begin(), want.end());
      std::sort(got.begin(), got.end());
      ASSERT_EQ(got, want) << r << "x" << c << " rank " << k << " " << rule.format(s);
    }
  }
}

// Sliding's vertical scanner (the other moves' ranks from the rank alone, no state)
// equals for_each_other_neighbour_rank on the unranked state, in the same order: on
// every state of the small grids in an ascending scan, on runs of 300 ranks from random
// starts at the larger ones (so its cached prefix changes both ways), on sparse ascending
// runs, in the goal's class and in the other one (search_from), and one scanner sees ranks
// jump backwards too; a callback returning true stops it.
TEST(SlidingSpace, VerticalScannerMatchesOtherNeighbourRanks) {
  for (auto [r, c] :
       {std::pair{2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}, {3, 3}, {2, 5}, {5, 2}, {3, 4}, {4, 3}, {2, 7}, {4, 4}}) {
    for (bool other : {false, true}) {
      stategraph::Sliding rule(stategraph::Grid(r, c));
      if (other) rule.search_from(stategraph::swap_cells(rule.goals()[0], 0, 1));
      ASSERT_EQ(rule.in_space(rule.goals()[0]), true);
      const std::string label = std::to_string(r) + "x" + std::to_string(c) + (other ? " other class" : "");
      auto scan = rule.other_rank_scanner();
      auto check = [&](std::uint64_t k) {
        const auto s = rule.unrank(k);
        std::vector<std::uint64_t> want, got;
        rule.for_each_other_neighbour_rank(s, k, [&](std::uint64_t q) { want.push_back(q); });
        scan(k, [&](std::uint64_t q) { got.push_back(q); });
        ASSERT_EQ(got, want) << label << " rank " << k << " " << rule.format(s);
        int calls = 0;
        scan(k, [&](std::uint64_t) { return ++calls == 1; });
        ASSERT_EQ(calls, want.empty() ? 0 : 1) << label << " rank " << k;
      };
      if (rule.size() <= 2000000) {
        for (std::uint64_t k = 0; k < rule.size(); ++k) check(k);
        check(rule.size() / 3), check(0);
      } else {
        std::uint64_t x = 88172645463325252ull;
        for (int run = 0; run < 400; ++run) {
          x ^= x << 13, x ^= x >> 7, x ^= x << 17;
          const std::uint64_t start = x % (rule.size() - 300);
          for (std::uint64_t k = start; k < start + 300; ++k) check(k);
        }
      }
      // Sparse ascending runs (a sparse frontier): gaps inside a prefix and across few or
      // many of them, so the cursor's prefix changes in one digit or several.
      std::uint64_t x = 0x9E3779B97F4A7C15ull;
      for (int run = 0; run < 20; ++run) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        std::uint64_t k = x % rule.size();
        for (int step = 0; step < 200 && k < rule.size(); ++step) {
          check(k);
          x ^= x << 13, x ^= x >> 7, x ^= x << 17;
          k += 1 + x % (step % 4 == 0 ? 4 : step % 4 == 1 ? 100 : step % 4 == 2 ? 3000 : 300000);
        }
      }
    }
  }
}

// Sliding's incremental neighbour ranks equal rank() of each successor, in the same
// order, on every state of the small grids and a sample of the larger ones; a callback
// returning true stops the walk.
TEST(SlidingSpace, NeighbourRanksMatchRankOfSuccessors) {
  for (auto [r, c] : {std::pair{2, 2}, {2, 3}, {3, 2}, {3, 3}, {2, 4}, {4, 2}, {3, 4}, {2, 7}, {4, 4}}) {
    const stategraph::Sliding rule(stategraph::Grid(r, c));
    const std::uint64_t step = rule.size() <= 200000 ? 1 : rule.size() / 100003;
    for (std::uint64_t k = 0; k < rule.size(); k += step) {
      const auto s = rule.unrank(k);
      std::vector<std::uint64_t> want, got;
      rule.for_each_successor(s, [&](stategraph::State t) { want.push_back(rule.rank(t)); });
      rule.for_each_neighbour_rank(s, k, [&](std::uint64_t q) { got.push_back(q); });
      ASSERT_EQ(got, want) << r << "x" << c << " rank " << k << " " << rule.format(s);
      int calls = 0;
      rule.for_each_neighbour_rank(s, k, [&](std::uint64_t) { return ++calls == 1; });
      ASSERT_EQ(calls, 1);
    }
  }
}

namespace stategraph {
namespace {

// The incremental successor and predecessor ranks of the rules ranked by the direct
// permutation (MoveRanks: digit windows and the split rank's table) against rank() of
// each successor (same order) and predecessor (same states; the successors' order on
// an undirected rule), on every state of the small grids and a sample at 3x4 and 4x4;
// a callback returning true stops the walk.
template <class R>
void check_incremental_ranks(const R& rule) {
  const std::string label = std::string(rule.name()) + " " + rule.grid().label();
  const std::uint64_t step = rule.size() <= 400000 ? 1 : rule.size() / 20011;
  for (std::uint64_t k = 0; k < rule.size(); k += step) {
    const State s = rule.unrank(k);
    std::vector<std::uint64_t> want, got, pwant, pgot;
    rule.for_each_successor(s, [&](State t) { want.push_back(rule.rank(t)); });
    rule.for_each_successor_rank(s, k, [&](std::uint64_t q) { got.push_back(q); });
    ASSERT_EQ(got, want) << label << " rank " << k << " " << rule.format(s);
    rule.for_each_predecessor(s, [&](State t) { pwant.push_back(rule.rank(t)); });
    rule.for_each_predecessor_rank(s, k, [&](std::uint64_t q) { pgot.push_back(q); });
    std::sort(pwant.begin(), pwant.end());
    std::sort(pgot.begin(), pgot.end());
    ASSERT_EQ(pgot, pwant) << label << " rank " << k << " " << rule.format(s);
    if (!want.empty()) {
      int calls = 0;
      rule.for_each_successor_rank(s, k, [&](std::uint64_t) { return ++calls == 1; });
      ASSERT_EQ(calls, 1);
      calls = 0;
      rule.for_each_predecessor_rank(s, k, [&](std::uint64_t) { return ++calls == 1; });
      ASSERT_EQ(calls, 1);
    }
  }
}

// The move scanner (successor or predecessor ranks from the rank alone) against the
// state's own incremental ranks, same order: every state of the small grids in one
// ascending scan, runs of 200 ranks from random starts at the larger ones, backwards jumps
// included; a callback returning true stops it. Returns whether it was usable.
template <class R>
bool check_rank_scanner(const R& rule, bool successors) {
  auto scan = rule.rank_scanner(successors);
  if (!scan.usable()) return false;
  const std::string label =
      std::string(rule.name()) + " " + rule.grid().label() + (successors ? " successors" : " predecessors");
  auto check = [&](std::uint64_t k) {
    const State s = rule.unrank(k);
    std::vector<std::uint64_t> want, got;
    if (successors)
      rule.for_each_successor_rank(s, k, [&](std::uint64_t q) { want.push_back(q); });
    else
      rule.for_each_predecessor_rank(s, k, [&](std::uint64_t q) { want.push_back(q); });
    scan(k, [&](std::uint64_t q) { got.push_back(q); });
    EXPECT_EQ(got, want) << label << " rank " << k << " " << rule.format(s);
    int calls = 0;
    scan(k, [&](std::uint64_t) { return ++calls == 1; });
    EXPECT_EQ(calls, want.empty() ? 0 : 1) << label << " rank " << k;
    return got == want;
  };
  std::mt19937_64 rng(7);
  if (rule.size() <= 400000) {
    for (std::uint64_t k = 0; k < rule.size(); ++k)
      if (!check(k)) return true;
    check(rule.size() / 3), check(1);
  } else {
    for (int run = 0; run < 200; ++run) {
      const std::uint64_t start = rng() % (rule.size() - 200);
      for (std::uint64_t k = start; k < start + 200; ++k)
        if (!check(k)) return true;
    }
  }
  // Sparse ascending runs, as a sparse frontier gives them: gaps within a block, across a
  // few blocks and across many (the scanner's prefix then changes in several digits).
  for (int run = 0; run < 20; ++run) {
    std::uint64_t k = rng() % rule.size();
    for (int step = 0; step < 200 && k < rule.size(); ++step) {
      if (!check(k)) return true;
      const std::uint64_t kind = rng() % 4;
      k += 1 + rng() % (kind == 0 ? 4 : kind == 1 ? 60 : kind == 2 ? 2000 : 200000);
    }
  }
  return true;
}

TEST(IncrementalRanks, ScannerMatchesTheStatesRanks) {
  for (auto [r, c] : {std::pair{2, 2}, {2, 3}, {3, 2}, {3, 3}, {2, 4}, {4, 2}, {3, 4}, {4, 3}, {4, 4}}) {
    const Grid g(r, c);
    for (bool successors : {true, false}) {
      // Every window move of these grids ends at least 3 cells before the last one.
      EXPECT_TRUE(check_rank_scanner(Rotate(g), successors)) << g.label();
      EXPECT_TRUE(check_rank_scanner(Rotate(g, true), successors)) << g.label();
      EXPECT_TRUE(check_rank_scanner(AdjSwap(g), successors)) << g.label();
      EXPECT_TRUE(check_rank_scanner(PrimeSwap(g), successors)) << g.label();  // its moves depend on the state
    }
  }
  // 2x7: rotate's window moves reach the last cell; the state's own ranks take over.
  EXPECT_FALSE(Rotate(Grid(2, 7)).rank_scanner(true).usable());
}

TEST(IncrementalRanks, MatchRankOfSuccessorsAndPredecessors) {
  for (auto [r, c] : {std::pair{2, 2}, {2, 3}, {3, 2}, {3, 3}, {2, 4}, {3, 4}, {4, 3}, {4, 4}}) {
    const Grid g(r, c);
    check_incremental_ranks(Rotate(g));
    check_incremental_ranks(Rotate(g, true));
    check_incremental_ranks(PrimeSwap(g));
    check_incremental_ranks(AdjSwap(g));
  }
}

}  // namespace
}  // namespace stategraph
