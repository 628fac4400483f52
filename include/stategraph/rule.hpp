// The rule interface (a C++20 concept every move rule satisfies), the closed set of
// built-in rules as a std::variant, and the registry that the CLI, tests and
// benchmarks iterate over. Adding a rule: one header under rules/, one alternative in
// AnyRule, one row in rule_table() (src/rules/registry.cpp).
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "stategraph/rules/cardswap.hpp"
#include "stategraph/rules/primeswap.hpp"
#include "stategraph/rules/rotate.hpp"
#include "stategraph/rules/sliding.hpp"
#include "stategraph/state.hpp"

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

using AnyRule = std::variant<Sliding, Rotate, PrimeSwap, CardSwap>;

// Options a rule may need beyond its grid.
struct RuleOptions {
  std::optional<std::string> start;  // cardswap: the start position
};

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
// Builds a rule; rows/cols of 0 mean the rule's default size.
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
inline std::uint64_t rule_size(const AnyRule& r) {
  return std::visit([](const auto& x) { return x.size(); }, r);
}

}  // namespace stategraph
