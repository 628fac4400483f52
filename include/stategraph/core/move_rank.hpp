// Lehmer ranks (perm_rank) of the states that fixed cell permutations ("moves") make from
// a state whose rank is known, without ranking each of them from scratch: what a BFS
// step asks for every neighbour of every state it scans. Two ways, per move:
//  * Digit window: a move that moves only cells in [lo, hi] changes only Lehmer digits
//    lo..hi (digit i counts the later cells holding a smaller symbol: for i < lo the set
//    of later symbols is unchanged, for i > hi everything is). One reverse pass over the
//    state gives, for every i, the symbols at cells >= i and the rank's part of digits
//    i..n-1; a move then recounts only its hi - lo + 1 digits of the moved state.
//  * Split rank: digits n-m..n-1 rank the relative order of the last m cells (the rank
//    mod m!); a move inside those cells maps that suffix rank through a table of m! rows
//    (suffix rank x move -> suffix rank), one load, and leaves the prefix's digits alone.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "stategraph/core/rank.hpp"
#include "stategraph/core/state.hpp"

namespace stategraph {

class MoveRanks {
 public:
  // Cells of the split's suffix by default: 8! = 40,320 rows of 16-bit entries.
  static constexpr int kDefaultSuffix = 8;

  MoveRanks() = default;
  // moves[j][i] = the cell whose symbol move j brings to cell i (t[i] = s[moves[j][i]]),
  // each a permutation of 0..n-1. suffix_cells: m of the split rank, 0 for none (every
  // move by its digit window), at most 8; -1 for min(n, kDefaultSuffix).
  MoveRanks(int n, const std::vector<std::vector<int>>& moves, int suffix_cells = -1) : n_(n) {
    check_perm_size(n);
    const int m = suffix_cells < 0 ? std::min(n, kDefaultSuffix) : suffix_cells;
    if (m > 8 || m > n) throw std::logic_error("MoveRanks: suffix of more than 8 cells or than the state has");
    split_ = n - m;
    for (int i = 0; i < n; ++i) weight_[static_cast<std::size_t>(i)] = kFactorial[static_cast<std::size_t>(n - 1 - i)];
    std::vector<int> inside;  // moves of the table, in column order
    for (std::size_t j = 0; j < moves.size(); ++j) {
      const auto& p = moves[j];
      if (static_cast<int>(p.size()) != n) throw std::logic_error("MoveRanks: a move of the wrong size");
      Move mv;
      mv.lo = n, mv.hi = -1;
      for (int i = 0; i < n; ++i)
        if (p[static_cast<std::size_t>(i)] != i) mv.lo = std::min(mv.lo, i), mv.hi = std::max(mv.hi, i);
      if (mv.hi < 0) mv.lo = mv.hi = n - 1;  // the identity: a window of one cell changes nothing
      for (int i = mv.lo; i <= mv.hi; ++i)
        mv.src[static_cast<std::size_t>(i - mv.lo)] = static_cast<std::uint8_t>(p[static_cast<std::size_t>(i)]);
      if (m > 0 && mv.lo >= split_) {
        mv.column = static_cast<int>(inside.size());
        inside.push_back(static_cast<int>(j));
      }
      moves_.push_back(mv);
    }
    columns_ = inside.size();
    if (columns_ == 0) return;
    const std::uint64_t rows = kFactorial[static_cast<std::size_t>(m)];
    table_.resize(rows * columns_);
    for (std::uint64_t x = 0; x < rows; ++x) {
      const State u = perm_unrank(x, m);  // the suffix's relative order
      for (std::size_t c = 0; c < columns_; ++c) {
        const auto& p = moves[static_cast<std::size_t>(inside[c])];
        State t = 0;
        for (int i = 0; i < m; ++i) t = set_cell(t, i, get_cell(u, p[static_cast<std::size_t>(split_ + i)] - split_));
        table_[x * columns_ + c] = static_cast<std::uint16_t>(perm_rank(t, m));
      }
    }
  }

