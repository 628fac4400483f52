// sliding: tiles 1..n-1 and a blank on an r x c grid; the blank swaps with a
// 4-neighbour. Symbol 0 is the blank, symbol t is tile t. Goal: 1..n-1, blank last.
// Ranking: only the goal's parity class (n!/2 ranks), or, for a BFS from a start in the
// other class (search_from), that class: the same ranks, the other completion.
//
// A move is one transposition and moves the blank one step, so parity(perm) xor
// parity(taxicab distance of the blank from the last cell) is invariant. We rank the
// *inverse* permutation (the position of the blank, of tile 1, ...): its last two
// entries are the positions of the tiles n-2 and n-1, never the blank, so swapping them
// flips the invariant and exactly one of the two completions of the first n-2 entries
// lies in the class (see parity_rank).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stategraph/core/rank.hpp"
#include "stategraph/rules/grid_rule.hpp"

namespace stategraph {

class Sliding : public GridRule, public MoveNeighbours<Sliding> {
 public:
  static constexpr std::string_view kName = "sliding";
  explicit Sliding(Grid g) : GridRule(g) {
    check_perm_size(n_);
    for (int i = 0; i < n_; ++i) weights_[static_cast<std::size_t>(i)] = static_cast<std::int64_t>(weight(i));
    build_vertical_rows();
  }

  std::string_view name() const { return kName; }
  bool directed() const { return false; }
  int max_degree() const { return 4; }
  std::uint64_t size() const { return kFactorial[static_cast<std::size_t>(n_)] / 2; }

  std::uint64_t rank(State s) const { return parity_rank(inverse_perm(s, n_), n_); }
  State unrank(std::uint64_t r) const {
    // The first Lehmer digit of the inverse is the blank's cell.
    const auto blank = static_cast<int>((r << 1) / kFactorial[static_cast<std::size_t>(n_ - 1)]);
    return inverse_perm(parity_unrank(r, n_, blank_parity(blank)), n_);
  }
  // unrank for ascending scans (see PermCursor); one per thread.
  struct Unranker {
    const Sliding* rule;
    PermCursor cursor;
    State operator()(std::uint64_t r) {
      return cursor.parity_unrank_inverse(
          r, [this](unsigned blank) { return rule->blank_parity(static_cast<int>(blank)); });
    }
  };
  Unranker unranker() const { return Unranker{this, PermCursor(n_)}; }
  // True when s is in the ranked class (the goal's, or the search start's).
  bool in_space(State s) const { return perm_parity(s, n_) == blank_parity(find_cell(s, n_, 0)); }

  std::vector<State> goals() const {
    if (start_) return {*start_};
    State g = 0;
    for (int i = 0; i + 1 < n_; ++i) g = set_cell(g, i, static_cast<unsigned>(i + 1));
    return {g};
  }
  // analyze --start: the goal set becomes {s}, and the ranked class s's (rank() is the
  // same Lehmer prefix in either class, so the incremental and block moves hold as they are).
  void search_from(State s) {
    start_.reset();
    other_class_ = false;
    other_class_ = !in_space(s);
    start_ = s;
  }
  std::optional<State> search_start() const { return start_; }
  void clear_search_start() { start_.reset(), other_class_ = false; }

  // Labels: the blank's move, U D L R.
  template <class F>
  void for_each_move(State s, F&& f) const {
    const int blank = find_cell(s, n_, 0);
    for (int nb : neighbours(blank)) {
      if (nb < 0) break;
      const auto label = [&] {
        return std::string(nb == blank - cols() ? "U" : nb == blank + cols() ? "D" : nb == blank - 1 ? "L" : "R");
      };
      if (emit_move(f, label, swap_cells(s, blank, nb))) return;
    }
  }

  // A blank move is no fixed permutation of the states (it depends on where the blank
  // is); the diameter uses the blank orbits.
  int max_move_order() const { return 0; }
  DiameterSymmetry diameter_symmetry() const { return DiameterSymmetry::kBlankOrbits; }
  // The ranked space is one of the two parity classes of the n! arrangements; swapping
  // tiles 1 and 2 commutes with every move and flips the invariant, so it maps this class's
  // graph onto the other's (the graph analysis reports both through it).
  std::string_view other_parity_class() const { return "swapping tiles 1 and 2"; }
  int blank_cell(State s) const { return find_cell(s, n_, 0); }
  // A state of the ranked class with the blank on `cell`: tiles in order around it,
  // tiles at two cells other than the blank's swapped when that is the other class.
  State state_with_blank(int cell) const {
    State st = 0;
    unsigned tile = 1;
    for (int i = 0; i < n_; ++i)
      if (i != cell) st = set_cell(st, i, tile++);
    if (!in_space(st)) {
      const int a = cell == 0 ? 1 : 0, b = (cell == 0 || cell == 1) ? 2 : 1;
      st = swap_cells(st, a, b);
    }
    return st;
  }

