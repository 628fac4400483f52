// The table of built-in rules, each row with its factory, and make_rule, which checks
// the name, the size and the options against the row before the row builds the rule.
#include <string>

#include "stategraph/rules/rule.hpp"

namespace stategraph {

static_assert(Rule<Sliding> && Rule<Rotate> && Rule<PrimeSwap> && Rule<CardSwap> && Rule<DefinedRule> && Rule<AdjSwap>);

namespace {

AnyRule build_rotate(std::string_view name, Grid grid, const RuleOptions& options) {
  bool both = name == Rotate::kNameBoth;
  if (options.directions) {
    if (*options.directions == "both")
      both = true;
    else if (*options.directions == "cw" && both)
      throw InputError("rule rotate-both with --directions cw: pick one");
    else if (*options.directions != "cw")
      throw InputError("unknown --directions '" + *options.directions + "' (known: cw, both)");
  }
  return Rotate(grid, both);
}

AnyRule build_cardswap(std::string_view, Grid grid, const RuleOptions& options) {
  if (options.start) return CardSwap(grid, *options.start);
  if (options.any_start) {
    // A solve table has a section per A/B placement: any start will do. A, B, soldiers, blank.
    std::string text;
    for (int i = 0; i < grid.cells(); ++i) {
      if (i > 0 && i % grid.cols == 0) text += '/';
      text += i == 0 ? 'A' : i == 1 ? 'B' : i + 1 == grid.cells() ? '_' : '*';
    }
    return CardSwap(grid, text);
  }
  if (grid.rows != 2 || grid.cols != 3)
    throw InputError("cardswap on " + grid.label() + " needs --start (the seed start is for 2x3)");
  return CardSwap(grid, CardSwap::kSeedStart);
}

// --start on a rule whose goal does not depend on a start: the BFS runs from it
// (search_from); a malformed start, or one outside the rule's states, is an InputError.
AnyRule search_from(AnyRule rule, const std::string& text) {
  std::visit(
      [&](auto& r) {
        if constexpr (requires(State s) { r.search_from(s); }) {
          State s = 0;
          try {
            s = r.parse(text);
          } catch (const InputError& e) {
            throw InputError("--start '" + shown_input(text) + "': " + e.what());
          }
          r.search_from(s);
          if (!r.in_space(s) || r.rank(s) >= r.size())
            throw InputError("--start '" + shown_input(text) + "' is not a state of rule " + std::string(r.name()));
        } else {
          throw InputError("rule " + std::string(r.name()) + " takes no --start");
        }
      },
      rule);
  return rule;
}

}  // namespace

std::string rules_reading(unsigned option, std::string_view separator) {
  std::string out;
  for (const auto& info : rule_table())
    if (info.options & option) out += (out.empty() ? "" : std::string(separator)) + std::string(info.name);
  return out;
}

const std::vector<RuleInfo>& rule_table() {
  static const std::vector<RuleInfo> table = {
      {.name = Sliding::kName,
       .summary = "tiles 1..n-1 and a blank; the blank swaps with a 4-neighbour",
       .default_rows = 3,
       .default_cols = 3,
       .seed = true,
       .options = 0,
       .alias = {},
       .build = [](std::string_view, Grid g, const RuleOptions&) -> AnyRule { return Sliding(g); }},
      {.name = Rotate::kName,
       .summary = "a 2x2 block turns clockwise (directed; --directions both: either way)",
       .default_rows = 3,
       .default_cols = 3,
       .seed = true,
       .options = kDirectionsOption,
       .alias = Rotate::kNameBoth,
       .build = build_rotate},
      {.name = PrimeSwap::kName,
       .summary = "two adjacent numbers swap when their sum is prime",
       .default_rows = 3,
       .default_cols = 3,
       .seed = true,
       .options = 0,
       .alias = {},
       .build = [](std::string_view, Grid g, const RuleOptions&) -> AnyRule { return PrimeSwap(g); }},
      {.name = CardSwap::kName,
       .summary = "cards A, B, soldiers * and a blank; a piece slides into the blank",
       .default_rows = 2,
       .default_cols = 3,
       .seed = true,
       .options = kStartOption,
       .alias = {},
       .build = build_cardswap},
      {.name = AdjSwap::kName,
       .summary = "any two adjacent numbers swap (the Cayley graph of adjacent transpositions)",
       .default_rows = 3,
       .default_cols = 3,
       .seed = false,
       .options = 0,
       .alias = {},
       .build = [](std::string_view, Grid g, const RuleOptions&) -> AnyRule { return AdjSwap(g); }},
  };
  return table;
}

const RuleInfo& find_rule(std::string_view name) {
  std::string known;
  for (const auto& info : rule_table()) {
    if (info.name == name || (!info.alias.empty() && info.alias == name)) return info;
    known += (known.empty() ? "" : ", ") + std::string(info.name);
  }
  throw InputError("unknown rule '" + shown_input(name) + "' (known: " + known + ")");
}

AnyRule make_rule(std::string_view name, int rows, int cols, const RuleOptions& options) {
  if (name.substr(0, kDefinitionPrefix.size()) == kDefinitionPrefix) {
    if (options.directions)
      throw InputError("--directions is for " + rules_reading(kDirectionsOption) + "; a defined rule takes --metric");
    const std::string path(name.substr(kDefinitionPrefix.size()));
    if (path.empty()) throw InputError("--rule file:PATH needs a path");
    const DefinedMetric metric = options.metric ? parse_metric(*options.metric) : DefinedMetric::kGiven;
    AnyRule rule = DefinedRule(load_definition(path, metric), rows, cols);
    return options.start ? search_from(std::move(rule), *options.start) : rule;
  }
  if (options.metric) throw InputError("--metric is for defined rules (--rule file:PATH)");
  const RuleInfo& info = find_rule(name);
  if (options.directions && !(info.options & kDirectionsOption))
    throw InputError("--directions is only used by " + rules_reading(kDirectionsOption));
  const Grid grid(rows ? rows : info.default_rows, cols ? cols : info.default_cols);
  if (options.start && !(info.options & kStartOption)) {
    RuleOptions rest = options;
    rest.start.reset();
    return search_from(info.build(name, grid, rest), *options.start);
  }
  return info.build(name, grid, options);
}

}  // namespace stategraph
