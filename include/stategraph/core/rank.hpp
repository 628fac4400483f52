// Bijections between states and ranks 0 .. size-1: permutations (Lehmer rank), one parity
// class of them, and permutations of a multiset.
//
//  * perm_rank / perm_unrank: lexicographic Lehmer (Cantor) rank of a permutation of
//    the symbols 0..n-1 held in the first n nibbles of a State, O(n) with a used-symbol
//    bit mask and popcount (Korf & Schultze, AAAI 2005) and a packed nibble list for
//    the inverse. Limit: 1 <= n <= 16, since 16! < 2^64 (checked by check_perm_size).
//  * parity_rank / parity_unrank: one parity class (n!/2 ranks): the first n-2
//    Lehmer digits are ranked, the last two symbols' order follows from the parity.
//  * PermCursor: perm_unrank / parity_unrank for ascending runs of ranks, with the
//    leading cells cached between calls (what a bitset scan needs).
//  * MultisetRanker: permutations of a multiset (identical pieces), exact while the
//    multinomial fits in 64 bits, which holds for every n <= 16.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "stategraph/core/state.hpp"

namespace stategraph {

inline constexpr std::array<std::uint64_t, 17> kFactorial = [] {
  std::array<std::uint64_t, 17> f{};
  f[0] = 1;
  for (int i = 1; i <= 16; ++i) f[i] = f[i - 1] * static_cast<std::uint64_t>(i);
  return f;
}();

inline void check_perm_size(int n) {
  if (n < 1 || n > kMaxCells) throw InputError("permutation size " + std::to_string(n) + " out of range 1..16");
}

// Identity permutation of n symbols: cell i holds i.
constexpr State identity_state(int n) {
  State s = 0;
  for (int i = 0; i < n; ++i) s |= State{static_cast<unsigned>(i)} << (4 * i);
  return s;
}

// Lexicographic rank of the permutation in the first n cells. Precondition: the
// cells hold each of 0..n-1 exactly once.
// The digits d_i are independent of each other given the prefix mask, so the sum
// d_i * (n-1-i)! is written out rather than in Horner form, so the multiplications do
// not wait on each other (not measured on its own; see the BFS benchmarks).
inline std::uint64_t perm_rank(State s, int n) {
  std::uint64_t rank = 0;
  unsigned used = 0;
  for (int i = 0; i < n; ++i) {
    const unsigned v = get_cell(s, i);
    const unsigned smaller_unused = v - static_cast<unsigned>(std::popcount(used & ((1u << v) - 1)));
    used |= 1u << v;
    rank += smaller_unused * kFactorial[static_cast<std::size_t>(n - 1 - i)];
  }
  return rank;
}

// Reciprocals for dividing a rank by a small base without a hardware division:
// q = floor(x * m / 2^64) with m = floor(2^64 / d) + 1 is exact for x < 2^64 / d
// (the error of m is below d, so x * error < 2^64 keeps q from rounding up); ranks
// are below 16! < 2^45 and bases at most 16, far inside that bound.
inline constexpr std::array<std::uint64_t, 17> kReciprocal = [] {
  std::array<std::uint64_t, 17> m{};
  for (unsigned d = 2; d <= 16; ++d) m[d] = ~std::uint64_t{0} / d + 1;
  return m;
}();

// floor(x / d) for 1 <= d <= 16 and x < 2^59.
__extension__ using UInt128 = unsigned __int128;

inline std::uint64_t divide_small(std::uint64_t x, unsigned d) {
  if (d == 1) return x;
  return static_cast<std::uint64_t>((static_cast<UInt128>(x) * kReciprocal[d]) >> 64);
}

// Lehmer digits d_0..d_{n-1} of a rank (digit i in nibble i): d_i < n - i.
inline State lehmer_digits(std::uint64_t rank, int n) {
  State digits = 0;
  for (int i = n - 2; i >= 0; --i) {  // digit n-1 has base 1 and is always 0
    const auto base = static_cast<unsigned>(n - i);
    const std::uint64_t q = divide_small(rank, base);
    digits |= State{rank - q * base} << (4 * i);
    rank = q;
  }
  return digits;
}

// The symbols not yet placed, packed ascending in nibbles (nibble t the t-th smallest):
// take_nth removes the d-th smallest and returns it, in O(1).
inline constexpr std::uint64_t kAllSymbols = 0xFEDCBA9876543210ull;
inline unsigned take_nth(std::uint64_t& pool, unsigned d) {
  const unsigned shift = 4 * d;
  const auto symbol = static_cast<unsigned>((pool >> shift) & 0xF);
  const std::uint64_t low = shift == 0 ? 0 : pool & ((std::uint64_t{1} << shift) - 1);
  pool = low | (((pool >> shift) >> 4) << shift);
  return symbol;
}

// Permutation whose Lehmer digits are given: digit d picks the d-th smallest unused symbol.
inline State perm_from_digits(State digits, int n) {
  std::uint64_t pool = kAllSymbols;
  State s = 0;
  for (int i = 0; i < n; ++i) s |= State{take_nth(pool, get_cell(digits, i))} << (4 * i);
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

// The first h cells of the permutations of n symbols whose Lehmer code starts with the
// digits of a prefix index p (p = floor(rank / (n-h)!): its digits in the bases n, n-1,
// ..., n-h+1), the symbols left over, and the digits themselves; for scans, where p
// mostly grows by a little. seek(p) then adds p - p_last to the stored digits with
// carries, which stop after a digit or two, and rebuilds only the cells from the highest
// changed digit on, from the pool kept before each cell; a jump down, or the first seek,
// decodes p whole. Equal to the first h cells of perm_unrank(p * (n-h)!, n) (rank_test.cpp).
// One per thread; 0 <= h <= n <= 16, p < n! / (n-h)!.
class LehmerPrefix {
 public:
  LehmerPrefix(int n, int h) : n_(n), h_(h) {
    check_perm_size(n);
    pools_[0] = kAllSymbols;
  }
  // Moves to prefix p; cells below the returned one are those of the last prefix (it is
  // h when p is the prefix held, 0 after a whole decode).
  int seek(std::uint64_t p) {
    if (p == p_) return h_;
    int from = 0;
    if (p > p_ && p_ != kNone) {  // carry p - p_ into the digits, lowest (base n-h+1) first
      std::uint64_t add = p - p_;
      int i = h_ - 1;
      for (;; --i) {
        const auto base = static_cast<unsigned>(n_ - i);
        const std::uint64_t d = get_cell(digits_, i) + add;
        if (d < base) {
          digits_ = set_cell(digits_, i, static_cast<unsigned>(d));
          break;
        }
        add = divide_small(d, base);
        digits_ = set_cell(digits_, i, static_cast<unsigned>(d - add * base));
      }
      from = i;
    } else {
      digits_ = 0;
      std::uint64_t q = p;
      for (int i = h_ - 1; i >= 0; --i) {
        const auto base = static_cast<unsigned>(n_ - i);
        const std::uint64_t next = divide_small(q, base);
        digits_ |= State{q - next * base} << (4 * i);
        q = next;
      }
    }
    p_ = p;
    std::uint64_t pool = pools_[static_cast<std::size_t>(from)];
    State cells = cells_ & ((State{1} << (4 * from)) - 1);
    for (int i = from; i < h_; ++i) {
      cells |= State{take_nth(pool, get_cell(digits_, i))} << (4 * i);
      pools_[static_cast<std::size_t>(i) + 1] = pool;
    }
    cells_ = cells;
    return from;
  }
  std::uint64_t index() const { return p_; }
  State digits() const { return digits_; }  // d_0 .. d_{h-1}; 0 beyond
  State cells() const { return cells_; }    // cells 0 .. h-1; 0 beyond
  // The symbols not in the cells, ascending: nibble t the t-th smallest (the n - h
  // symbols below n first).
  std::uint64_t pool() const { return pools_[static_cast<std::size_t>(h_)]; }

 private:
  static constexpr std::uint64_t kNone = ~std::uint64_t{0};
  int n_, h_;
  std::uint64_t p_ = kNone;
  State digits_ = 0, cells_ = 0;
  std::array<std::uint64_t, kMaxCells + 1> pools_{};  // [i]: the symbols left before cell i
};

// Unranks ascending runs of ranks cheaply, as a BFS scan of a bitset produces them.
// Ranks that agree in all but the last k = min(5, n-1) Lehmer digits (blocks of k!
// consecutive ranks) share their first n-k cells; the cursor caches those cells and
// the k symbols left over, and builds the last k cells from a table of the k!
// arrangements. A scan of a dense word then unranks in a few independent operations
// per state instead of a chain of n steps. Results equal perm_unrank / parity_unrank.
// One cursor per thread (it is mutable state); 1 <= n <= 16.
class PermCursor {
 public:
  // k, the number of trailing cells built from the table, for n cells.
  static constexpr int suffix_length_for(int n) { return std::max(0, std::min(5, n - 1)); }
  explicit PermCursor(int n)
      : n_(n), k_(suffix_length_for(n)), block_(kFactorial[static_cast<std::size_t>(k_)]), lehmer_(n, n - k_) {
    check_perm_size(n);
    reciprocal_ = block_ > 1 ? ~std::uint64_t{0} / block_ + 1 : 0;
    for (std::uint64_t x = 0; x < block_; ++x) {
      const State digits = lehmer_digits(x, k_);
      picks_[x] = perm_from_digits(digits, k_);
      unsigned sum = 0;
      for (int i = 0; i < k_; ++i) sum += get_cell(digits, i);
      parity_[x] = static_cast<std::uint8_t>(sum & 1u);
    }
  }

  // perm_unrank(rank, n).
  State unrank(std::uint64_t rank) {
    const std::uint64_t p = block_index(rank);
    if (p != lehmer_.index()) load_prefix(p);
    return lehmer_.cells() | suffix(rank - p * block_);
  }

  // parity_unrank(rank, n, parity), the parity given as a function of the first
  // Lehmer digit (sliding: the blank's cell); needs n >= 3.
  template <class ParityOfFirstDigit>
  State parity_unrank(std::uint64_t rank, ParityOfFirstDigit parity_of) {
    const std::uint64_t x = parity_suffix(rank, parity_of);  // loads the prefix first
    return lehmer_.cells() | suffix(x);
  }
  // inverse_perm(parity_unrank(rank, parity_of), n), built directly (the inverse of
  // the cached prefix is cached too).
  template <class ParityOfFirstDigit>
  State parity_unrank_inverse(std::uint64_t rank, ParityOfFirstDigit parity_of) {
    const std::uint64_t x = parity_suffix(rank, parity_of);
    const State picks = picks_[x];
    State out = prefix_inverse_;
    for (int j = 0; j < k_; ++j)
      out |= State{static_cast<unsigned>(n_ - k_ + j)} << (4 * ((lehmer_.pool() >> (4 * get_cell(picks, j))) & 0xF));
    return out;
  }

  // For scanners that work on the Lehmer code itself (Sliding::VerticalScanner): the
  // index x (0 <= x < suffix_count()) of the arrangement of the last k cells of
  // parity_unrank(rank, parity_of), after which the accessors below describe rank's
  // prefix: prefix_index() = floor(2 rank / k!), prefix_cells() its first n-k cells,
  // pool() the k symbols left over (ascending, nibble i the i-th smallest), and
  // picks(x) the arrangement (nibble j: the index in the pool of cell n-k+j's symbol).
  template <class ParityOfFirstDigit>
  std::uint64_t parity_suffix(std::uint64_t rank, ParityOfFirstDigit parity_of) {
    const std::uint64_t full = rank << 1;
    const std::uint64_t p = block_index(full);
    if (p != flip_prefix_) {  // once per prefix: the prefix's parity against the one wanted
      if (p != lehmer_.index()) load_prefix(p);
      flip_ = prefix_parity_ ^ (parity_of(first_digit_) & 1u), flip_prefix_ = p;
    }
    const std::uint64_t x = full - p * block_;  // even: the digit of weight 1! (n-2) is 0
    return x + ((flip_ ^ parity_[x]) & 1u);     // the odd neighbour when the parity is wrong
  }
  int suffix_length() const { return k_; }
  std::uint64_t suffix_count() const { return block_; }
  std::uint64_t prefix_index() const { return lehmer_.index(); }
  State prefix_cells() const { return lehmer_.cells(); }
  State pool() const { return lehmer_.pool(); }
  // The prefix's inverse (nibble v: the cell of symbol v, 0 for the pool's symbols) and its
  // symbols (bit v).
  State prefix_inverse() const { return prefix_inverse_; }
  unsigned prefix_symbols() const { return prefix_symbols_; }
  State picks(std::uint64_t x) const { return picks_[x]; }

 private:
  std::uint64_t block_index(std::uint64_t rank) const {
    if (block_ == 1) return rank;
    return static_cast<std::uint64_t>((static_cast<UInt128>(rank) * reciprocal_) >> 64);  // see kReciprocal
  }
  void load_prefix(std::uint64_t p) {
    const State old_cells = lehmer_.cells();
    const int from = lehmer_.seek(p);
    const State cells = lehmer_.cells();
    prefix_parity_ = static_cast<unsigned>(std::popcount(lehmer_.digits() & 0x1111111111111111ull)) & 1u;
    for (int i = from; i < n_ - k_; ++i) {
      const unsigned v = get_cell(old_cells, i);
      prefix_inverse_ &= ~(State{0xF} << (4 * v)), prefix_symbols_ &= ~(1u << v);
    }
    for (int i = from; i < n_ - k_; ++i) {
      const unsigned v = get_cell(cells, i);
      prefix_inverse_ |= State{static_cast<unsigned>(i)} << (4 * v), prefix_symbols_ |= 1u << v;
    }
    first_digit_ = get_cell(lehmer_.digits(), 0);
  }
  State suffix(std::uint64_t x) const {
    const State picks = picks_[x];
    State out = 0;
    const std::uint64_t pool = lehmer_.pool();
    for (int j = 0; j < k_; ++j) out |= ((pool >> (4 * get_cell(picks, j))) & 0xF) << (4 * (n_ - k_ + j));
    return out;
  }

  int n_, k_;
  std::uint64_t block_, reciprocal_ = 0;
  LehmerPrefix lehmer_;  // the first n-k cells of the prefix loaded
  std::array<State, 120> picks_{};
  std::array<std::uint8_t, 120> parity_{};
  State prefix_inverse_ = 0;
  unsigned prefix_symbols_ = 0;  // bit v: v is in the prefix's cells
  unsigned prefix_parity_ = 0, first_digit_ = 0, flip_ = 0;
  std::uint64_t flip_prefix_ = ~std::uint64_t{0};
};

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