  std::size_t moves() const { return moves_.size(); }
  // Moves ranked through the suffix table (the others by their digit window).
  std::size_t table_moves() const { return columns_; }

  // What a state's moves share: after[i] = the symbols at cells >= i (bit v for symbol
  // v), tail[i] = sum over j >= i of d_j (n-1-j)! (tail[0] is the rank).
  struct Scan {
    std::array<std::uint32_t, kMaxCells + 1> after;
    std::array<std::uint64_t, kMaxCells + 1> tail;
  };
  void prepare(State s, Scan& sc) const {
    std::uint32_t after = 0;
    std::uint64_t tail = 0;
    sc.after[static_cast<std::size_t>(n_)] = 0, sc.tail[static_cast<std::size_t>(n_)] = 0;
    for (int i = n_ - 1; i >= 0; --i) {
      const unsigned v = get_cell(s, i);
      tail += static_cast<std::uint64_t>(std::popcount(after & ((1u << v) - 1))) * weight_[static_cast<std::size_t>(i)];
      after |= 1u << v;
      sc.after[static_cast<std::size_t>(i)] = after, sc.tail[static_cast<std::size_t>(i)] = tail;
    }
  }

  // perm_rank of move j applied to s, whose rank is r and Scan sc.
  std::uint64_t rank(std::size_t j, State s, std::uint64_t r, const Scan& sc) const {
    const Move& mv = moves_[j];
    if (mv.column >= 0) {
      const std::uint64_t x = sc.tail[static_cast<std::size_t>(split_)];
      return r - x + table_[x * columns_ + static_cast<std::size_t>(mv.column)];
    }
    std::uint32_t after = sc.after[static_cast<std::size_t>(mv.hi + 1)];
    std::uint64_t sum = 0;
    for (int i = mv.hi; i >= mv.lo; --i) {
      const unsigned v = get_cell(s, mv.src[static_cast<std::size_t>(i - mv.lo)]);
      sum += static_cast<std::uint64_t>(std::popcount(after & ((1u << v) - 1))) * weight_[static_cast<std::size_t>(i)];
      after |= 1u << v;
    }
    return r - (sc.tail[static_cast<std::size_t>(mv.lo)] - sc.tail[static_cast<std::size_t>(mv.hi + 1)]) + sum;
  }

  // f(rank) for each move j, in order, that applies(j) accepts; f may return true to stop.
  template <class Applies, class F>
  void for_each_rank(State s, std::uint64_t r, Applies&& applies, F&& f) const {
    Scan sc;
    prepare(s, sc);
    for (std::size_t j = 0; j < moves_.size(); ++j)
      if (applies(j) && emit_neighbour(f, rank(j, s, r, sc))) return;
  }

  // f(rank) for each move j whose bit is set in `moves` (j < moves()), in order; f may
  // return true to stop. A mask computed without branches spares rules whose moves depend
  // on the state (primeswap) a mispredicted branch per move.
  template <class F>
  void for_each_rank_of(State s, std::uint64_t r, std::uint64_t moves, F&& f) const {
    if (!moves) return;
    Scan sc;
    prepare(s, sc);
    for (; moves; moves &= moves - 1)
      if (emit_neighbour(f, rank(static_cast<std::size_t>(std::countr_zero(moves)), s, r, sc))) return;
  }

 private:
  struct Move {
    int lo = 0, hi = -1;
    int column = -1;                            // column in the suffix table, -1: digit window
    std::array<std::uint8_t, kMaxCells> src{};  // src[i - lo] = the cell moved to cell i
  };
  int n_ = 0, split_ = 0;
  std::array<std::uint64_t, kMaxCells> weight_{};  // (n-1-i)!
  std::vector<Move> moves_;
  std::size_t columns_ = 0;
  std::vector<std::uint16_t> table_;  // [suffix rank * columns_ + column] -> suffix rank
};

}  // namespace stategraph