  // f(rank) for every neighbour of s, whose rank is r, in the order of
  // for_each_successor (stopping when f returns true), without ranking the neighbours
  // from scratch. We rank the inverse permutation inv (inv[0] = blank cell, inv[u] =
  // cell of tile u), with Lehmer digits d_i = #{j > i : inv[j] < inv[i]} and rank = sum
  // of d_i * w_i over the first n-2 digits, w_i = (n-1-i)!/2 (parity_rank). Moving the
  // blank from b to cell c, where tile t stands, exchanges the values b and c of inv[0]
  // and inv[t]; so
  //  * d_0 = inv[0] (every other cell is a later value) goes from b to c: (c - b) w_0;
  //  * a tile u < t standing strictly between b and c (row-major) sees inv[t] pass its
  //    own value: d_u changes by sign(c - b);
  //  * d_t loses (c > b) or gains one for each tile u > t between b and c;
  //  * nothing else changes. A sideways move has no cell between: r +- w_0. An up or
  //    down move has cols-1 cells between. Tested against rank() (rules_test.cpp).
  template <class F>
  void for_each_neighbour_rank(State s, std::uint64_t r, F&& f) const {
    const int blank = blank_of(s);
    const std::int64_t w0 = static_cast<std::int64_t>(weight(0));
    for (int c : neighbours(blank)) {
      if (c < 0) break;
      const std::int64_t delta = (c - blank > 1 || blank - c > 1) ? vertical_delta(s, blank, c) : (c - blank) * w0;
      if (emit_neighbour(f, static_cast<std::uint64_t>(static_cast<std::int64_t>(r) + delta))) return;
    }
  }

  // Block moves (used by the BFS engine, engine.hpp): ranks fall into blocks of
  // block_move_size() consecutive ranks, one per blank cell (the leading digit), and a
  // sideways move (to the next cell, none between) is r +- w_0 for every state of a block
  // (see above): it maps the block of the blank at b onto that of b +- 1, offset for
  // offset. for_each_block_move(b, f) calls f(c) for those blocks c (successors and, the
  // rule being undirected, predecessors); for_each_other_neighbour_rank gives the other
  // (vertical) moves' ranks. Together they are for_each_neighbour_rank's (rules_test.cpp).
  // The size is 0 (no blocks) below three cells.
  std::uint64_t block_move_size() const { return weight(0); }
  template <class F>
  void for_each_block_move(std::uint64_t block, F&& f) const {
    const auto b = static_cast<int>(block);
    for (int c : neighbours(b)) {
      if (c < 0) break;
      if (c - b == 1 || b - c == 1) f(static_cast<std::uint64_t>(c));  // no cell between: r +- w_0
    }
  }
  template <class F>
  void for_each_other_neighbour_rank(State s, std::uint64_t r, F&& f) const {
    const int blank = blank_of(s);
    for (int c : neighbours(blank)) {
      if (c < 0) break;
      if (c - blank == 1 || blank - c == 1) continue;
      if (emit_neighbour(f, static_cast<std::uint64_t>(static_cast<std::int64_t>(r) + vertical_delta(s, blank, c))))
        return;
    }
  }

  // The vertical moves' ranks straight from the rank, with no state built: the engine's
  // state-by-state part for sliding (engine.hpp, RankScanRule), for ascending scans; one
  // per task. f(q) as for_each_other_neighbour_rank, same order.
  //
  // Why it works. A PermCursor splits the Lehmer code of the inverse into a prefix (the
  // cells of the blank and of tiles 1..n-k-1) and the arrangement x of the k "suffix"
  // tiles n-k..n-1 on the k cells left, the pool. Take the move of the blank from b to
  // c = b +- cols (vertical_delta): delta = (c - b) w_0 + sign * sum over the cells
  // between of (u < t ? w_u : -w_t), t the tile at c. The prefix alone says which cells
  // hold prefix tiles and which tiles, and which cells are in the pool.
  //  * c holds a prefix tile t: every term is known (a pool tile u > t gives -w_t), so
  //    delta is one number per prefix and move.
  //  * c is the pool's cell number j: a prefix tile u between is below the suffix tile t
  //    and gives w_u; the m pool cells between are the pool's cells next to j (the pool
  //    is in cell order), numbers j-m..j-1 (down) or j+1..j+m (up), and their terms
  //    depend on x alone: a table vertical_row(down, j, m)[x] (build_vertical_rows).
  // So delta = base + row[x]: base and row are made once per prefix (load), and each
  // state costs the cursor's division and one table read per vertical move. Tested
  // against for_each_other_neighbour_rank on every state (rules_test.cpp).
  class VerticalScanner {
   public:
    explicit VerticalScanner(const Sliding& rule) : rule_(&rule), cursor_(rule.n_) {}
    template <class F>
    void operator()(std::uint64_t r, F&& f) {
      const std::uint64_t x =
          cursor_.parity_suffix(r, [this](unsigned blank) { return rule_->blank_parity(static_cast<int>(blank)); });
      if (cursor_.prefix_index() != prefix_) load();
      for (int m = 0; m < moves_; ++m) {
        const auto k = static_cast<std::size_t>(m);
        if (emit_neighbour(f, static_cast<std::uint64_t>(static_cast<std::int64_t>(r) + base_[k] + rows_[k][x])))
          return;
      }
    }

