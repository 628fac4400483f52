// The vocabulary a rule type describes itself with, so that no consumer has to test
// which rule it holds: labelled moves (emit_move), the judge input format, the symmetry
// a diameter may use, and the conversion of a judge's number grid into a state.
#pragma once

#include <string>
#include <type_traits>

#include "stategraph/core/state.hpp"

namespace stategraph {

// Hands one labelled move to a for_each_move callback f(label, t): `label` is a
// callable returning the move's name as a std::string, built only when called (the
// successor loops derived from for_each_move never call it, so they cost no more than
// a plain loop). Like emit_neighbour, f may return bool: true means "stop".
template <class F, class L>
inline bool emit_move(F& f, const L& label, State t) {
  if constexpr (std::is_convertible_v<std::invoke_result_t<F&, const L&, State>, bool>) {
    return static_cast<bool>(f(label, t));
  } else {
    f(label, t);
    return false;
  }
}

// Successors derived from a rule's labelled moves (Derived::for_each_move), and for an
// undirected rule its predecessors, which are its successors. A directed rule defines
// its own for_each_predecessor, which hides this one.
template <class Derived>
class MoveNeighbours {
 public:
  template <class F>
  void for_each_successor(State s, F&& f) const {
    static_cast<const Derived&>(*this).for_each_move(s, [&f](const auto&, State t) { return emit_neighbour(f, t); });
  }
  template <class F>
  void for_each_predecessor(State s, F&& f) const {
    for_each_successor(s, f);
  }
};

// How `solve` reads a rule's queries (see parse_queries in solve/solve.hpp).
enum class JudgeFormat {
  kNumberGrids,  // a line with T, then T grids of numbers; the rule has from_numbers()
  kBoards,       // optionally T, then boards of characters read by the rule's parse()
};

// A symmetry of the state graph that a diameter computation may use (the proofs are
// at the top of src/analysis/diameter.cpp).
enum class DiameterSymmetry {
  kNone,         // no known symmetry: the exact method
  kCayley,       // vertex-transitive per component: diameter = any vertex's eccentricity
  kBlankOrbits,  // eccentricity depends only on the blank's cell up to grid mirrors; the
                 // rule has blank_cell(s) and state_with_blank(cell)
};

// The '_' token of a judge's number grid.
inline constexpr int kBlankNumber = -2;

// A judge's numbers 1..n (each once) as symbols 0..n-1: the permutation rules'
// from_numbers. False with `bad` (the index of the first offending number) and `error`
// set otherwise.
inline bool permutation_from_numbers(const int* v, int n, State& s, int& bad, std::string& error) {
  unsigned seen = 0;
  s = 0;
  for (int i = 0; i < n; ++i) {
    if (v[i] == kBlankNumber) {
      error = "'_' (a blank) is not a number of this rule";
      return bad = i, false;
    }
    if (v[i] < 1 || v[i] > n) {
      error = "number " + std::to_string(v[i]) + " out of range 1.." + std::to_string(n);
      return bad = i, false;
    }
    if (seen & (1u << (v[i] - 1))) {
      error = "number " + std::to_string(v[i]) + " appears twice";
      return bad = i, false;
    }
    seen |= 1u << (v[i] - 1);
    s = set_cell(s, i, static_cast<unsigned>(v[i] - 1));
  }
  return true;
}

}  // namespace stategraph
