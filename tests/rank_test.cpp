#include "stategraph/core/rank.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <set>

namespace stategraph {
namespace {

TEST(RankTest, UnrankInvertsRankAndFollowsLexOrderUpToNine) {
  for (int n = 1; n <= 9; ++n) {
    std::array<unsigned, 16> perm{};
    for (int i = 0; i < n; ++i) perm[static_cast<std::size_t>(i)] = static_cast<unsigned>(i);
    std::uint64_t expected = 0;
    do {  // std::next_permutation walks lexicographic order: ranks must count up.
      State s = 0;
      for (int i = 0; i < n; ++i) s = set_cell(s, i, perm[static_cast<std::size_t>(i)]);
      ASSERT_EQ(perm_rank(s, n), expected) << "n=" << n;
      ASSERT_EQ(perm_unrank(expected, n), s) << "n=" << n;
      ++expected;
    } while (std::next_permutation(perm.begin(), perm.begin() + n));
    EXPECT_EQ(expected, kFactorial[static_cast<std::size_t>(n)]);
  }
}

TEST(RankTest, RandomRoundTripsUpToSixteen) {
  std::mt19937_64 rng(42);
  for (int n = 10; n <= 16; ++n) {
    for (int k = 0; k < 20000; ++k) {
      const std::uint64_t r = rng() % kFactorial[static_cast<std::size_t>(n)];
      const State s = perm_unrank(r, n);
      unsigned seen = 0;
      for (int i = 0; i < n; ++i) seen |= 1u << get_cell(s, i);
      ASSERT_EQ(seen, (1u << n) - 1) << "not a permutation";
      ASSERT_EQ(perm_rank(s, n), r);
    }
  }
  EXPECT_EQ(perm_rank(perm_unrank(kFactorial[16] - 1, 16), 16), kFactorial[16] - 1);
}

TEST(RankTest, LimitsAreChecked) {
  EXPECT_THROW(check_perm_size(0), InputError);
  EXPECT_THROW(check_perm_size(17), InputError);
  EXPECT_NO_THROW(check_perm_size(16));
}

TEST(RankTest, InverseAndParity) {
  std::mt19937_64 rng(7);
  for (int k = 0; k < 1000; ++k) {
    const int n = 2 + static_cast<int>(rng() % 15);
    const State s = perm_unrank(rng() % kFactorial[static_cast<std::size_t>(n)], n);
    const State inv = inverse_perm(s, n);
    for (int i = 0; i < n; ++i) ASSERT_EQ(get_cell(inv, static_cast<int>(get_cell(s, i))), static_cast<unsigned>(i));
    ASSERT_EQ(perm_parity(s, n), perm_parity(inv, n));
    // A transposition flips the parity.
    ASSERT_NE(perm_parity(s, n), perm_parity(swap_cells(s, 0, n - 1), n));
  }
}

TEST(RankTest, ParityRankIsABijectionOntoHalfTheRanks) {
  for (int n = 2; n <= 8; ++n) {
    for (unsigned parity = 0; parity < 2; ++parity) {
      const std::uint64_t half = kFactorial[static_cast<std::size_t>(n)] / 2;
      std::set<State> seen;
      for (std::uint64_t r = 0; r < half; ++r) {
        const State s = parity_unrank(r, n, parity);
        ASSERT_EQ(perm_parity(s, n), parity);
        ASSERT_EQ(parity_rank(s, n), r);
        seen.insert(s);
      }
      EXPECT_EQ(seen.size(), half);
    }
  }
}

TEST(RankTest, MultisetRankIsABijection) {
  for (const auto& counts :
       std::vector<std::vector<int>>{{1, 3, 1, 1}, {2, 2}, {1, 1, 1}, {3, 1, 2, 1}, {1, 13, 1, 1}}) {
    const MultisetRanker ranker(counts);
    std::set<State> seen;
    State previous = 0;
    for (std::uint64_t r = 0; r < ranker.size(); ++r) {
      const State s = ranker.unrank(r);
      std::vector<int> c(counts.size(), 0);
      for (int i = 0; i < ranker.n(); ++i) ++c[get_cell(s, i)];
      ASSERT_EQ(c, counts);
      ASSERT_EQ(ranker.rank(s), r);
      // Lexicographic: the cells read as digits (cell 0 most significant) increase.
      State key = 0;
      for (int i = 0; i < ranker.n(); ++i) key = (key << 4) | get_cell(s, i);
      if (r > 0) ASSERT_GT(key, previous);
      previous = key;
      seen.insert(s);
    }
    EXPECT_EQ(seen.size(), ranker.size());
  }
  EXPECT_EQ(MultisetRanker({1, 3, 1, 1}).size(), 120u);
}

// PermCursor must agree with perm_unrank / parity_unrank on ascending runs with gaps
// (as a bitset scan produces them), across block boundaries, for every n it serves.
TEST(PermCursor, MatchesUnrankOnAscendingRuns) {
  std::mt19937_64 rng(7);
  for (int n = 2; n <= 16; ++n) {
    PermCursor cursor(n);
    const std::uint64_t size = kFactorial[static_cast<std::size_t>(n)];
    std::uint64_t r = size > 1000 ? rng() % (size - 1000) : 0;
    for (int step = 0; step < 2000 && r < size; ++step, r += 1 + rng() % 7)
      ASSERT_EQ(cursor.unrank(r), perm_unrank(r, n)) << "n=" << n << " rank=" << r;
  }
}

TEST(PermCursor, MatchesParityUnrank) {
  for (int n = 3; n <= 9; ++n) {
    for (unsigned parity_of_even_digit : {0u, 1u}) {
      // The parity is a function of the first Lehmer digit, as sliding uses it.
      auto parity_of = [&](unsigned d) { return (d + parity_of_even_digit) & 1u; };
      PermCursor cursor(n);
      const std::uint64_t half = kFactorial[static_cast<std::size_t>(n)] / 2;
      const std::uint64_t step = std::max<std::uint64_t>(1, half / 50000);
      for (std::uint64_t r = 0; r < half; r += step) {
        const unsigned first = get_cell(lehmer_digits(r << 1, n), 0);
        ASSERT_EQ(cursor.parity_unrank(r, parity_of), parity_unrank(r, n, parity_of(first)))
            << "n=" << n << " rank=" << r;
      }
    }
  }
}

}  // namespace
}  // namespace stategraph
