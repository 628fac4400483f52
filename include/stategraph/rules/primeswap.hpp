// primeswap: numbers 1..n on an r x c grid (symbol v-1 for number v); two 4-adjacent
// cells may swap when the sum of their numbers is prime. Undirected; goal 1..n; not
// every state reaches the goal. Ranking: all n! permutations.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "stategraph/core/rank.hpp"
#include "stategraph/rules/grid_rule.hpp"

namespace stategraph {

class PrimeSwap : public GridRule {
 public:
  static constexpr std::string_view kName = "primeswap";
  explicit PrimeSwap(Grid g) : GridRule(g) {
    check_perm_size(n_);
    // Sums of two symbols (numbers - 1) range over 1..29; bit k set when k + 2 is prime.
    for (unsigned k = 0; k < 32; ++k) {
      const unsigned v = k + 2;
      bool prime = v >= 2;
      for (unsigned d = 2; d * d <= v; ++d)
        if (v % d == 0) prime = false;
      if (prime) prime_sum_mask_ |= 1u << k;
    }
  }

  std::string_view name() const { return kName; }
  bool directed() const { return false; }
  int max_degree() const { return static_cast<int>(adjacent_pairs().size()); }
  std::uint64_t size() const { return kFactorial[static_cast<std::size_t>(n_)]; }
  std::uint64_t rank(State s) const { return perm_rank(s, n_); }
  State unrank(std::uint64_t r) const { return perm_unrank(r, n_); }
  // unrank for ascending scans (see PermCursor); one per thread.
  struct Unranker {
    PermCursor cursor;
    State operator()(std::uint64_t r) { return cursor.unrank(r); }
  };
  Unranker unranker() const { return Unranker{PermCursor(n_)}; }
  bool in_space(State) const { return true; }
  std::vector<State> goals() const { return {identity_state(n_)}; }

  // True when the numbers held by symbols a and b sum to a prime.
  bool may_swap(unsigned a, unsigned b) const { return (prime_sum_mask_ >> (a + b)) & 1u; }

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
  template <class F>
  void for_each_successor(State s, F&& f) const {
    for_each_move(s, [&f](const auto&, State t) { return emit_neighbour(f, t); });
  }
  template <class F>
  void for_each_predecessor(State s, F&& f) const {
    for_each_successor(s, f);
  }

  // Whether a swap applies depends on the numbers: no fixed permutation, no symmetry used.
  int max_move_order() const { return 0; }
  DiameterSymmetry diameter_symmetry() const { return DiameterSymmetry::kNone; }

  std::string format(State s) const {
    std::vector<std::string> labels;
    for (int i = 0; i < n_; ++i) labels.push_back(std::to_string(get_cell(s, i) + 1));
    return join_cells(labels, true);
  }
  State parse(std::string_view text) const { return pack_permutation(parse_numbers(text, n_, -1), n_); }
  JudgeFormat judge_format() const { return JudgeFormat::kNumberGrids; }
  bool from_numbers(const int* v, State& s, int& bad, std::string& error) const {
    return permutation_from_numbers(v, n_, s, bad, error);
  }

 private:
  unsigned prime_sum_mask_ = 0;
};

}  // namespace stategraph
