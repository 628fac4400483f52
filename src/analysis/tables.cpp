#include <string>

#include "stategraph/analysis/analysis.hpp"

namespace stategraph {

CsvTable distribution_table(const BfsResult& result) {
  CsvTable t({"depth", "states", "cumulative", "fraction"});
  const std::uint64_t total = result.reached();
  std::uint64_t cumulative = 0;
  for (std::size_t d = 0; d < result.layers.size(); ++d) {
    cumulative += result.layers[d];
    t.add_row({std::to_string(d), std::to_string(result.layers[d]), std::to_string(cumulative),
               fmt_double(static_cast<double>(result.layers[d]) / static_cast<double>(total))});
  }
  return t;
}

CsvTable levels_table(const BfsResult& result) {
  CsvTable t({"depth", "states", "direction", "seconds"});
  for (const auto& l : result.levels)
    t.add_row({std::to_string(l.depth), std::to_string(l.states), std::string(direction_name(l.direction)),
               fmt_double(l.seconds)});
  return t;
}

Summary summarize(const AnyRule& rule, const BfsResult& result, std::string variant, int threads) {
  Summary s;
  s.rule = std::string(rule_name(rule));
  const Grid g = rule_grid(rule);
  s.rows = g.rows;
  s.cols = g.cols;
  s.space_size = rule_size(rule);
  s.reachable = result.reached();
  s.max_depth = result.max_depth();
  s.antipodes = result.layers.empty() ? 0 : result.layers.back();
  s.variant = std::move(variant);
  s.threads = threads;
  s.seconds = result.seconds;
  s.peak_bytes = result.peak_bytes;
  std::visit(
      [&](const auto& r) {
        s.goals = r.goals().size();
        if constexpr (requires { r.start(); }) {
          if (!result.depth.empty()) {
            const auto d = result.depth[r.rank(r.start())];
            s.start_distance = d == kUnreached ? -1 : static_cast<int>(d);
          }
        }
      },
      rule);
  return s;
}

CsvTable summary_table(const Summary& s) {
  CsvTable t({"rule", "rows", "cols", "space_size", "reachable", "max_depth", "antipodes", "variant", "threads",
              "seconds", "peak_bytes", "goals", "start_distance", "components", "largest_component", "diameter",
              "goal_component_size", "average_distance", "edges", "diameter_bfs_runs", "diameter_seconds",
              "diameter_method"});
  std::vector<std::string> row = {s.rule, std::to_string(s.rows), std::to_string(s.cols), std::to_string(s.space_size),
             std::to_string(s.reachable), std::to_string(s.max_depth), std::to_string(s.antipodes), s.variant,
             std::to_string(s.threads), fmt_double(s.seconds), std::to_string(s.peak_bytes), std::to_string(s.goals),
             s.start_distance ? std::to_string(*s.start_distance) : std::string()};
  if (s.graph) {
    const auto& g = *s.graph;
    for (auto v : {std::to_string(g.components), std::to_string(g.largest_component),
                   g.diameter < 0 ? std::string() : std::to_string(g.diameter), std::to_string(g.goal_component_size),
                   fmt_double(g.average_distance), std::to_string(g.edges), std::to_string(g.diameter_bfs_runs),
                   fmt_double(g.diameter_seconds), g.diameter_method})
      row.push_back(v);
  } else {
    row.resize(row.size() + 9);
  }
  t.add_row(std::move(row));
  return t;
}

}  // namespace stategraph
