// The rule interface (a C++20 concept every move rule satisfies, with the properties
// consumers ask instead of testing which rule they hold), the closed set of rules as a
// std::variant, and the table of built-in rules, whose rows carry their factories.
// Adding a rule: a header under rules/, an alternative in AnyRule, a row in rule_table()
// (src/rules/registry.cpp). DefinedRule is read from a file (`--rule file:PATH`), no row.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "stategraph/core/state.hpp"
#include "stategraph/rules/adjswap.hpp"
#include "stategraph/rules/cardswap.hpp"
#include "stategraph/rules/defined.hpp"
#include "stategraph/rules/primeswap.hpp"
#include "stategraph/rules/rotate.hpp"
#include "stategraph/rules/sliding.hpp"

namespace stategraph {

// What every rule provides. Moves: for_each_move(s, f) calls f(label, t) for each
// successor t of s in a fixed order, `label()` giving the move's name (see emit_move);
// for_each_successor is derived from it (same order), for_each_predecessor walks the
// inverse moves (the same as the successors on an undirected rule).
//
// max_move_order(): 0 when a move is not one fixed permutation of the state set, else
// the largest order of a move. Why it matters: a move m that is a bijection of the
// finite state set has a finite order k (m^k = identity), so an edge s -> t = m(s) is
// undone by k - 1 more applications of m: every edge lies on a directed cycle. Hence on
// a directed rule (1) every weak component is strongly connected, and one forward BFS
// finds it (analysis/graph.cpp), and (2) d(t) <= d(s) + k - 1 for every move s -> t,
// which lets a depth table keep depths mod 15 when k <= 14 (solve/table.cpp).
template <class R>
concept Rule = requires(const R& r, State s, std::uint64_t k, std::string_view text) {
  { r.name() } -> std::convertible_to<std::string_view>;
  { r.grid() } -> std::convertible_to<Grid>;
  { r.cells() } -> std::convertible_to<int>;
  { r.directed() } -> std::convertible_to<bool>;
  { r.max_degree() } -> std::convertible_to<int>;
  { r.size() } -> std::same_as<std::uint64_t>;
  { r.rank(s) } -> std::same_as<std::uint64_t>;
  { r.unrank(k) } -> std::same_as<State>;
  { r.in_space(s) } -> std::convertible_to<bool>;
  { r.goals() } -> std::same_as<std::vector<State>>;
  { r.format(s) } -> std::same_as<std::string>;
  { r.parse(text) } -> std::same_as<State>;
  { r.max_move_order() } -> std::convertible_to<int>;
  { r.diameter_symmetry() } -> std::same_as<DiameterSymmetry>;
  { r.judge_format() } -> std::same_as<JudgeFormat>;
  r.for_each_move(s, [](const auto& label, State) { (void)label(); });
  r.for_each_successor(s, [](State) {});
  r.for_each_predecessor(s, [](State) {});
};

using AnyRule = std::variant<Sliding, Rotate, PrimeSwap, CardSwap, DefinedRule, AdjSwap>;

// Options a rule may need beyond its grid.
struct RuleOptions {
  // cardswap: the start position (its goal set follows from it); every other rule: the
  // state the BFS runs from instead of the goal (the rule's search_from).
  std::optional<std::string> start;
  std::optional<std::string> directions;  // rotate: "cw" (default) or "both"
  std::optional<std::string> metric;      // file:PATH: "given" (default), "inverses", "powers"
  // solve and table build: the depth table covers every start (a rule with sections),
  // so a rule that needs --start at some sizes does not.
  bool any_start = false;
};

// The prefix of a --rule value that names a definition file.
inline constexpr std::string_view kDefinitionPrefix = "file:";

// Which RuleOptions a row's builder reads (make_rule refuses the others, except a start:
// on a row without kStartOption, make_rule makes the built rule search from it).
enum RuleOptionFlag : unsigned { kStartOption = 1, kDirectionsOption = 2 };

struct RuleInfo {
  std::string_view name;
  std::string_view summary;
  int default_rows;
  int default_cols;
  bool seed;               // one of the rules `analyze --all` runs, at the default size
  unsigned options;        // RuleOptionFlag bits
  std::string_view alias;  // a second name the builder accepts (rotate-both), or empty
  // Builds the rule on a checked grid; `name` is the row's name or its alias.
  AnyRule (*build)(std::string_view name, Grid grid, const RuleOptions& options);
};

// The built-in rules in a fixed order.
const std::vector<RuleInfo>& rule_table();
// The entry for a name (or alias), or InputError listing the known rules.
const RuleInfo& find_rule(std::string_view name);
// The names of the rules whose row reads an option (RuleOptionFlag bits), joined by
// `separator`: "cardswap", "rotate or cardswap".
std::string rules_reading(unsigned option, std::string_view separator = " or ");
// Builds a rule; rows/cols of 0 mean the rule's default size. "file:PATH" reads a
// definition (rows/cols: its display shape, default one row). An unknown name, or an
// option the rule does not read, is an InputError.
AnyRule make_rule(std::string_view name, int rows = 0, int cols = 0, const RuleOptions& options = {});

// A callable k -> unrank(k) for one thread's ascending scan: the rule's own faster
// unranker() when it has one (PermCursor-based), else a plain call of unrank.
template <class R>
auto make_unranker(const R& rule) {
  if constexpr (requires { rule.unranker(); })
    return rule.unranker();
  else
    return [&rule](std::uint64_t k) { return rule.unrank(k); };
}

// ---- Properties of an AnyRule (what consumers ask instead of testing the type) ----

inline std::string_view rule_name(const AnyRule& r) {
  return std::visit([](const auto& x) { return x.name(); }, r);
}
inline Grid rule_grid(const AnyRule& r) {
  return std::visit([](const auto& x) { return x.grid(); }, r);
}
// What a depth table file records as the rule (at most 15 characters): the name, or
// for a defined rule "def:" and a hash of its moves.
inline std::string rule_table_id(const AnyRule& r) {
  return std::visit(
      [](const auto& x) -> std::string {
        if constexpr (requires { x.table_id(); })
          return x.table_id();
        else
          return std::string(x.name());
      },
      r);
}
inline std::uint64_t rule_size(const AnyRule& r) {
  return std::visit([](const auto& x) { return x.size(); }, r);
}
inline bool rule_directed(const AnyRule& r) {
  return std::visit([](const auto& x) { return x.directed(); }, r);
}
// False for a state outside the ranked space (sliding: the other parity class).
inline bool rule_in_space(const AnyRule& r, State s) {
  return std::visit([s](const auto& x) { return static_cast<bool>(x.in_space(s)); }, r);
}
// See the Rule concept: 0 when moves are not fixed permutations of the states.
inline int rule_max_move_order(const AnyRule& r) {
  return std::visit([](const auto& x) { return static_cast<int>(x.max_move_order()); }, r);
}
inline DiameterSymmetry rule_diameter_symmetry(const AnyRule& r) {
  return std::visit([](const auto& x) { return x.diameter_symmetry(); }, r);
}
inline JudgeFormat rule_judge_format(const AnyRule& r) {
  return std::visit([](const auto& x) { return x.judge_format(); }, r);
}
// The start position of a rule whose goals depend on one (cardswap); analyze reports
// its distance, so it needs the depth of every rank.
inline std::optional<State> rule_start(const AnyRule& r) {
  return std::visit(
      [](const auto& x) -> std::optional<State> {
        if constexpr (requires { x.start(); })
          return x.start();
        else
          return std::nullopt;
      },
      r);
}
// The state a rule's BFS runs from instead of its goal (a --start on a rule other than
// cardswap: its goals() are that state), if any.
inline std::optional<State> rule_search_start(const AnyRule& r) {
  return std::visit(
      [](const auto& x) -> std::optional<State> {
        if constexpr (requires { x.search_start(); })
          return x.search_start();
        else
          return std::nullopt;
      },
      r);
}
// The start a run records (run.csv, the folder name): cardswap's, or the search start.
inline std::optional<State> rule_given_start(const AnyRule& r) {
  if (const auto s = rule_start(r)) return s;
  return rule_search_start(r);
}
// True unless the rule searches from a start that is not its own goal.
inline bool rule_searches_from_goal(const AnyRule& r) {
  return std::visit(
      [](const auto& x) -> bool {
        if constexpr (requires { x.search_start(); }) {
          if (!x.search_start()) return true;
          auto own = x;
          own.clear_search_start();
          return own.goals() == std::vector<State>{*x.search_start()};
        } else {
          return true;
        }
      },
      r);
}
// DiameterSymmetry::kBlankOrbits: the blank's cell of s, and a state of the space with
// the blank on `cell`. std::logic_error for a rule without the symmetry.
inline int rule_blank_cell(const AnyRule& r, State s) {
  return std::visit(
      [s](const auto& x) -> int {
        if constexpr (requires { x.blank_cell(s); })
          return x.blank_cell(s);
        else
          throw std::logic_error("rule " + std::string(x.name()) + " has no blank");
      },
      r);
}
inline State rule_state_with_blank(const AnyRule& r, int cell) {
  return std::visit(
      [cell](const auto& x) -> State {
        if constexpr (requires { x.state_with_blank(cell); })
          return x.state_with_blank(cell);
        else
          throw std::logic_error("rule " + std::string(x.name()) + " has no blank");
      },
      r);
}

// Depth table sections: a rule whose goal depends on the query keeps one section per
// goal set (sections(), section_of(s), and for_section(k), the rule whose goals are
// section k's); every other rule has one section, its own goals.
inline std::uint64_t rule_sections(const AnyRule& r) {
  return std::visit(
      [](const auto& x) -> std::uint64_t {
        if constexpr (requires { x.sections(); })
          return x.sections();
        else
          return 1;
      },
      r);
}
template <class R>
std::uint64_t section_of(const R& rule, State s) {
  if constexpr (requires { rule.section_of(s); })
    return rule.section_of(s);
  else
    return 0;
}
inline AnyRule rule_for_section(const AnyRule& r, std::uint64_t k) {
  return std::visit(
      [k](const auto& x) -> AnyRule {
        if constexpr (requires { x.for_section(k); })
          return x.for_section(k);
        else
          return x;
      },
      r);
}

}  // namespace stategraph
