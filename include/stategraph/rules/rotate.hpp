// rotate: numbers 1..n on an r x c grid (symbol v-1 for number v); a move turns one
// 2x2 block clockwise, "a b / c d" -> "c a / d b". Directed: the distance of a state
// is the number of clockwise turns to the goal 1..n, so a BFS from the goal follows
// predecessors (counter-clockwise turns). Every move is a bijection of the state set,
// so the graph is the Cayley graph of the group the turns generate. Ranking: all n!.
//
// Directions both (`--directions both`, recorded as the rule name "rotate-both"): a
// move turns a block either way, the graph is undirected (each turn's inverse is a
// move), and moves come in the order: every clockwise turn, then every
// counter-clockwise turn (labels r1c1 ... then r1c1' ...).
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "stategraph/rules/number_grid_rule.hpp"

namespace stategraph {

class Rotate : public NumberGridRule<Rotate> {
 public:
  static constexpr std::string_view kName = "rotate";
  static constexpr std::string_view kNameBoth = "rotate-both";
  explicit Rotate(Grid g, bool both = false) : NumberGridRule(g), both_(both) {
    for (int r = 0; r + 1 < rows(); ++r)
      for (int c = 0; c + 1 < cols(); ++c) blocks_.push_back(r * cols() + c);
    std::vector<std::vector<int>> cw, ccw;
    for (int tl : blocks_) cw.push_back(turn_perm(tl, true)), ccw.push_back(turn_perm(tl, false));
    std::vector<std::vector<int>> succ = cw, pred = ccw;
    if (both_) {
      succ.insert(succ.end(), ccw.begin(), ccw.end());
      pred.insert(pred.end(), cw.begin(), cw.end());
    }
    set_move_perms(succ, both_ ? std::vector<std::vector<int>>{} : pred);
  }

  std::string_view name() const { return both_ ? kNameBoth : kName; }
  bool both_directions() const { return both_; }
  bool directed() const { return !both_; }
  int max_degree() const { return static_cast<int>(blocks_.size()) * (both_ ? 2 : 1); }

  // Top-left cells of the 2x2 blocks, in the order moves are generated.
  const std::vector<int>& blocks() const { return blocks_; }

  // Clockwise turn of the block at top-left cell tl: a b / c d -> c a / d b.
  State turn_clockwise(State s, int tl) const {
    const int a = tl, b = tl + 1, c = tl + cols(), d = tl + cols() + 1;
    State t = set_cell(s, a, get_cell(s, c));
    t = set_cell(t, b, get_cell(s, a));
    t = set_cell(t, d, get_cell(s, b));
    return set_cell(t, c, get_cell(s, d));
  }
  State turn_counterclockwise(State s, int tl) const {
    const int a = tl, b = tl + 1, c = tl + cols(), d = tl + cols() + 1;
    State t = set_cell(s, a, get_cell(s, b));
    t = set_cell(t, b, get_cell(s, d));
    t = set_cell(t, d, get_cell(s, c));
    return set_cell(t, c, get_cell(s, a));
  }

  // Labels: the turned block by its top-left cell, r1c2 (counter-clockwise: r1c2').
  template <class F>
  void for_each_move(State s, F&& f) const {
    for (int tl : blocks_)
      if (emit_move(
              f, [&] { return cell_label(tl); }, turn_clockwise(s, tl)))
        return;
    if (both_)
      for (int tl : blocks_)
        if (emit_move(
                f, [&] { return cell_label(tl) + "'"; }, turn_counterclockwise(s, tl)))
          return;
  }
  // The inverse turns: counter-clockwise (then clockwise with directions both).
  template <class F>
  void for_each_predecessor(State s, F&& f) const {
    for (int tl : blocks_)
      if (emit_neighbour(f, turn_counterclockwise(s, tl))) return;
    if (both_)
      for (int tl : blocks_)
        if (emit_neighbour(f, turn_clockwise(s, tl))) return;
  }

  // A turn is a fixed permutation of the cells, of order 4; relabelling numbers commutes
  // with it, so the graph is a Cayley graph.
  int max_move_order() const { return 4; }
  DiameterSymmetry diameter_symmetry() const { return DiameterSymmetry::kCayley; }

 private:
  // The turn as a cell permutation, t[i] = s[p[i]] (see turn_clockwise).
  std::vector<int> turn_perm(int tl, bool clockwise) const {
    std::vector<int> p(static_cast<std::size_t>(n_));
    for (int i = 0; i < n_; ++i) p[static_cast<std::size_t>(i)] = i;
    const int a = tl, b = tl + 1, c = tl + cols(), d = tl + cols() + 1;
    const auto at = [&](int i) -> int& { return p[static_cast<std::size_t>(i)]; };
    if (clockwise)
      at(a) = c, at(b) = a, at(d) = b, at(c) = d;
    else
      at(a) = b, at(b) = d, at(d) = c, at(c) = a;
    return p;
  }

  std::vector<int> blocks_;
  bool both_ = false;
};

}  // namespace stategraph
