// What every grid rule shares: the grid, its 4-neighbourhood table, and the text
// form of a state ("1 2 3/4 5 6/7 8 _": rows split by '/', cells by spaces).
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "stategraph/core/state.hpp"
#include "stategraph/rules/properties.hpp"

namespace stategraph {

class GridRule {
 public:
  explicit GridRule(Grid g);

  const Grid& grid() const { return grid_; }
  int rows() const { return grid_.rows; }
  int cols() const { return grid_.cols; }
  int cells() const { return n_; }

  // Up to four neighbours of a cell, then -1.
  const std::array<int, 4>& neighbours(int cell) const { return nbr_[static_cast<std::size_t>(cell)]; }
  // Each unordered pair of 4-adjacent cells once, (a, b) with a < b.
  const std::vector<std::array<int, 2>>& adjacent_pairs() const { return pairs_; }
  // The swap of each adjacent pair, in that order, as a cell permutation (t[i] = s[p[i]]).
  std::vector<std::vector<int>> swap_perms() const {
    std::vector<std::vector<int>> out;
    for (const auto& [a, b] : pairs_) {
      std::vector<int> p(static_cast<std::size_t>(n_));
      for (int i = 0; i < n_; ++i) p[static_cast<std::size_t>(i)] = i;
      p[static_cast<std::size_t>(a)] = b, p[static_cast<std::size_t>(b)] = a;
      out.push_back(std::move(p));
    }
    return out;
  }
  // "r2c3": a cell by its 1-based row and column (move labels).
  std::string cell_label(int cell) const {
    return "r" + std::to_string(cell / grid_.cols + 1) + "c" + std::to_string(cell % grid_.cols + 1);
  }

 protected:
  // Joins the cell labels row by row.
  std::string join_cells(const std::vector<std::string>& labels, bool spaced) const;

  Grid grid_;
  int n_;
  std::array<std::array<int, 4>, kMaxCells> nbr_{};
  std::vector<std::array<int, 2>> pairs_;
};

// Splits a numeric grid into n numbers. Accepts separators ' ', '\t', '\n', '/', ',';
// '_' stands for `blank_value`; a single run of exactly n digits (n <= 9) is read one
// digit per cell ("152463789"). Throws InputError naming the problem.
std::vector<int> parse_numbers(std::string_view text, int n, int blank_value);

// Packs numbers 1..n (each exactly once) as symbols 0..n-1; `what` names the input.
State pack_permutation(const std::vector<int>& numbers, int n);

}  // namespace stategraph
