#include <gtest/gtest.h>

#include <set>

#include "stategraph/rules/rule.hpp"

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
  EXPECT_EQ(rule_table().size(), 4u);
  EXPECT_THROW(make_rule("nosuch"), InputError);
  EXPECT_THROW(make_rule("sliding", 1, 9), InputError);
  EXPECT_THROW(make_rule("sliding", 3, 6), InputError);
  EXPECT_THROW(make_rule("rotate", 3, 3, RuleOptions{"1 2 3"}), InputError);
  EXPECT_THROW(make_rule("cardswap", 3, 3), InputError);
  EXPECT_EQ(rule_size(make_rule("sliding", 2, 7)), kFactorial[14] / 2);
  EXPECT_EQ(rule_size(make_rule("cardswap", 3, 3, RuleOptions{"A* /***/**B"})), 9u * 8u * 7u);
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
