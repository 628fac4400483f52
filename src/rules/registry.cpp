#include <string>

#include "stategraph/rules/rule.hpp"

namespace stategraph {

static_assert(Rule<Sliding> && Rule<Rotate> && Rule<PrimeSwap> && Rule<CardSwap> && Rule<DefinedRule>);

const std::vector<RuleInfo>& rule_table() {
  static const std::vector<RuleInfo> table = {
      {Sliding::kName, "tiles 1..n-1 and a blank; the blank swaps with a 4-neighbour", 3, 3},
      {Rotate::kName, "a 2x2 block turns clockwise (directed; --directions both: either way)", 3, 3},
      {PrimeSwap::kName, "two adjacent numbers swap when their sum is prime", 3, 3},
      {CardSwap::kName, "cards A, B, soldiers * and a blank; a piece slides into the blank", 2, 3},
  };
  return table;
}

const RuleInfo& find_rule(std::string_view name) {
  std::string known;
  for (const auto& info : rule_table()) {
    if (info.name == name) return info;
    known += (known.empty() ? "" : ", ") + std::string(info.name);
  }
  throw InputError("unknown rule '" + shown_input(name) + "' (known: " + known + ")");
}

AnyRule make_rule(std::string_view name, int rows, int cols, const RuleOptions& options) {
  if (name.substr(0, kDefinitionPrefix.size()) == kDefinitionPrefix) {
    if (options.start) throw InputError("--start is only used by cardswap; a defined rule starts from its Solved state");
    if (options.directions) throw InputError("--directions is for rotate; a defined rule takes --metric");
    const std::string path(name.substr(kDefinitionPrefix.size()));
    if (path.empty()) throw InputError("--rule file:PATH needs a path");
    const DefinedMetric metric = options.metric ? parse_metric(*options.metric) : DefinedMetric::kGiven;
    return DefinedRule(load_definition(path, metric), rows, cols);
  }
  if (options.metric) throw InputError("--metric is for defined rules (--rule file:PATH)");
  bool both = false;
  if (name == Rotate::kNameBoth) name = Rotate::kName, both = true;
  if (options.directions) {
    if (name != Rotate::kName) throw InputError("--directions is only used by rotate");
    if (*options.directions == "both") both = true;
    else if (*options.directions == "cw" && both) throw InputError("rule rotate-both with --directions cw: pick one");
    else if (*options.directions != "cw")
      throw InputError("unknown --directions '" + *options.directions + "' (known: cw, both)");
  }
  const RuleInfo& info = find_rule(name);
  if (rows == 0) rows = info.default_rows;
  if (cols == 0) cols = info.default_cols;
  const Grid grid(rows, cols);
  if (options.start && name != CardSwap::kName)
    throw InputError("--start is only used by cardswap; rule '" + std::string(name) + "' starts from its goal");
  if (name == Sliding::kName) return Sliding(grid);
  if (name == Rotate::kName) return Rotate(grid, both);
  if (name == PrimeSwap::kName) return PrimeSwap(grid);
  if (options.start) return CardSwap(grid, *options.start);
  if (grid.rows != 2 || grid.cols != 3)
    throw InputError("cardswap on " + grid.label() + " needs --start (the seed start is for 2x3)");
  return CardSwap(grid, CardSwap::kSeedStart);
}

}  // namespace stategraph
