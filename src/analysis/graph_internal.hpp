// Internal: how analyze_graph obtains diameters (src/analysis/diameter.cpp).
#pragma once

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
void finish_diameters(const AnyRule& rule, const GraphOptions& options, const DiameterPlan& plan, GraphReport& report);

}  // namespace stategraph