   private:
    void load() {
      prefix_ = cursor_.prefix_index();
      const State cells = cursor_.prefix_cells();
      // bit c: cell c holds a suffix tile; the prefix tiles' cells -> tiles (0 elsewhere)
      const unsigned in_pool = ((1u << rule_->n_) - 1) & ~cursor_.prefix_symbols();
      const State tile_at = cursor_.prefix_inverse();
      const auto& w = rule_->weights_;
      const int b = static_cast<int>(get_cell(cells, 0));
      moves_ = 0;
      for (int c : rule_->neighbours(b)) {
        if (c < 0) break;
        if (c - b == 1 || b - c == 1) continue;  // a block move
        const bool down = c > b;
        const std::int64_t sign = down ? 1 : -1;
        std::int64_t base = (c - b) * w[0];
        const int lo = std::min(b, c) + 1, hi = std::max(b, c);
        const std::int32_t* row = rule_->vertical_rows_.data() + rule_->zero_row_;
        if (in_pool >> c & 1u) {
          int m = 0;
          for (int cell = lo; cell < hi; ++cell) {
            if (in_pool >> cell & 1u)
              ++m;
            else
              base += sign * w[get_cell(tile_at, cell)];
          }
          row = rule_->vertical_row(down, std::popcount(in_pool & ((1u << c) - 1)), m);
        } else {
          const unsigned t = get_cell(tile_at, c);
          for (int cell = lo; cell < hi; ++cell) {
            const unsigned u = get_cell(tile_at, cell);
            base += sign * ((in_pool >> cell & 1u) || u > t ? -w[t] : w[u]);
          }
        }
        base_[static_cast<std::size_t>(moves_)] = base, rows_[static_cast<std::size_t>(moves_)] = row;
        ++moves_;
      }
    }

    const Sliding* rule_;
    PermCursor cursor_;
    std::uint64_t prefix_ = ~std::uint64_t{0};
    int moves_ = 0;
    std::array<std::int64_t, 2> base_{};
    std::array<const std::int32_t*, 2> rows_{};
  };
  VerticalScanner other_rank_scanner() const { return VerticalScanner(*this); }

  std::string format(State s) const {
    std::vector<std::string> labels;
    for (int i = 0; i < n_; ++i) labels.push_back(get_cell(s, i) == 0 ? "_" : std::to_string(get_cell(s, i)));
    return join_cells(labels, true);
  }
  // Tiles 1..n-1; the blank written as 0, n or '_'.
  State parse(std::string_view text) const {
    auto v = parse_numbers(text, n_, 0);
    for (auto& x : v)
      if (x == 0) x = n_;
    State s = pack_permutation(v, n_);
    // pack_permutation stores number k as k-1: shift so that tiles are 1..n-1, blank 0.
    State out = 0;
    for (int i = 0; i < n_; ++i) out = set_cell(out, i, (get_cell(s, i) + 1) % static_cast<unsigned>(n_));
    return out;
  }

  JudgeFormat judge_format() const { return JudgeFormat::kNumberGrids; }
  // Judge numbers: tiles 1..n-1, the blank as 0, n or '_'.
  bool from_numbers(const int* v, State& s, int& bad, std::string& error) const {
    unsigned seen = 0;
    s = 0;
    for (int i = 0; i < n_; ++i) {
      int x = v[i];
      if (x == kBlankNumber || x == n_) x = 0;
      if (x < 0 || x > n_) {
        error = "number " + std::to_string(v[i]) + " out of range (tiles 1.." + std::to_string(n_ - 1) +
                ", blank 0 or " + std::to_string(n_) + ")";
        return bad = i, false;
      }
      if (seen & (1u << x)) {
        error = x == 0 ? "two blanks (0, " + std::to_string(n_) + " or _)"
                       : "number " + std::to_string(x) + " appears twice";
        return bad = i, false;
      }
      seen |= 1u << x;
      s = set_cell(s, i, static_cast<unsigned>(x));
    }
    return true;
  }

