#include "stategraph/core/rank.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <set>
#include <vector>

#include "stategraph/core/move_rank.hpp"

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

// LehmerPrefix against lehmer_digits / perm_from_digits of the prefix's first rank, on runs
// that step up by 1, by a few, by whole digits (carries through several cells) and jump
// down, for every prefix length of every n; cells below seek's answer must not change.
TEST(LehmerPrefix, MatchesTheDigitsAndCellsOfTheFirstRank) {
  std::mt19937_64 rng(11);
  for (int n = 1; n <= 16; ++n) {
    for (int h = 0; h <= n; ++h) {
      const std::uint64_t block = kFactorial[static_cast<std::size_t>(n - h)];
      const std::uint64_t count = kFactorial[static_cast<std::size_t>(n)] / block;  // prefixes
      LehmerPrefix prefix(n, h);
      std::uint64_t p = count > 64 ? rng() % (count - 64) : 0;
      for (int step = 0; step < 400; ++step) {
        const State before = prefix.cells();
        const int from = prefix.seek(p);
        const State digits = lehmer_digits(p * block, n);
        const State mask = h == 16 ? ~State{0} : (State{1} << (4 * h)) - 1;
        ASSERT_EQ(prefix.index(), p);
        ASSERT_EQ(prefix.digits(), digits & mask) << "n=" << n << " h=" << h << " p=" << p;
        const State perm = perm_from_digits(digits, n);
        ASSERT_EQ(prefix.cells(), perm & mask) << "n=" << n << " h=" << h << " p=" << p;
        std::vector<unsigned> rest;  // the symbols of cells h.., ascending
        for (int i = h; i < n; ++i) rest.push_back(get_cell(perm, i));
        std::sort(rest.begin(), rest.end());
        std::uint64_t pool = 0;
        for (std::size_t t = 0; t < rest.size(); ++t) pool |= std::uint64_t{rest[t]} << (4 * t);
        ASSERT_EQ(prefix.pool() & (n - h == 16 ? ~State{0} : (State{1} << (4 * (n - h))) - 1), pool)
            << "n=" << n << " h=" << h << " p=" << p;
        if (step > 0) {
          const State low = from >= 16 ? ~State{0} : (State{1} << (4 * from)) - 1;
          ASSERT_EQ(prefix.cells() & low, before & low) << "n=" << n << " h=" << h << " p=" << p;
        }
        // Next: mostly small steps up, sometimes a digit's worth or more, sometimes down.
        const std::uint64_t kind = rng() % 8;
        std::uint64_t next = kind < 5   ? p + 1 + rng() % 3
                             : kind < 7 ? p + 1 + rng() % (1 + std::min<std::uint64_t>(count, 5000))
                                        : rng() % count;
        if (next >= count) next = rng() % count;
        p = next;
      }
    }
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

// MoveRanks against perm_rank of the moved state: random cell permutations of every
// window width (a 3-cycle, a swap, a permutation of a window, the identity, a full
// shuffle), with every split from none to the whole state, on every state of n = 1..7
// and on random states of n = 12 and 16.
TEST(MoveRanks, EqualPermRankOfTheMovedState) {
  std::mt19937_64 rng(7);
  for (int n : {1, 2, 3, 5, 7, 12, 16}) {
    std::vector<std::vector<int>> moves;
    for (int k = 0; k < 24; ++k) {
      std::vector<int> p(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) p[static_cast<std::size_t>(i)] = i;
      const int lo = static_cast<int>(rng() % static_cast<unsigned>(n));
      const int hi = lo + static_cast<int>(rng() % static_cast<unsigned>(n - lo));
      if (k % 6 == 1 && hi > lo) {
        std::swap(p[static_cast<std::size_t>(lo)], p[static_cast<std::size_t>(hi)]);
      } else if (k % 6 == 2 && hi >= lo + 2) {
        const int mid = lo + 1 + static_cast<int>(rng() % static_cast<unsigned>(hi - lo - 1));
        p[static_cast<std::size_t>(lo)] = mid, p[static_cast<std::size_t>(mid)] = hi,
        p[static_cast<std::size_t>(hi)] = lo;
      } else if (k % 6 == 3) {
        std::shuffle(p.begin(), p.end(), rng);
      } else if (k % 6 != 4) {
        std::shuffle(p.begin() + lo, p.begin() + hi + 1, rng);
      }
      moves.push_back(p);
    }
    for (int m = 0; m <= std::min(n, 8); ++m) {
      const MoveRanks ranks(n, moves, m);
      ASSERT_EQ(ranks.moves(), moves.size());
      if (m == n) ASSERT_EQ(ranks.table_moves(), moves.size());
      if (m == 0) ASSERT_EQ(ranks.table_moves(), 0u);
      const std::uint64_t total = kFactorial[static_cast<std::size_t>(n)];
      const std::uint64_t samples = n <= 7 ? total : 3000;
      for (std::uint64_t k = 0; k < samples; ++k) {
        const std::uint64_t r = n <= 7 ? k : rng() % total;
        const State s = perm_unrank(r, n);
        std::vector<std::uint64_t> want, got;
        for (const auto& p : moves) {
          State t = 0;
          for (int i = 0; i < n; ++i) t = set_cell(t, i, get_cell(s, p[static_cast<std::size_t>(i)]));
          want.push_back(perm_rank(t, n));
        }
        ranks.for_each_rank(
            s, r, [](std::size_t) { return true; }, [&](std::uint64_t q) { got.push_back(q); });
        ASSERT_EQ(got, want) << "n " << n << " split " << m << " rank " << r;
        // A filter or a mask skips moves; a callback returning true stops the walk.
        got.clear();
        ranks.for_each_rank(
            s, r, [](std::size_t j) { return j % 2 == 1; }, [&](std::uint64_t q) { got.push_back(q); });
        for (std::size_t j = 0; j < got.size(); ++j) ASSERT_EQ(got[j], want[2 * j + 1]);
        std::vector<std::uint64_t> of;  // the same moves named by a bit mask
        const std::uint64_t odd = 0xAAAAAAAAAAAAAAAAull & ((std::uint64_t{1} << moves.size()) - 1);
        ranks.for_each_rank_of(s, r, odd, [&](std::uint64_t q) { of.push_back(q); });
        ASSERT_EQ(of, got);
        int calls = 0;
        ranks.for_each_rank(
            s, r, [](std::size_t) { return true; }, [&](std::uint64_t) { return ++calls == 2; });
        ASSERT_EQ(calls, std::min<int>(2, static_cast<int>(moves.size())));
      }
    }
  }
}


// Suffix reversals (the pancake flips: f_k reverses the last k cells) by reversal_ranks:
// the scalar pass and, where compiled in, the AVX-512 one, against perm_rank of the
// flipped state, for n = 2..16, on random ranks and on the ranks next to multiples of k!
// (where the remainder's correction matters); then for_each_rank with the reversals
// mixed with table moves and other window moves, and with a mask that skips some.
TEST(MoveRanks, SuffixReversalsEqualPermRankOfTheFlippedState) {
  std::mt19937_64 rng(11);
  for (int n = 2; n <= 16; ++n) {
    std::vector<std::vector<int>> moves;
    for (int k = 2; k <= n; ++k) {
      std::vector<int> p(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) p[static_cast<std::size_t>(i)] = i < n - k ? i : 2 * n - k - 1 - i;
      moves.push_back(p);
    }
    if (n >= 4) {  // a window move that is no reversal: a swap of the first and last cells
      std::vector<int> p(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) p[static_cast<std::size_t>(i)] = i;
      std::swap(p.front(), p.back());
      moves.push_back(p);
    }
    const std::uint64_t total = kFactorial[static_cast<std::size_t>(n)];
    std::vector<std::uint64_t> ranks{0, total - 1};
    for (int k = 2; k <= n; ++k)
      for (std::uint64_t q = kFactorial[static_cast<std::size_t>(k)]; q < total && q != 0; q *= 3)
        ranks.push_back(q), ranks.push_back(q - 1);
    for (int i = 0; i < 500; ++i) ranks.push_back(rng() % total);
    for (int m : {0, std::min(n, 8)}) {
      const MoveRanks mr(n, moves, m);
      // The reversals outside the table: every f_k with k > m (all but none without SIMD).
      std::uint64_t outside = 0;
      for (int k = std::max(m + 1, 2); k <= n; ++k) outside |= std::uint64_t{1} << (k - 2);
      if (STATEGRAPH_REVERSAL_SIMD) ASSERT_EQ(mr.reversal_moves(), outside) << "n " << n << " split " << m;
      for (const std::uint64_t r : ranks) {
        const State s = perm_unrank(r, n);
        std::vector<std::uint64_t> want;
        for (const auto& p : moves) {
          State t = 0;
          for (int i = 0; i < n; ++i) t = set_cell(t, i, get_cell(s, p[static_cast<std::size_t>(i)]));
          want.push_back(perm_rank(t, n));
        }
        std::array<std::uint64_t, 64> scalar{}, fast{};
        mr.reversal_ranks_scalar(s, r, outside, scalar.data());
        mr.reversal_ranks(s, r, outside, fast.data());
        for (int k = std::max(m + 1, 2); k <= n; ++k) {
          const auto j = static_cast<std::size_t>(k - 2);
          ASSERT_EQ(scalar[j], want[j]) << "scalar, n " << n << " flip " << k << " rank " << r;
          ASSERT_EQ(fast[j], want[j]) << "n " << n << " flip " << k << " rank " << r;
        }
        std::vector<std::uint64_t> got;
        mr.for_each_rank(
            s, r, [](std::size_t) { return true; }, [&](std::uint64_t q) { got.push_back(q); });
        ASSERT_EQ(got, want) << "n " << n << " split " << m << " rank " << r;
        got.clear();
        const std::uint64_t odd = 0xAAAAAAAAAAAAAAAAull & ((std::uint64_t{1} << moves.size()) - 1);
        mr.for_each_rank_of(s, r, odd, [&](std::uint64_t q) { got.push_back(q); });
        ASSERT_EQ(got.size(), moves.size() / 2);
        for (std::size_t j = 0; j < got.size(); ++j) ASSERT_EQ(got[j], want[2 * j + 1]);
      }
    }
  }
}

}  // namespace
}  // namespace stategraph
