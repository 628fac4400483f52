// The shared half of the rules whose states are the numbers 1..n on the grid, each once
// (symbol v-1 for number v): every permutation is a state, ranked directly (perm_rank),
// the goal is 1..n in reading order, and text and judge input are number grids. A rule
// derives from NumberGridRule<Itself> and adds its moves and properties; a rule whose
// moves are fixed cell permutations hands them to set_move_perms for incremental ranks.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stategraph/core/move_rank.hpp"
#include "stategraph/core/rank.hpp"
#include "stategraph/rules/grid_rule.hpp"

namespace stategraph {

template <class Derived>
class NumberGridRule : public GridRule, public MoveNeighbours<Derived> {
 public:
  explicit NumberGridRule(Grid g) : GridRule(g) { check_perm_size(n_); }

  std::uint64_t size() const { return kFactorial[static_cast<std::size_t>(n_)]; }
  std::uint64_t rank(State s) const { return perm_rank(s, n_); }
  State unrank(std::uint64_t r) const { return perm_unrank(r, n_); }
  // unrank for ascending scans (see PermCursor); one per thread.
  struct Unranker {
    PermCursor cursor;
    State operator()(std::uint64_t r) { return cursor.unrank(r); }
  };
  Unranker unranker() const { return Unranker{PermCursor(n_)}; }
  bool in_space(State) const { return true; }
  std::vector<State> goals() const { return {start_ ? *start_ : identity_state(n_)}; }
  // analyze --start: the goal set becomes {s}, so the BFS runs from s.
  void search_from(State s) { start_ = s; }
  std::optional<State> search_start() const { return start_; }
  void clear_search_start() { start_.reset(); }

  std::string format(State s) const {
    std::vector<std::string> labels;
    for (int i = 0; i < n_; ++i) labels.push_back(std::to_string(get_cell(s, i) + 1));
    return join_cells(labels, true);
  }
  State parse(std::string_view text) const { return pack_permutation(parse_numbers(text, n_, -1), n_); }
  JudgeFormat judge_format() const { return JudgeFormat::kNumberGrids; }
  bool from_numbers(const int* v, State& s, int& bad, std::string& error) const {
    return permutation_from_numbers(v, n_, s, bad, error);
  }

  // f(rank) for the successors / predecessors of s, whose rank is r, in the order of
  // for_each_successor / for_each_predecessor, computed incrementally (MoveRanks: digit
  // windows and the split rank's table) instead of by rank() of each; f may return true
  // to stop. Tested against rank() (rules_test.cpp).
  template <class F>
  void for_each_successor_rank(State s, std::uint64_t r, F&& f) const {
    emit_ranks(ranks_->successors, s, r, f);
  }
  template <class F>
  void for_each_predecessor_rank(State s, std::uint64_t r, F&& f) const {
    emit_ranks(ranks_->undirected ? ranks_->successors : ranks_->predecessors, s, r, f);
  }
  // f(rank) for the successors (predecessors: successors false) of s, whose rank is r, by
  // the moves that move one of its first `cells` cells: the only ones that can leave its
  // block of (n - cells)! ranks (MoveRanks::moves_touching). The disk variant's remote
  // neighbours on a bottom-up level.
  template <class F>
  void for_each_leading_rank(State s, std::uint64_t r, bool successors, int cells, F&& f) const {
    const MoveRanks& m = successors || ranks_->undirected ? ranks_->successors : ranks_->predecessors;
    std::uint64_t moves = m.moves_touching(cells);
    if constexpr (requires { self().applicable_moves(s, moves); }) moves = self().applicable_moves(s, moves);
    m.for_each_rank_of(s, r, moves, f);
  }
  // The successors' (true) or predecessors' (false) ranks from the rank alone, for
  // ascending scans (MoveRanks::Scanner, one per task); when the moves depend on the state
  // (applicable_moves), the scanner rebuilds the state and keeps the moves that apply.
  auto rank_scanner(bool successors) const {
    const MoveRanks& m = successors || ranks_->undirected ? ranks_->successors : ranks_->predecessors;
    if constexpr (requires { self().applicable_moves(State{}, std::uint64_t{}); })
      return FilteredScanner(self(), m);
    else
      return m.scanner();
  }
  class FilteredScanner {
   public:
    FilteredScanner() = default;
    FilteredScanner(const Derived& rule, const MoveRanks& m) : rule_(&rule), scan_(m.scanner()) {}
    bool usable() const { return rule_ && scan_.usable(); }
    template <class F>
    void operator()(std::uint64_t r, F&& f) {
      scan_(
          r, [this](State s, std::uint64_t among) { return rule_->applicable_moves(s, among); }, f);
    }

   private:
    const Derived* rule_ = nullptr;
    MoveRanks::Scanner scan_;
  };

 protected:
  // The rule's moves as cell permutations (t[i] = s[p[i]]), in the order of its
  // successors and of its predecessors; predecessors empty: the same (undirected).
  void set_move_perms(const std::vector<std::vector<int>>& successors,
                      const std::vector<std::vector<int>>& predecessors) {
    auto r = std::make_shared<Ranks>();
    r->successors = MoveRanks(n_, successors);
    r->undirected = predecessors.empty();
    if (!r->undirected) r->predecessors = MoveRanks(n_, predecessors);
    ranks_ = std::move(r);
  }

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
  // Every move of the list, or those the rule's applicable_moves(s) bit mask names.
  template <class F>
  void emit_ranks(const MoveRanks& m, State s, std::uint64_t r, F& f) const {
    if constexpr (requires { self().applicable_moves(s); })
      m.for_each_rank_of(s, r, self().applicable_moves(s), f);
    else
      m.for_each_rank(
          s, r, [](std::size_t) { return true; }, f);
  }
  struct Ranks {
    MoveRanks successors, predecessors;
    bool undirected = true;
  };
  std::shared_ptr<const Ranks> ranks_;  // shared: AnyRule copies stay cheap
  std::optional<State> start_;          // search_from
};

}  // namespace stategraph
