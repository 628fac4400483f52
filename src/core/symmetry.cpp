#include "stategraph/core/symmetry.hpp"

#include <algorithm>
#include <numeric>
#include <set>

namespace stategraph {

State Symmetry::apply(State s) const {
  State out = 0;
  for (std::size_t i = 0; i < cell.size(); ++i)
    out = set_cell(out, cell[i], static_cast<unsigned>(symbol[get_cell(s, static_cast<int>(i))]));
  return out;
}

Symmetry Symmetry::inverse() const {
  Symmetry inv{std::vector<int>(cell.size()), std::vector<int>(symbol.size())};
  for (std::size_t i = 0; i < cell.size(); ++i) inv.cell[static_cast<std::size_t>(cell[i])] = static_cast<int>(i);
  for (std::size_t v = 0; v < symbol.size(); ++v) inv.symbol[static_cast<std::size_t>(symbol[v])] = static_cast<int>(v);
  return inv;
}

bool Symmetry::identity() const {
  for (std::size_t i = 0; i < cell.size(); ++i)
    if (cell[i] != static_cast<int>(i)) return false;
  for (std::size_t v = 0; v < symbol.size(); ++v)
    if (symbol[v] != static_cast<int>(v)) return false;
  return true;
}

std::vector<std::vector<int>> grid_symmetries(Grid g) {
  const int r = g.rows, c = g.cols;
  // Each map takes (row, col) to (row', col') of a grid with the same shape.
  std::vector<std::function<std::pair<int, int>(int, int)>> maps = {
      [](int i, int j) {
        return std::pair{i, j};
      },
      [c](int i, int j) {
        return std::pair{i, c - 1 - j};
      },
      [r](int i, int j) {
        return std::pair{r - 1 - i, j};
      },
      [r, c](int i, int j) {
        return std::pair{r - 1 - i, c - 1 - j};
      },
  };
  if (r == c) {
    maps.push_back([](int i, int j) { return std::pair{j, i}; });
    maps.push_back([r](int i, int j) { return std::pair{r - 1 - j, r - 1 - i}; });
    maps.push_back([r](int i, int j) { return std::pair{j, r - 1 - i}; });
    maps.push_back([r](int i, int j) { return std::pair{r - 1 - j, i}; });
  }
  std::vector<std::vector<int>> out;
  for (const auto& m : maps) {
    std::vector<int> p(static_cast<std::size_t>(r * c));
    for (int i = 0; i < r; ++i)
      for (int j = 0; j < c; ++j) {
        const auto [i2, j2] = m(i, j);
        p[static_cast<std::size_t>(i * c + j)] = i2 * c + j2;
      }
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<std::vector<int>> symbol_automorphisms(int n, const std::function<bool(int, int)>& related) {
  std::vector<std::vector<int>> out;
  std::vector<int> p(static_cast<std::size_t>(n), -1);
  std::vector<bool> used(static_cast<std::size_t>(n), false);
  // Symbols are assigned in order 0..n-1; each choice must agree with every earlier one.
  std::function<void(int)> extend = [&](int a) {
    if (a == n) {
      out.push_back(p);
      return;
    }
    for (int b = 0; b < n; ++b) {
      if (used[static_cast<std::size_t>(b)]) continue;
      bool ok = true;
      for (int x = 0; x < a && ok; ++x) ok = related(x, a) == related(p[static_cast<std::size_t>(x)], b);
      if (!ok) continue;
      p[static_cast<std::size_t>(a)] = b;
      used[static_cast<std::size_t>(b)] = true;
      extend(a + 1);
      used[static_cast<std::size_t>(b)] = false;
    }
  };
  extend(0);
  return out;  // the identity is the lexicographically first permutation, found first
}

std::vector<Symmetry> symmetry_products(const std::vector<std::vector<int>>& cells,
                                        const std::vector<std::vector<int>>& symbols) {
  std::vector<Symmetry> out;
  for (const auto& s : symbols)
    for (const auto& c : cells) out.push_back(Symmetry{c, s});
  return out;
}

}  // namespace stategraph
