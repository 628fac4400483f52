#include "analyze_graph.hpp"

#include <chrono>
#include <iostream>

#include "stategraph/io/log_text.hpp"
#include "stategraph/io/tables.hpp"

namespace stategraph::cli {

// Shortest-path counts keep 8 bytes per rank; above this they are skipped (empty column).
constexpr std::uint64_t kPathsMaxBytes = std::uint64_t{4} << 30;

void add_graph_options(CLI::App* sub, GraphCliOptions& o) {
  sub->add_flag("--no-graph", o.skip,
                "Skip the whole-graph analysis (components, diameters, antipodes, path counts)");
  sub->add_option("--max-components", o.max_components,
                  "components.csv lists every component up to this many, else only this many largest "
                  "(component_sizes.csv always has the full histogram)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sub->add_option("--max-antipodes", o.max_antipodes, "antipodes.csv lists at most this many states")
      ->capture_default_str();
  sub->add_flag("--exact-diameter", o.exact,
                "Compute diameters without symmetry shortcuts (adjacency list + BFS bounds; small spaces)");
  sub->add_option("--max-exact-states", o.max_exact_states,
                  "Largest component whose diameter the exact method computes (else left empty)")
      ->capture_default_str();
}

GraphOutputs run_graph(const AnyRule& rule, const BfsResult& result, Summary& summary, const GraphCliOptions& o,
                       bool quiet) {
  GraphOutputs out;
  if (o.skip) return out;
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  GraphOptions go;
  go.method = o.exact ? DiameterMethod::kExact : DiameterMethod::kAuto;
  go.exact_limit = o.max_exact_states;
  go.goal_bfs = &result;
  const GraphReport report = analyze_graph(rule, go);

  Summary::Graph g;
  g.components = report.components.size();
  g.largest_component = report.largest_component;
  g.diameter = report.diameter;
  g.goal_component_size = report.goal_component_size;
  g.average_distance = average_distance(result);
  g.edges = reached_edges(rule, result);
  g.diameter_bfs_runs = report.diameter_bfs_runs;
  g.diameter_seconds = report.diameter_seconds;
  g.diameter_method = report.diameter_method;
  summary.graph = g;

  if (rule_size(rule) * 8 <= kPathsMaxBytes) out.paths = path_counts(rule, result);
  const auto ranks = antipodes(result, o.max_antipodes);
  out.files.emplace_back("components.csv", components_table(rule, report, o.max_components).str());
  out.files.emplace_back("component_sizes.csv", component_sizes_table(report).str());
  out.files.emplace_back("antipodes.csv", antipodes_table(rule, ranks).str());
  out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!quiet) {
    std::cerr << "  graph: " << count_text(g.components, "component") << ", largest " << g.largest_component
              << ", diameter " << (g.diameter < 0 ? std::string("undetermined") : std::to_string(g.diameter)) << " ("
              << g.diameter_method << ", " << count_text(g.diameter_bfs_runs, "extra BFS run") << ", "
              << seconds_text(g.diameter_seconds) << "), components in " << seconds_text(report.components_seconds)
              << ", all graph analyses " << seconds_text(out.seconds) << "\n";
  }
  return out;
}

}  // namespace stategraph::cli
