// A rule read from a twsearch / ksolve puzzle definition: one set of n <= 16
// positions, pieces without orientation, a solved state (repeated piece numbers mean
// identical pieces), and named moves, each a fixed permutation of the positions.
//
// Semantics (twsearch's, ksolve's in practice; see the README): permutations are
// passive. A move written "p_1 ... p_n" sends the piece in position p_i to position i,
// so applying it to a state s gives t with t[i] = s[p_i] (t = s∘p); the move's line is
// the state it makes from the identity. Symbols: piece number v is symbol v-1.
//
// The move set is the file's moves, expanded by a metric (DefinedMetric): as given,
// closed under inverses, or every non-identity power. The rule is undirected when the
// expanded set is closed under inverses, else directed like `rotate`.
//
// Speed: a move is applied as a few mask-and-rotate terms on the 64-bit state, one per
// distinct displacement (dst - src) of the cells it moves; a 2x2 turn is 4 terms, as
// cheap as the built-in rotate's four set_cell. Ranking: perm_rank / PermCursor when
// every piece is distinct (n! ranks), MultisetRanker otherwise; with distinct pieces the
// BFS ranks neighbours incrementally (MoveRanks).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stategraph/core/move_rank.hpp"
#include "stategraph/core/rank.hpp"
#include "stategraph/core/state.hpp"
#include "stategraph/rules/properties.hpp"

namespace stategraph {

enum class DefinedMetric {
  kGiven,     // the file's moves only (directed unless the file lists inverses)
  kInverses,  // each move and its inverse ("quarter-turn metric")
  kPowers,    // every power m^k != identity of each move ("half-turn metric", twsearch's moves)
};
// "given", "inverses" (alias "qtm"), "powers" (alias "htm"); InputError otherwise.
DefinedMetric parse_metric(std::string_view name);
std::string_view metric_name(DefinedMetric m);

// A permutation move as mask-and-rotate terms: t = (s & keep) | OR_k rotl(s & mask_k, shift_k).
struct PermMove {
  State keep = 0;
  int terms = 0;
  std::array<State, kMaxCells> mask{};
  std::array<unsigned, kMaxCells> shift{};  // left rotation in bits, 0..63
  State apply(State s) const {
    State t = s & keep;
    for (int k = 0; k < terms; ++k)
      t |= std::rotl(s & mask[static_cast<std::size_t>(k)], static_cast<int>(shift[static_cast<std::size_t>(k)]));
    return t;
  }
};
// p[i] (0-based) = the source position of position i.
PermMove make_perm_move(const std::vector<int>& p);

// What a definition file holds after parsing and metric expansion.
struct Definition {
  std::string name;                     // the Name line, else the file's stem
  std::string source;                   // the path it was read from
  int n = 0;                            // positions
  std::vector<int> solved;              // symbol per position (piece number - 1)
  std::vector<std::string> move_names;  // expanded moves, in order
  std::vector<std::vector<int>> moves;  // passive permutations, 0-based
  int given_moves = 0;                  // how many came from the file
  DefinedMetric metric = DefinedMetric::kGiven;
};

// Parses a definition from text; `path` names it in errors ("PATH:LINE: ...").
Definition parse_definition(std::string_view text, const std::string& path, DefinedMetric metric);
// Reads and parses a file; InputError when it cannot be read or is malformed.
Definition load_definition(const std::string& path, DefinedMetric metric);

class DefinedRule : public MoveNeighbours<DefinedRule> {
 public:
  // rows x cols is only the display shape of format() and of solve's query grids
  // (rows * cols == n); 0, 0 means one row.
  explicit DefinedRule(Definition def, int rows = 0, int cols = 0);

  std::string_view name() const { return data_->def.name; }
  const Definition& definition() const { return data_->def; }
  // "def:" + 11 hex digits of a hash of n, the solved state and the expanded moves:
  // what a depth table file records (its header holds 16 bytes for the rule).
  const std::string& table_id() const { return data_->table_id; }
  Grid grid() const { return grid_; }
  int rows() const { return grid_.rows; }
  int cols() const { return grid_.cols; }
  int cells() const { return n_; }
  bool directed() const { return data_->directed; }
  int max_degree() const { return static_cast<int>(data_->fwd.size()); }
  // Largest order of a move (the number of applications that give the identity).
  int max_move_order() const { return data_->max_order; }
  // True when every piece is distinct (the graph is a Cayley graph of S_n).
  bool distinct() const { return distinct_; }
  const std::vector<std::string>& move_names() const { return data_->def.move_names; }

  std::uint64_t size() const { return distinct_ ? kFactorial[static_cast<std::size_t>(n_)] : data_->ranker.size(); }
  std::uint64_t rank(State s) const { return distinct_ ? perm_rank(s, n_) : data_->ranker.rank(s); }
  State unrank(std::uint64_t r) const { return distinct_ ? perm_unrank(r, n_) : data_->ranker.unrank(r); }
  // unrank for ascending scans (PermCursor when every piece is distinct); one per thread.
  struct Unranker {
    const DefinedRule* rule;
    PermCursor cursor;
    State operator()(std::uint64_t r) { return rule->distinct_ ? cursor.unrank(r) : rule->unrank(r); }
  };
  Unranker unranker() const { return Unranker{this, PermCursor(n_)}; }
  bool in_space(State) const { return true; }
  std::vector<State> goals() const { return {start_ ? *start_ : solved_}; }
  // analyze --start: the goal set becomes {s}, so the BFS runs from s.
  void search_from(State s) { start_ = s; }
  std::optional<State> search_start() const { return start_; }
  void clear_search_start() { start_.reset(); }

