// The rule interface (a C++20 concept every move rule satisfies), the closed set of
// built-in rules as a std::variant, and the registry that the CLI, tests and
// benchmarks iterate over. Adding a rule: one header under rules/, one alternative in
// AnyRule, one row in rule_table() (src/rules/registry.cpp). DefinedRule is the one
// alternative not in the table: it is read from a definition file, `--rule file:PATH`.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "stategraph/rules/cardswap.hpp"
#include "stategraph/rules/defined.hpp"
#include "stategraph/rules/primeswap.hpp"
#include "stategraph/rules/rotate.hpp"
#include "stategraph/rules/sliding.hpp"
#include "stategraph/core/state.hpp"

namespace stategraph {

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
  r.for_each_successor(s, [](State) {});
  r.for_each_predecessor(s, [](State) {});
};

using AnyRule = std::variant<Sliding, Rotate, PrimeSwap, CardSwap, DefinedRule>;

// Options a rule may need beyond its grid.
struct RuleOptions {
  std::optional<std::string> start;       // cardswap: the start position
  std::optional<std::string> directions;  // rotate: "cw" (default) or "both"
  std::optional<std::string> metric;      // file:PATH: "given" (default), "inverses", "powers"
};

// The prefix of a --rule value that names a definition file.
inline constexpr std::string_view kDefinitionPrefix = "file:";

struct RuleInfo {
  std::string_view name;
  std::string_view summary;
  int default_rows;
  int default_cols;
};

// The built-in rules in a fixed order.
const std::vector<RuleInfo>& rule_table();
// The entry for a name, or InputError listing the known rules.
const RuleInfo& find_rule(std::string_view name);
// Builds a rule; rows/cols of 0 mean the rule's default size. "file:PATH" reads a
// definition (rows/cols: its display shape, default one row); "rotate-both" is rotate
// with directions both (the name its summaries and table files record).
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

inline std::string_view rule_name(const AnyRule& r) {
  return std::visit([](const auto& x) { return x.name(); }, r);
}
inline Grid rule_grid(const AnyRule& r) {
  return std::visit([](const auto& x) { return x.grid(); }, r);
}
// What a depth table file records as the rule (at most 15 characters): the name, or
// for a defined rule "def:" and a hash of its moves.
inline std::string rule_table_id(const AnyRule& r) {
  if (const auto* d = std::get_if<DefinedRule>(&r)) return d->table_id();
  return std::string(rule_name(r));
}
inline std::uint64_t rule_size(const AnyRule& r) {
  return std::visit([](const auto& x) { return x.size(); }, r);
}

}  // namespace stategraph
