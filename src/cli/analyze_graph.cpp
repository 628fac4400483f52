#include "analyze_graph.hpp"

#include <chrono>
#include <iostream>

#include "stategraph/bfs/memory.hpp"
#include "stategraph/io/log_text.hpp"
#include "stategraph/io/tables.hpp"

namespace stategraph::cli {

// Shortest-path counts keep 8 bytes per rank; above this they are skipped (empty column).
constexpr std::uint64_t kPathsMaxBytes = std::uint64_t{4} << 30;

void add_graph_options(CLI::App* sub, GraphCliOptions& o) {
  sub->add_flag("--no-graph", o.skip, "Skip the whole-graph analysis (components, diameters, antipodes, path counts)");
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
                  "Largest component whose diameter takes an explicit adjacency list; larger ones get bounds from "
                  "BoundingDiameters over bitset BFS restricted to the component")
      ->capture_default_str();
  sub->add_option("--diameter-budget-runs", o.budget_runs,
                  "At most this many BFS runs per bounding search of a component above --max-exact-states "
                  "(0: until the bounds meet); a run stopped by it writes its bounds and witnesses")
      ->capture_default_str();
  sub->add_option("--diameter-budget", o.budget_seconds,
                  "Stop the bounding searches this many wall seconds after the graph analysis starts (0: no limit)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  sub->add_flag("--no-large-bounds", o.no_large_bounds,
                "Components above --max-exact-states get only [ecc(rep), 2 ecc(rep)], no masked search");
  sub->add_flag("--no-diameter-symmetry", o.no_symmetry,
                "Use no automorphism of the rule: no bounds copied between components that one maps onto each "
                "other, and no symmetry images as extra sources of the diameter searches");
  sub->add_flag("--graph-progress", o.verbose_graph, "Print memory needs and each large-component BFS to stderr");
}

GraphOutputs run_graph(const AnyRule& rule, const BfsResult& result, Summary& summary, const GraphCliOptions& o,
                       bool quiet, std::uint64_t memory_limit, const std::atomic<int>* stop) {
  GraphOutputs out;
  if (o.skip) return out;
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  GraphOptions go;
  go.method = o.exact ? DiameterMethod::kExact : DiameterMethod::kAuto;
  go.exact_limit = o.max_exact_states;
  // The whole-space shortcut (graph.hpp) takes the goal's eccentricity for that of rank 0:
  // a BFS from another --start says nothing about rank 0, so the components are searched.
  go.goal_bfs = rule_searches_from_goal(rule) ? &result : nullptr;
  go.budget_runs = o.budget_runs;
  go.budget_seconds = o.budget_seconds;
  go.bound_large = !o.no_large_bounds;
  go.symmetry = !o.no_symmetry;
  go.verbose = o.verbose_graph && !quiet;
  go.stop = stop;
  if (memory_limit > 0 && memory_limit != ~std::uint64_t{0}) {
    const std::uint64_t held = result.depth.capacity();
    go.memory_limit = memory_limit > held ? memory_limit - held : 1;
  }
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
  g.diameter_lower = report.diameter_lower;
  g.diameter_upper = report.diameter_upper;
  g.budget_stopped = report.budget_stopped;
  g.labelling_seconds = report.components_seconds;
  g.small_components_seconds = report.small_seconds;
  g.large_components_seconds = report.large_seconds;
  g.symmetries = report.symmetries;
  g.mirrored_components = report.mirrored_components;
  g.mirrored_states = report.mirrored_states;
  g.diameter_image_sources = report.diameter_image_sources;
  g.note = report.note;
  summary.graph = g;

  // Path counts: 8 bytes per rank, checked against the cap and the memory limit before allocating.
  const std::uint64_t paths_need = rule_size(rule) * 8;
  std::string paths_skipped;  // why the counts are absent, or empty
  if (paths_need > kPathsMaxBytes)
    paths_skipped = "above the " + format_bytes(kPathsMaxBytes) + " cap";
  else if (go.memory_limit > 0 && paths_need > go.memory_limit)
    paths_skipped = "above the memory limit";
  if (!paths_skipped.empty())
    summary.graph->note += std::string(summary.graph->note.empty() ? "" : "; ") + "paths not counted: they need " +
                           format_bytes(paths_need) + ", " + paths_skipped;
  else
    out.paths = path_counts(rule, result, stop);
  const auto ranks = antipodes(result, o.max_antipodes);
  out.files.emplace_back("components.csv", components_table(rule, report, o.max_components).str());
  out.files.emplace_back("component_sizes.csv", component_sizes_table(report).str());
  out.files.emplace_back("antipodes.csv", antipodes_table(rule, ranks).str());
  if (!report.witnesses.empty())
    out.files.emplace_back("diameter_witnesses.csv", diameter_witnesses_table(rule, report).str());
  out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!quiet) {
    std::cerr << "  graph: " << count_text(g.components, "component") << ", largest " << g.largest_component
              << ", diameter " << (g.diameter < 0 ? std::string("undetermined") : std::to_string(g.diameter)) << " ("
              << g.diameter_method << ", bounds [" << g.diameter_lower << ", " << g.diameter_upper << "], "
              << count_text(g.diameter_bfs_runs, "extra BFS run") << " (+" << g.diameter_image_sources
              << " from images), " << seconds_text(g.diameter_seconds) << ": small components "
              << seconds_text(report.small_seconds) << ", large " << seconds_text(report.large_seconds)
              << "), labelling " << seconds_text(report.components_seconds) << ", all graph analyses "
              << seconds_text(out.seconds) << "\n";
  }
  return out;
}

}  // namespace stategraph::cli
