// Internal: how analyze_graph obtains diameters (src/analysis/diameter.cpp).
#pragma once

#include <chrono>

#include "stategraph/analysis/graph.hpp"

namespace stategraph {

enum class DiameterKind {
  kCayley,       // rotate, defined rules with distinct pieces: diameter = eccentricity of the representative
  kBlankOrbits,  // sliding: one BFS per orbit of blank cells
  kExact,        // from each component's ranks (exact_diameter)
};

struct DiameterPlan {
  DiameterKind kind = DiameterKind::kExact;
  bool collect = true;  // the component search hands each component's ranks to exact_diameter
};

DiameterPlan plan_diameter(const AnyRule& rule, const GraphOptions& options);
// Fills the diameters the plan did not obtain during the component search.
// Steady-clock seconds since its epoch (the budgets' deadlines).
inline double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
// Bytes the masked BoundingDiameters allocates for a component of `component` states in
// a space of `space` ranks (bitsets + 16-bit distance and bounds per state).
std::uint64_t masked_bytes(std::uint64_t space, std::uint64_t component);
// Bytes of a component's explicit adjacency list and BFS buffers (an estimate from above).
std::uint64_t csr_bytes(std::uint64_t component, int max_degree);

void finish_diameters(const AnyRule& rule, const GraphOptions& options, const DiameterPlan& plan, GraphReport& report);

}  // namespace stategraph
