// The whole-graph part of `analyze`: its options, and the run after the BFS
// that fills the summary's graph columns and produces components.csv,
// component_sizes.csv, antipodes.csv and the `paths` column of distribution.csv.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "stategraph/analysis/analysis.hpp"
#include "stategraph/analysis/graph.hpp"

namespace stategraph::cli {

struct GraphCliOptions {
  bool skip = false;  // --no-graph
  std::uint64_t max_components = 1000;
  std::uint64_t max_antipodes = 100;
  bool exact = false;  // --exact-diameter: no symmetry shortcuts
  std::uint64_t max_exact_states = GraphOptions{}.exact_limit;
  std::uint64_t budget_runs = 0;  // --diameter-budget-runs (per component; 0: none)
  double budget_seconds = 0;      // --diameter-budget (wall seconds of the graph analysis; 0: none)
  bool no_large_bounds = false;   // --no-large-bounds: components above the exact limit get [ecc, 2 ecc]
  bool no_symmetry = false;       // --no-diameter-symmetry
  bool verbose_graph = false;     // --graph-progress
};

void add_graph_options(CLI::App* sub, GraphCliOptions& o);
// The graph analysis reads the BFS depth table.
inline bool graph_wants_depths(const GraphCliOptions& o) { return !o.skip; }

struct GraphOutputs {
  std::vector<PathCount> paths;                            // empty: not computed
  std::vector<std::pair<std::string, std::string>> files;  // name, content
  double seconds = 0;                                      // all graph analyses
};

// Runs after the BFS from the goals; fills summary.graph. Nothing when o.skip.
// memory_limit: the bytes the whole run may hold (0: no check); the goal BFS's depth
// table, still held, is subtracted for the graph analysis. stop: the signal flag; a signal
// ends the phase within about a second by BfsInterrupted, with nothing written.
GraphOutputs run_graph(const AnyRule& rule, const BfsResult& result, Summary& summary, const GraphCliOptions& o,
                       bool quiet, std::uint64_t memory_limit = 0, const std::atomic<int>* stop = nullptr);

}  // namespace stategraph::cli
