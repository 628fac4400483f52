// Bijections between states and ranks 0 .. size-1.
//  * perm_rank / perm_unrank: lexicographic Lehmer (Cantor) rank of a permutation of
//    the symbols 0..n-1 held in the first n nibbles of a State, O(n) with a used-symbol
//    bit mask and popcount (Korf & Schultze, AAAI 2005) and a packed nibble list for
//    the inverse. Limit: 1 <= n <= 16, since 16! < 2^64 (checked by check_perm_size).
//  * parity_rank / parity_unrank: one parity class (n!/2 ranks): the first n-2
//    Lehmer digits are ranked, the last two symbols' order follows from the parity.
//  * MultisetRanker: permutations of a multiset (identical pieces), exact while the
//    multinomial fits in 64 bits, which holds for every n <= 16.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "stategraph/state.hpp"

namespace stategraph {

inline constexpr std::array<std::uint64_t, 17> kFactorial = [] {
  std::array<std::uint64_t, 17> f{};
  f[0] = 1;
  for (int i = 1; i <= 16; ++i) f[i] = f[i - 1] * static_cast<std::uint64_t>(i);
  return f;
}();

inline void check_perm_size(int n) {
  if (n < 1 || n > kMaxCells)
    throw InputError("permutation size " + std::to_string(n) + " out of range 1..16");
}

// Identity permutation of n symbols: cell i holds i.
constexpr State identity_state(int n) {
  State s = 0;
  for (int i = 0; i < n; ++i) s |= State{static_cast<unsigned>(i)} << (4 * i);
  return s;
}

// Lexicographic rank of the permutation in the first n cells. Precondition: the
// cells hold each of 0..n-1 exactly once.
inline std::uint64_t perm_rank(State s, int n) {
  std::uint64_t rank = 0;
  unsigned used = 0;
  for (int i = 0; i < n; ++i) {
    const unsigned v = get_cell(s, i);
    const unsigned smaller_unused = v - static_cast<unsigned>(std::popcount(used & ((1u << v) - 1)));
    used |= 1u << v;
    rank = rank * static_cast<std::uint64_t>(n - i) + smaller_unused;  // Horner form of sum d_i (n-1-i)!
  }
  return rank;
}

// Lehmer digits d_0..d_{n-1} of a rank (digit i in nibble i): d_i < n - i.
inline State lehmer_digits(std::uint64_t rank, int n) {
  State digits = 0;
  for (int i = n - 1; i >= 0; --i) {
    const auto base = static_cast<std::uint64_t>(n - i);
    digits |= State{rank % base} << (4 * i);
    rank /= base;
  }
  return digits;
}

// Permutation whose Lehmer digits are given: digit d picks the d-th smallest unused
// symbol, taken out of a packed nibble list in O(1).
inline State perm_from_digits(State digits, int n) {
  std::uint64_t pool = 0xFEDCBA9876543210ull;
  State s = 0;
  for (int i = 0; i < n; ++i) {
    const unsigned shift = 4 * get_cell(digits, i);
    s |= ((pool >> shift) & 0xF) << (4 * i);
    const std::uint64_t low = shift == 0 ? 0 : pool & ((std::uint64_t{1} << shift) - 1);
    pool = low | (((pool >> shift) >> 4) << shift);
  }
  return s;
}

inline State perm_unrank(std::uint64_t rank, int n) { return perm_from_digits(lehmer_digits(rank, n), n); }

// Parity of the permutation (0 even, 1 odd): the parity of its Lehmer digit sum.
inline unsigned perm_parity(State s, int n) {
  unsigned sum = 0, used = 0;
  for (int i = 0; i < n; ++i) {
    const unsigned v = get_cell(s, i);
    sum += v - static_cast<unsigned>(std::popcount(used & ((1u << v) - 1)));
    used |= 1u << v;
  }
  return sum & 1u;
}

// Inverse permutation: cell v of the result holds the position of symbol v.
inline State inverse_perm(State s, int n) {
  State inv = 0;
  for (int i = 0; i < n; ++i) inv |= State{static_cast<unsigned>(i)} << (4 * get_cell(s, i));
  return inv;
}

// Rank among the n!/2 permutations of one parity. The lexicographic rank's last two
// digits are d_{n-2} * 1! + d_{n-1} * 0! = d_{n-2} in {0, 1}, and d_{n-2} is fixed by
// the parity, so dropping the lowest bit ranks the first n-2 digits. Needs n >= 2.
inline std::uint64_t parity_rank(State s, int n) { return perm_rank(s, n) >> 1; }

// Inverse of parity_rank for the class of the given parity.
inline State parity_unrank(std::uint64_t rank, int n, unsigned parity) {
  State digits = lehmer_digits(rank << 1, n);
  unsigned sum = 0;
  for (int i = 0; i < n - 2; ++i) sum += get_cell(digits, i);
  digits = set_cell(digits, n - 2, (sum ^ parity) & 1u);
  return perm_from_digits(digits, n);
}

// Ranks arrangements of a multiset of symbols 0..k-1 (counts[v] copies of v) in
// lexicographic order. size() = n! / prod(counts[v]!).
class MultisetRanker {
 public:
  MultisetRanker() = default;
  explicit MultisetRanker(std::vector<int> counts) : counts_(std::move(counts)) {
    n_ = 0;
    for (int c : counts_) {
      if (c < 0) throw InputError("negative piece count");
      n_ += c;
    }
    check_perm_size(n_);
    if (counts_.size() > 16) throw InputError("more than 16 distinct symbols");
  }
  int n() const { return n_; }
  std::uint64_t size() const { return arrangements(counts_, n_); }

  std::uint64_t rank(State s) const {
    std::array<int, 16> left{};
    for (std::size_t v = 0; v < counts_.size(); ++v) left[v] = counts_[v];
    std::uint64_t r = 0;
    for (int i = 0; i < n_; ++i) {
      const unsigned v = get_cell(s, i);
      for (unsigned u = 0; u < v; ++u) {
        if (left[u] == 0) continue;
        --left[u];
        r += arrangements(left, n_ - i - 1);
        ++left[u];
      }
      --left[v];
    }
    return r;
  }

  State unrank(std::uint64_t r) const {
    std::array<int, 16> left{};
    for (std::size_t v = 0; v < counts_.size(); ++v) left[v] = counts_[v];
    State s = 0;
    for (int i = 0; i < n_; ++i) {
      for (unsigned u = 0; u < counts_.size(); ++u) {
        if (left[u] == 0) continue;
        --left[u];
        const std::uint64_t block = arrangements(left, n_ - i - 1);
        if (r < block) {
          s = set_cell(s, i, u);
          break;
        }
        r -= block;
        ++left[u];
      }
    }
    return s;
  }

 private:
  template <class Counts>
  static std::uint64_t arrangements(const Counts& counts, int m) {
    std::uint64_t a = kFactorial[static_cast<std::size_t>(m)];
    for (int c : counts) a /= kFactorial[static_cast<std::size_t>(c)];
    return a;
  }

  std::vector<int> counts_;
  int n_ = 0;
};

}  // namespace stategraph