  // The i-th (expanded) move applied to s.
  State apply(int move, State s) const { return data_->fwd[static_cast<std::size_t>(move)].apply(s); }

  // Labels: the definition's move names (and those its --metric generated), in order.
  template <class F>
  void for_each_move(State s, F&& f) const {
    for (std::size_t m = 0; m < data_->fwd.size(); ++m)
      if (emit_move(
              f, [&] { return data_->def.move_names[m]; }, data_->fwd[m].apply(s)))
        return;
  }
  template <class F>
  void for_each_predecessor(State s, F&& f) const {
    for (const PermMove& m : data_->inv)
      if (emit_neighbour(f, m.apply(s))) return;
  }

  // f(rank) for the successors of s, whose rank is r, in the order of for_each_successor,
  // and for its predecessors (the order of for_each_predecessor on a directed rule, of
  // for_each_successor on an undirected one: the same states), computed incrementally
  // (MoveRanks) when every piece is distinct, else by rank() of each; f may return true
  // to stop. Tested against rank() (defs_test.cpp).
  template <class F>
  void for_each_successor_rank(State s, std::uint64_t r, F&& f) const {
    if (!distinct_) return for_each_successor(s, [&](State t) { return f(rank(t)); });
    data_->fwd_ranks.for_each_rank(
        s, r, [](std::size_t) { return true; }, f);
  }
  template <class F>
  void for_each_predecessor_rank(State s, std::uint64_t r, F&& f) const {
    if (!distinct_) return for_each_predecessor(s, [&](State t) { return f(rank(t)); });
    (data_->directed ? data_->inv_ranks : data_->fwd_ranks)
        .for_each_rank(
            s, r, [](std::size_t) { return true; }, f);
  }

  // f(rank) for the successors (predecessors: successors false) of s by the moves that
  // move one of its first `cells` cells (NumberGridRule::for_each_leading_rank); all of
  // them with repeated pieces.
  template <class F>
  void for_each_leading_rank(State s, std::uint64_t r, bool successors, int cells, F&& f) const {
    if (!distinct_) {
      if (successors) return for_each_successor_rank(s, r, f);
      return for_each_predecessor_rank(s, r, f);
    }
    const MoveRanks& m = successors || !data_->directed ? data_->fwd_ranks : data_->inv_ranks;
    m.for_each_rank_of(s, r, m.moves_touching(cells), f);
  }
  // The successors' (true) or predecessors' (false) ranks from the rank alone, for
  // ascending scans (MoveRanks::Scanner, one per task); an unusable one with repeated pieces.
  MoveRanks::Scanner rank_scanner(bool successors) const {
    if (!distinct_) return {};
    return (successors || !data_->directed ? data_->fwd_ranks : data_->inv_ranks).scanner();
  }

  // Every move is a fixed permutation of the positions. With distinct pieces,
  // relabelling them commutes with the moves: a Cayley graph.
  DiameterSymmetry diameter_symmetry() const { return distinct_ ? DiameterSymmetry::kCayley : DiameterSymmetry::kNone; }
  JudgeFormat judge_format() const { return JudgeFormat::kNumberGrids; }
  // Judge numbers: piece numbers with the solved state's multiset (repeats allowed).
  bool from_numbers(const int* v, State& s, int& bad, std::string& error) const {
    for (int i = 0; i < n_; ++i)
      if (v[i] == kBlankNumber) {
        error = "'_' (a blank) is not a piece of this rule";
        return bad = i, false;
      }
    error = check_pieces(v, bad);
    if (!error.empty()) return false;
    s = 0;
    for (int i = 0; i < n_; ++i) s = set_cell(s, i, static_cast<unsigned>(v[i] - 1));
    return true;
  }

  // Piece numbers, spaces between cells, '/' between display rows.
  std::string format(State s) const;
  // n piece numbers (separators ' ', ',', '/', newlines; n <= 9 digits may run
  // together); the multiset must be the solved state's.
  State parse(std::string_view text) const;
  // Empty when the n piece numbers v[0..n) form a state of this rule, else why not;
  // `bad` is the index of the first offending number.
  std::string check_pieces(const int* v, int& bad) const;

 private:
  struct Data {
    Definition def;
    std::vector<PermMove> fwd, inv;
    MoveRanks fwd_ranks, inv_ranks;  // distinct pieces only (inv_ranks: directed only)
    MultisetRanker ranker;
    bool directed = true;
    int max_order = 1;
    std::string table_id;
  };
  std::shared_ptr<const Data> data_;  // shared: AnyRule copies stay cheap
  Grid grid_;
  int n_ = 0;
  bool distinct_ = true;
  State solved_ = 0;
  std::optional<State> start_;           // search_from
  std::array<int, kMaxCells> counts_{};  // pieces per symbol
  int kinds_ = 0;                        // distinct piece numbers
};

}  // namespace stategraph
