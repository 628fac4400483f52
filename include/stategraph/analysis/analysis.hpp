// The summary of one BFS from the goals (size, reach, depth, antipodes, the start's
// distance, and the graph analysis's results when it ran): a plain struct that
// io/tables.hpp turns into summary.csv.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "stategraph/bfs/bfs.hpp"

namespace stategraph {

struct Summary {
  std::string rule;
  int rows = 0, cols = 0;
  std::uint64_t space_size = 0;
  std::uint64_t reachable = 0;
  int max_depth = 0;
  std::uint64_t antipodes = 0;  // states at max_depth
  std::string variant;
  int threads = 1;
  double seconds = 0;
  std::uint64_t peak_bytes = 0;
  std::uint64_t goals = 0;
  std::optional<int> start_distance;  // cardswap: depth of the start (-1 unreachable)
  // The whole-graph results (graph.hpp); summary.csv leaves their columns empty when
  // the graph analysis did not run.
  struct Graph {
    std::uint64_t components = 0;
    std::uint64_t largest_component = 0;
    int diameter = -1;  // -1: undetermined (written empty)
    std::uint64_t goal_component_size = 0;
    double average_distance = 0;  // mean distance from the goal over reachable states
    std::uint64_t edges = 0;      // moves inside the goal's component
    std::uint64_t diameter_bfs_runs = 0;
    double diameter_seconds = 0;
    std::string diameter_method;
    int diameter_lower = -1, diameter_upper = -1;  // -1: unknown (written empty)
    bool budget_stopped = false;                   // a budget ended some bounding search
    double labelling_seconds = 0;                  // the component search alone
    double small_components_seconds = 0;           // diameters found during the search
    double large_components_seconds = 0;           // masked searches of components above the exact limit
    std::uint64_t symmetries = 0;                  // automorphisms used
    std::uint64_t mirrored_components = 0;         // components whose bounds came from an image
    std::uint64_t mirrored_states = 0;             // their states (searches saved)
    std::uint64_t diameter_image_sources = 0;      // eccentricities from sources' images (BFS runs saved)
    std::string note;                              // e.g. what the component count covers
  };
  std::optional<Graph> graph;
};

Summary summarize(const AnyRule& rule, const BfsResult& result, std::string variant, int threads);

}  // namespace stategraph
