#include "stategraph/core/symmetry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "stategraph/bfs/bfs.hpp"
#include "stategraph/rules/primeswap.hpp"

namespace stategraph {
namespace {

bool prime(int v) {
  if (v < 2) return false;
  for (int d = 2; d * d <= v; ++d)
    if (v % d == 0) return false;
  return true;
}
// primeswap's symbols are numbers - 1: symbols a, b are related when (a+1)+(b+1) is prime.
std::vector<std::vector<int>> prime_sum_relabellings(int n) {
  return symbol_automorphisms(n, [](int a, int b) { return prime(a + b + 2); });
}

bool adjacent(Grid g, int a, int b) {
  const int ra = a / g.cols, ca = a % g.cols, rb = b / g.cols, cb = b % g.cols;
  return std::abs(ra - rb) + std::abs(ca - cb) == 1;
}

TEST(Symmetry, GridSymmetriesKeepAdjacency) {
  for (Grid g : {Grid(2, 3), Grid(3, 4), Grid(3, 3), Grid(4, 4), Grid(2, 7)}) {
    const auto syms = grid_symmetries(g);
    EXPECT_EQ(syms.size(), g.rows == g.cols ? 8u : 4u) << g.label();
    EXPECT_EQ(std::set<std::vector<int>>(syms.begin(), syms.end()).size(), syms.size()) << g.label();
    for (const auto& p : syms) {
      std::vector<int> sorted = p;
      std::sort(sorted.begin(), sorted.end());
      for (int i = 0; i < g.cells(); ++i) ASSERT_EQ(sorted[static_cast<std::size_t>(i)], i);
      for (int a = 0; a < g.cells(); ++a)
        for (int b = 0; b < g.cells(); ++b)
          EXPECT_EQ(adjacent(g, a, b), adjacent(g, p[static_cast<std::size_t>(a)], p[static_cast<std::size_t>(b)]));
    }
  }
}

// The counts the graph-statistics work relies on: 64 relabellings of 1..12 and 2 of 1..9
// keep every prime sum prime (and every other sum not prime).
TEST(Symmetry, PrimeSumRelabellings) {
  EXPECT_EQ(prime_sum_relabellings(12).size(), 64u);
  EXPECT_EQ(prime_sum_relabellings(9).size(), 2u);
  const auto all = prime_sum_relabellings(12);
  std::vector<int> swap_pairs(12);  // 3<->9, 4<->10, 5<->11, 6<->12 as symbols (number - 1)
  for (int v = 0; v < 12; ++v) swap_pairs[static_cast<std::size_t>(v)] = v;
  for (auto [a, b] : {std::pair{3, 9}, std::pair{4, 10}, std::pair{5, 11}, std::pair{6, 12}})
    std::swap(swap_pairs[static_cast<std::size_t>(a - 1)], swap_pairs[static_cast<std::size_t>(b - 1)]);
  EXPECT_NE(std::find(all.begin(), all.end(), swap_pairs), all.end());
  std::vector<int> id(12);
  for (int v = 0; v < 12; ++v) id[static_cast<std::size_t>(v)] = v;
  EXPECT_EQ(all.front(), id);
}

std::set<State> successors(const PrimeSwap& rule, State s) {
  std::set<State> out;
  rule.for_each_successor(s, [&](State t) { out.insert(t); });
  return out;
}

// Each product of a grid symmetry and a prime-sum relabelling maps primeswap's moves
// onto moves (every state of 2x3, a sample of 3x4), keeps BFS layer counts from its
// image of the goal, and its inverse undoes it.
TEST(Symmetry, PrimeSwapAutomorphismsMapMovesToMoves) {
  for (Grid g : {Grid(2, 3), Grid(3, 4)}) {
    const PrimeSwap rule(g);
    const auto syms = symmetry_products(grid_symmetries(g), prime_sum_relabellings(g.cells()));
    ASSERT_TRUE(syms.front().identity());
    std::mt19937_64 rng(5);
    const std::uint64_t samples = std::min<std::uint64_t>(rule.size(), 2000);
    for (std::uint64_t k = 0; k < samples; ++k) {
      const State s = rule.unrank(rule.size() <= 2000 ? k : rng() % rule.size());
      const std::set<State> next = successors(rule, s);
      for (const auto& sym : syms) {
        std::set<State> mapped;
        for (State t : next) mapped.insert(sym.apply(t));
        ASSERT_EQ(successors(rule, sym.apply(s)), mapped) << g.label();
        ASSERT_EQ(sym.inverse().apply(sym.apply(s)), s);
      }
    }
  }
  const PrimeSwap rule(Grid(2, 3));
  const AnyRule any = rule;
  const auto syms = symmetry_products(grid_symmetries(Grid(2, 3)), prime_sum_relabellings(6));
  ASSERT_GT(syms.size(), 4u);  // the check below must see relabellings too
  const BfsResult from_goal = find_variant("serial").run(any, BfsOptions{});
  for (const auto& sym : syms) {
    BfsOptions o;
    o.sources = {sym.apply(rule.goals().front())};
    EXPECT_EQ(find_variant("serial").run(any, o).layers, from_goal.layers);
  }
}

// A relation with a non-trivial group: the complete graph on n symbols has all n!.
TEST(Symmetry, SymbolAutomorphismsOfTheCompleteGraph) {
  EXPECT_EQ(symbol_automorphisms(5, [](int, int) { return true; }).size(), 120u);
  EXPECT_EQ(symbol_automorphisms(4, [](int a, int b) { return (a + b) % 2 == 1; }).size(), 8u);  // K_{2,2}
}

}  // namespace
}  // namespace stategraph
