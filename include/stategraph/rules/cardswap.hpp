// cardswap: cards A and B, n-3 identical soldiers '*' and one blank on an r x c board
// (the seed board is 2x3); any piece next to the blank slides into it.
//
// Symbols: 0
// blank, 1 soldier, 2 A, 3 B. A rule value carries its start position: the goals are
// every state with A on B's start cell and B on A's start cell (soldiers and blank
// anywhere), so a BFS starts from all of them at once. Ranking: multiset permutations,
// n (n-1) (n-2) ranks.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "stategraph/core/rank.hpp"
#include "stategraph/rules/grid_rule.hpp"

namespace stategraph {

class CardSwap : public GridRule, public MoveNeighbours<CardSwap> {
 public:
  static constexpr std::string_view kName = "cardswap";
  static constexpr unsigned kBlank = 0, kSoldier = 1, kCardA = 2, kCardB = 3;
  // The seed sample: "* A" over "**B" (17 moves).
  static constexpr std::string_view kSeedStart = "* A/**B";

  CardSwap(Grid g, std::string_view start_text)
      : GridRule(g), ranker_({1, g.cells() - 3, 1, 1}), start_(parse(start_text)) {}

  std::string_view name() const { return kName; }
  bool directed() const { return false; }
  int max_degree() const { return 4; }
  std::uint64_t size() const { return ranker_.size(); }
  std::uint64_t rank(State s) const { return ranker_.rank(s); }
  State unrank(std::uint64_t r) const { return ranker_.unrank(r); }
  bool in_space(State) const { return true; }
  State start() const { return start_; }

  // Every state with A on B's start cell and B on A's: soldiers and the blank anywhere.
  std::vector<State> goals() const {
    return goals_exchanging(find_cell(start_, n_, kCardA), find_cell(start_, n_, kCardB));
  }

  // Labels: the piece that slides into the blank and its direction: AL, *U, BR.
  template <class F>
  void for_each_move(State s, F&& f) const {
    static constexpr char kChar[] = {'_', '*', 'A', 'B'};
    const int blank = find_cell(s, n_, kBlank);
    for (int nb : neighbours(blank)) {
      if (nb < 0) break;
      // The piece at nb moves to the blank's cell.
      const auto label = [&] {
        const char dir = blank == nb - cols() ? 'U' : blank == nb + cols() ? 'D' : blank == nb - 1 ? 'L' : 'R';
        return std::string{kChar[get_cell(s, nb) & 3], dir};
      };
      if (emit_move(f, label, swap_cells(s, blank, nb))) return;
    }
  }

  int max_move_order() const { return 0; }
  DiameterSymmetry diameter_symmetry() const { return DiameterSymmetry::kNone; }
  JudgeFormat judge_format() const { return JudgeFormat::kBoards; }

  // Depth tables: the goal depends on the query (A and B exchanged from wherever they
  // stand), so a table holds one section per (cell of A, cell of B) pair.
  std::uint64_t sections() const { return static_cast<std::uint64_t>(n_) * static_cast<std::uint64_t>(n_ - 1); }
  std::uint64_t section_of(State s) const {
    const int a = find_cell(s, n_, kCardA), b = find_cell(s, n_, kCardB);
    return static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(n_ - 1) +
           static_cast<std::uint64_t>(b < a ? b : b - 1);
  }
  // The rule whose goals are section k's: its start has A and B where section k has them
  // (soldiers elsewhere, the blank on the first free cell).
  CardSwap for_section(std::uint64_t k) const {
    const int a = static_cast<int>(k / static_cast<std::uint64_t>(n_ - 1));
    int b = static_cast<int>(k % static_cast<std::uint64_t>(n_ - 1));
    if (b >= a) ++b;
    State start = 0;
    for (int i = 0; i < n_; ++i) start = set_cell(start, i, kSoldier);
    start = set_cell(set_cell(start, a, kCardA), b, kCardB);
    for (int i = 0; i < n_; ++i)
      if (i != a && i != b) {
        start = set_cell(start, i, kBlank);
        break;
      }
    return CardSwap(grid_, format(start));
  }

  // Rows joined by '/', the blank written '_'.
  std::string format(State s) const {
    static constexpr char kChar[] = {'_', '*', 'A', 'B'};
    std::vector<std::string> labels;
    for (int i = 0; i < n_; ++i) labels.emplace_back(1, kChar[get_cell(s, i) & 3]);
    return join_cells(labels, false);
  }

  // Rows split by '/' or a newline; cells 'A', 'B', '*', and ' ', '_' or '.' for the
  // blank. A row shorter than the board is padded with blanks (a dropped trailing
  // space). Exactly one A, one B and one blank.
  State parse(std::string_view text) const {
    std::vector<std::string> rows_text(1);
    for (char ch : text) {
      if (ch == '/' || ch == '\n')
        rows_text.emplace_back();
      else if (ch != '\r')
        rows_text.back() += ch;
    }
    if (!rows_text.empty() && rows_text.back().empty() && static_cast<int>(rows_text.size()) == rows() + 1)
      rows_text.pop_back();
    if (static_cast<int>(rows_text.size()) != rows())
      throw InputError("cardswap board has " + std::to_string(rows_text.size()) + " rows, expected " +
                       std::to_string(rows()));
    State s = 0;
    int count[4] = {0, 0, 0, 0};
    for (int r = 0; r < rows(); ++r) {
      const std::string& row = rows_text[static_cast<std::size_t>(r)];
      if (static_cast<int>(row.size()) > cols())
        throw InputError("cardswap row " + std::to_string(r + 1) + " has " + std::to_string(row.size()) +
                         " characters, expected " + std::to_string(cols()));
      for (int c = 0; c < cols(); ++c) {
        const char ch = c < static_cast<int>(row.size()) ? row[static_cast<std::size_t>(c)] : ' ';
        unsigned v;
        switch (ch) {
          case ' ':
          case '_':
          case '.':
            v = kBlank;
            break;
          case '*':
            v = kSoldier;
            break;
          case 'A':
            v = kCardA;
            break;
          case 'B':
            v = kCardB;
            break;
          default:
            throw InputError("cardswap row " + std::to_string(r + 1) + ": '" + shown_input(std::string_view(&ch, 1)) +
                             "' is not a card (A, B, * or blank)");
        }
        ++count[v];
        s = set_cell(s, r * cols() + c, v);
      }
    }
    if (count[kCardA] != 1 || count[kCardB] != 1 || count[kBlank] != 1)
      throw InputError("cardswap board needs exactly one A, one B and one blank (got " + std::to_string(count[kCardA]) +
                       ", " + std::to_string(count[kCardB]) + ", " + std::to_string(count[kBlank]) + ")");
    return s;
  }

 private:
  std::vector<State> goals_exchanging(int a, int b) const {
    std::vector<State> out;
    for (int blank = 0; blank < n_; ++blank) {
      if (blank == a || blank == b) continue;
      State g = 0;
      for (int i = 0; i < n_; ++i) g = set_cell(g, i, kSoldier);
      g = set_cell(set_cell(set_cell(g, b, kCardA), a, kCardB), blank, kBlank);
      out.push_back(g);
    }
    return out;
  }

  MultisetRanker ranker_;
  State start_;
};

}  // namespace stategraph
