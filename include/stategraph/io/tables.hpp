// The CSV tables the commands write, built from the analyses' plain structs (Summary,
// GraphReport, CompareReport, ...): the analyses compute, the output layer chooses the
// columns and the number formats. Each table's columns are listed at its function.
#pragma once

#include <cstdint>
#include <vector>

#include "stategraph/analysis/analysis.hpp"
#include "stategraph/analysis/compare.hpp"
#include "stategraph/analysis/graph.hpp"
#include "stategraph/io/io.hpp"

namespace stategraph {

// distribution.csv: depth,states,cumulative,fraction.
CsvTable distribution_table(const BfsResult& result);
// distribution.csv with the extra column `paths` (empty when paths is empty).
CsvTable distribution_with_paths(const BfsResult& result, const std::vector<PathCount>& paths);
// levels.csv: depth,states,direction,seconds.
CsvTable levels_table(const BfsResult& result);
// summary.csv, one row: rule,rows,cols,space_size,reachable,max_depth,antipodes,variant,
// threads,seconds,peak_bytes,goals,start_distance, then the graph columns components,
// largest_component,diameter,goal_component_size,average_distance,edges,
// diameter_bfs_runs,diameter_seconds,diameter_method,diameter_lower,diameter_upper,
// diameter_budget_stopped,labelling_seconds,small_components_seconds,
// large_components_seconds,symmetries,mirrored_components,mirrored_states,graph_note,
// diameter_image_sources (empty without a graph analysis). diameter_seconds is the wall time of the diameter work: the
// small components' (during labelling) plus the large components' and the finishing runs.
CsvTable summary_table(const Summary& s);

// components.csv: component,size,representative,eccentricity_of_representative,diameter,
// diameter_lower,diameter_upper,diameter_method,diameter_bfs_runs,mirror_of,
// diameter_image_sources (diameter empty unless exact; bounds empty when unknown;
// mirror_of: the component an automorphism maps onto this one, whose bounds it shares;
// diameter_image_sources: states whose eccentricity came from a BFS source's image under
// an automorphism keeping the component, i.e. BFS runs saved).
// All components when there are at most max_components, else the max_components
// largest (ties: smaller representative first). `component` is the component's index
// in order of representative; the representative is written with rule.format.
CsvTable components_table(const AnyRule& rule, const GraphReport& report, std::uint64_t max_components);
// diameter_witnesses.csv: component,kind,state,other_state,value. Per witnessed
// component: a `lower` row (two states and their distance, the lower bound), an `upper`
// row (the upper bound), and one `source` row per BFS source with its eccentricity: every
// state w of the component has ecc(w) <= min over sources s of ecc(s) + d(s, w) <= upper.
// A source row with other_state set is the image of that source (run) under an
// automorphism keeping the component: same eccentricity, no BFS of its own.
CsvTable diameter_witnesses_table(const AnyRule& rule, const GraphReport& report);
// component_sizes.csv: size,count (every component size once, ascending).
CsvTable component_sizes_table(const GraphReport& report);
// antipodes.csv: rank,state.
CsvTable antipodes_table(const AnyRule& rule, const std::vector<std::uint64_t>& ranks);

// compare.csv: rule,rows,cols,variant,threads,repeat,seconds,states_per_s,edges_per_s,
// peak_bytes,bits_per_state (edges_per_s empty when edges were not counted).
CsvTable compare_table(const CompareReport& report);
// compare_levels.csv: rule,rows,cols,variant,threads,repeat,depth,direction,seconds.
CsvTable compare_levels_table(const CompareReport& report);
// compare_summary.csv: rule,rows,cols,variant,threads,runs,median_seconds,min_seconds,
// max_seconds,median_states_per_s,speedup_vs_serial,speedup_vs_base_threads,base_threads.
CsvTable compare_summary_table(const CompareReport& report, const CompareSummary& summary);

}  // namespace stategraph