 private:
  // The permutation parity of the goal class's states with the blank at this cell: the
  // goal itself (1..n-1 then the blank, an n-cycle) has parity (n-1) mod 2, and each
  // move flips both the parity and the blank's taxicab distance from the last cell.
  // Weight of Lehmer digit i in parity_rank: (n-1-i)!/2 for the n-2 ranked digits.
  std::uint64_t weight(int i) const { return i < n_ - 2 ? kFactorial[static_cast<std::size_t>(n_ - 1 - i)] / 2 : 0; }

  // Rank change of the move of the blank from `blank` to c (not a sideways one; see
  // for_each_neighbour_rank).
  std::int64_t vertical_delta(State s, int blank, int c) const {
    const std::int64_t delta = (c - blank) * weights_[0];
    const unsigned t = get_cell(s, c);
    const std::int64_t wt = weights_[t];
    const int lo = std::min(c, blank) + 1, hi = std::max(c, blank);
    std::int64_t change = 0;
    for (int cell = lo; cell < hi; ++cell) {
      const unsigned u = get_cell(s, cell);
      change += u < t ? weights_[u] : -wt;
    }
    return delta + (c > blank ? change : -change);
  }

  // The blank's cell: the lowest zero nibble (the borrow trick flags it exactly; only
  // nibbles above it can be flagged falsely).
  static int blank_of(State s) {
    constexpr State kOnes = 0x1111111111111111ULL, kHighs = 0x8888888888888888ULL;
    return std::countr_zero((s - kOnes) & ~s & kHighs) >> 2;
  }

  unsigned blank_parity(int blank) const {
    const int dr = rows() - 1 - blank / cols(), dc = cols() - 1 - blank % cols();
    return static_cast<unsigned>(dr + dc + n_ - 1 + (other_class_ ? 1 : 0)) & 1u;
  }

  // vertical_row(down, j, m)[x], x < k!: sign * the sum over the pool cells j-m..j-1
  // (down) or j+1..j+m (up) of (u < t ? w_u : -w_t), where arrangement x puts the suffix
  // tiles u on the pool and t on pool cell j (VerticalScanner); 0 where the cells are
  // not all in the pool. Then a row of zeros (zero_row_).
  void build_vertical_rows() {
    const int k = PermCursor::suffix_length_for(n_);
    const auto count = static_cast<std::size_t>(kFactorial[static_cast<std::size_t>(k)]);
    vertical_rows_.assign((2 * static_cast<std::size_t>(k * k) + 1) * count, 0);
    zero_row_ = 2 * static_cast<std::size_t>(k * k) * count;
    for (std::size_t x = 0; x < count; ++x) {
      const State picks = perm_from_digits(lehmer_digits(x, k), k);
      std::array<unsigned, 16> tile{};  // pool cell -> suffix tile
      for (int j = 0; j < k; ++j) tile[get_cell(picks, j)] = static_cast<unsigned>(n_ - k + j);
      for (bool down : {false, true})
        for (int j = 0; j < k; ++j)
          for (int m = 0; m < k; ++m) {
            const int first = down ? j - m : j + 1, last = down ? j - 1 : j + m;
            if (first < 0 || last >= k) continue;
            const unsigned t = tile[static_cast<std::size_t>(j)];
            std::int64_t sum = 0;
            for (int i = first; i <= last; ++i) {
              const unsigned u = tile[static_cast<std::size_t>(i)];
              sum += u < t ? weights_[u] : -weights_[t];
            }
            vertical_rows_[row_offset(down, j, m) + x] = static_cast<std::int32_t>(down ? sum : -sum);
          }
    }
  }
  std::size_t row_offset(bool down, int j, int m) const {
    const int k = PermCursor::suffix_length_for(n_);
    return static_cast<std::size_t>(((down ? k : 0) + j) * k + m) *
           static_cast<std::size_t>(kFactorial[static_cast<std::size_t>(k)]);
  }
  const std::int32_t* vertical_row(bool down, int j, int m) const {
    return vertical_rows_.data() + row_offset(down, j, m);
  }

  std::array<std::int64_t, 16> weights_{};   // weight(i)
  std::vector<std::int32_t> vertical_rows_;  // build_vertical_rows
  std::size_t zero_row_ = 0;
  std::optional<State> start_;  // search_from
  bool other_class_ = false;    // the ranked class is not the goal's
};

}  // namespace stategraph
