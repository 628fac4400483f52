// primeswap: numbers 1..n on an r x c grid (symbol v-1 for number v); two 4-adjacent
// cells may swap when the sum of their numbers is prime. Undirected; goal 1..n; not
// every state reaches the goal. Ranking: all n! permutations.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "stategraph/core/symmetry.hpp"
#include "stategraph/rules/number_grid_rule.hpp"

namespace stategraph {

class PrimeSwap : public NumberGridRule<PrimeSwap> {
 public:
  static constexpr std::string_view kName = "primeswap";
  explicit PrimeSwap(Grid g) : NumberGridRule(g) {
    // Sums of two symbols (numbers - 1) range over 1..29; bit k set when k + 2 is prime.
    for (unsigned k = 0; k < 32; ++k) {
      const unsigned v = k + 2;
      bool prime = v >= 2;
      for (unsigned d = 2; d * d <= v; ++d)
        if (v % d == 0) prime = false;
      if (prime) prime_sum_mask_ |= 1u << k;
    }
    set_move_perms(swap_perms(), {});
    pair_mask_ = pairs_.size() >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << pairs_.size()) - 1;
    for (std::size_t j = 0; j < pairs_.size() && j < shift_.size(); ++j)
      shift_[j] = {static_cast<std::uint8_t>(4 * pairs_[j][0]), static_cast<std::uint8_t>(4 * pairs_[j][1])};
  }

  std::string_view name() const { return kName; }
  bool directed() const { return false; }
  int max_degree() const { return static_cast<int>(adjacent_pairs().size()); }

  // True when the numbers held by symbols a and b sum to a prime.
  bool may_swap(unsigned a, unsigned b) const { return (prime_sum_mask_ >> (a + b)) & 1u; }
  // Bit j set when the swap of the j-th adjacent pair applies to s, for the pairs j of
  // `among` (the incremental ranks' filter; at most 24 pairs on 16 cells).
  [[gnu::always_inline]] std::uint64_t applicable_moves(State s, std::uint64_t among = ~std::uint64_t{0}) const {
    std::uint64_t mask = 0;
    for (among &= pair_mask_; among; among &= among - 1) {
      const auto j = static_cast<unsigned>(std::countr_zero(among));
      mask |= std::uint64_t{may_swap((s >> shift_[j][0]) & 0xF, (s >> shift_[j][1]) & 0xF)} << j;
    }
    return mask;
  }

  // Labels: the swapped numbers, smaller first: 2-3.
  template <class F>
  void for_each_move(State s, F&& f) const {
    for (const auto& p : pairs_) {
      const unsigned a = get_cell(s, p[0]), b = get_cell(s, p[1]);
      if (!may_swap(a, b)) continue;
      const auto label = [&] { return std::to_string(std::min(a, b) + 1) + "-" + std::to_string(std::max(a, b) + 1); };
      if (emit_move(f, label, swap_cells(s, p[0], p[1]))) return;
    }
  }

  // The graph's automorphisms: the grid's symmetries times the relabellings of the numbers
  // that keep every sum's primality (a move's condition): 4 x 64 on 3x4 (1..12).
  std::vector<Symmetry> automorphisms() const {
    const auto symbols = symbol_automorphisms(
        n_, [this](int a, int b) { return may_swap(static_cast<unsigned>(a), static_cast<unsigned>(b)); });
    return symmetry_products(grid_symmetries(grid_), symbols);
  }

  // Whether a swap applies depends on the numbers: no fixed permutation, no symmetry used.
  int max_move_order() const { return 0; }
  DiameterSymmetry diameter_symmetry() const { return DiameterSymmetry::kNone; }

 private:
  unsigned prime_sum_mask_ = 0;
  std::uint64_t pair_mask_ = 0;                          // bit j for each adjacent pair
  std::array<std::array<std::uint8_t, 2>, 64> shift_{};  // the pairs' cells' bit offsets
};

}  // namespace stategraph
