// Helpers shared by defs_test.cpp and defs_solve_test.cpp.
#pragma once

#include <string>
#include <vector>

#include "disk_support.hpp"
#include "stategraph/bfs/bfs.hpp"

namespace stategraph::defs_test {

inline const std::string kDefs = std::string(STATEGRAPH_SOURCE_DIR) + "/results/defs/";

// The published distance distribution of the 3x3 rotation puzzle with turns both ways
// (four 2x2 blocks, 9! states, maximum 11): an external fact, so written out here.
inline const std::vector<std::uint64_t> kBoth3x3 = {1, 8, 52, 328, 1996, 11336, 51582, 130042, 125929, 39706, 1880, 20};

inline AnyRule defined(const std::string& file, const char* metric = nullptr, int rows = 0, int cols = 0) {
  RuleOptions o;
  if (metric) o.metric = metric;
  return make_rule("file:" + kDefs + file, rows, cols, o);
}

inline AnyRule rotate_both(int rows, int cols) {
  RuleOptions o;
  o.directions = "both";
  return make_rule("rotate", rows, cols, o);
}

// A definition text for any rule whose moves are fixed permutations of the cells
// (rotate): each move's line is the state the move makes from the identity, which is
// its passive permutation. Moves m1, m2, ... in the rule's successor order.
template <class R>
std::string definition_of(const R& rule) {
  const int n = rule.cells();
  std::string text = "Name gen\nSet P " + std::to_string(n) + " 1\nSolved\nEnd\n";
  int k = 0;
  rule.for_each_successor(identity_state(n), [&](State t) {
    text += "Move m" + std::to_string(++k) + "\nP\n";
    for (int i = 0; i < n; ++i) text += std::to_string(get_cell(t, i) + 1) + (i + 1 < n ? " " : "\n");
    text += "End\n";
  });
  return text;
}

inline std::vector<std::uint64_t> layers(const AnyRule& rule, std::string_view variant = "hybrid") {
  return test::run_variant(find_variant(variant), rule, BfsOptions{}).layers;
}

// Identical pieces on a 2x4 rotate-like puzzle with a directed 3-cycle, so that the
// space splits into several components and the graph is directed.
inline const std::string kMultiset =
    "Name multi\nSet P 8 1\nSolved\nP\n1 1 2 2 3 3 4 4\nEnd\n"
    "Move L\nP\n5 1 3 4 2 6 7 8\nEnd\n"   // (1 2 5) as a passive 3-cycle
    "Move R\nP\n1 2 4 8 5 6 3 7\nEnd\n"   // a 4-cycle on positions 3 4 8 7
    "Move M\nP\n1 6 3 4 5 2 7 8\nEnd\n";  // a swap

}  // namespace stategraph::defs_test
