// Symmetries of a grid puzzle's state graph: a cell permutation that keeps the grid's
// 4-adjacency, combined with a relabelling of the symbols.
//
// When a rule's moves are
// defined by adjacency and by a relation between symbols that the relabelling keeps
// (primeswap: "the sum is prime"), such a pair maps moves to moves, so it is a graph
// automorphism: it maps components to components and keeps distances and
// eccentricities (d(g.x, g.y) = d(x, y)).
#pragma once

#include <functional>
#include <vector>

#include "stategraph/core/state.hpp"

namespace stategraph {

struct Symmetry {
  std::vector<int> cell;    // cell i moves to cell[i]
  std::vector<int> symbol;  // symbol v becomes symbol[v]
  // g.s: (g.s)[cell[i]] = symbol[s[i]] for the first cells.size() cells.
  State apply(State s) const;
  // The inverse: inverse().apply(apply(s)) == s.
  Symmetry inverse() const;
  bool identity() const;
};

// The cell permutations of an r x c grid that keep 4-adjacency (as permutations of the
// row-major cell indices): the identity, both mirrors and the half turn, plus the
// quarter turns and diagonal mirrors when the grid is square. 4 or 8 of them.
std::vector<std::vector<int>> grid_symmetries(Grid g);

// Every permutation p of the symbols 0..n-1 with related(a, b) == related(p[a], p[b])
// for all a != b: the automorphisms of the symbol graph `related` (a symmetric
// relation), found by backtracking. The identity comes first.
std::vector<std::vector<int>> symbol_automorphisms(int n, const std::function<bool(int, int)>& related);

// All products of the given cell and symbol permutations, the identity first.
std::vector<Symmetry> symmetry_products(const std::vector<std::vector<int>>& cells,
                                        const std::vector<std::vector<int>>& symbols);

}  // namespace stategraph
