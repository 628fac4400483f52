// The whole state graph: connected components over the rule's ranked
// space, the exact diameter of every component, the antipodes of the goal, the
// number of shortest paths per depth (io/tables.hpp writes them as CSV).
//
// "Whole space" means every rank of the rule (rule.size()): all n! permutations for
// rotate and primeswap, every arrangement for cardswap, and for sliding the goal's
// parity class only (n!/2 ranks; the other class is an isomorphic copy, mapped onto
// the ranked one by swapping two tiles, so it has the same components and diameters).
//
// Components are found by repeated BFS over the bitset of unvisited ranks, each
// started from the smallest unvisited rank (so that rank is the component's
// representative and components come out in the order of their representatives).
// A BFS keeps its frontier as a vector of ranks while it is small and switches to the
// parallel bitset steps of src/bfs/ (top-down or bottom-up per level) when it is large.
//
// Diameters are exact (see src/analysis/diameter.cpp for the proofs the shortcuts rest
// on): rotate and defined rules with distinct pieces — Cayley graph, diameter =
// eccentricity of the representative (defined rules with identical pieces take the
// exact method); sliding —
// one BFS per orbit of blank cells under the grid's mirror symmetries; primeswap and
// cardswap — all-sources BFS for small components, else BoundingDiameters (Takes &
// Kosters 2011) on an explicit adjacency list, seeded with a double sweep.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stategraph/bfs/bfs.hpp"

namespace stategraph {

// Which edges a component search follows.
enum class Connectivity {
  kAuto,     // undirected rules: the moves; directed rules: kForward when every move is
             // a bijection of the state set (rotate), kWeak otherwise
  kWeak,     // successors and predecessors (weakly connected components)
  kForward,  // successors only: for bijective moves these are the strong components
};

struct ComponentInfo {
  std::uint64_t size = 0;
  std::uint64_t representative = 0;         // smallest rank in the component
  int eccentricity_of_representative = 0;   // along the searched edges (successors for rotate)
  int diameter = -1;                        // -1: not determined (component too big for the exact method)
  bool has_goal = false;                    // holds one of the rule's goals
};

struct ComponentOptions {
  Connectivity connectivity = Connectivity::kAuto;
  // When set, called with each component as it is found and all its ranks (unsorted);
  // ranks are collected only for components of at most collect_limit states (else the
  // vector passed is empty).
  std::function<void(ComponentInfo&, std::vector<std::uint64_t>& ranks)> on_component;
  std::uint64_t collect_limit = 0;
};

// Every component of the rule's ranked space, in order of representative.
std::vector<ComponentInfo> find_components(const AnyRule& rule, const ComponentOptions& options = {});

// Strongly connected components by forward-backward intersection (SCC(v) = F(v) ∩ B(v)),
// valid for any directed graph; meant for tests and small spaces (serial, a byte per rank).
// Returns (representative, size) pairs in order of representative.
std::vector<std::pair<std::uint64_t, std::uint64_t>> strong_components(const AnyRule& rule);

// The engine runs either one source per BFS (in parallel) or 64 sources per BFS,
// bit-parallel (Then et al. 2015). kAuto takes what measured faster
// (bench/bench_graph.cpp, README): 64-source for all sources, one source per BFS for
// BoundingDiameters (its rounds adapt between runs, and on puzzle graphs a state's
// distances from 64 sources spread over so many depths that the bit-parallel pass
// saves little).
enum class DiameterEngine { kAuto, kSingleSource, kMultiSource };

enum class DiameterMethod { kAuto, kExact };

struct GraphOptions {
  DiameterMethod method = DiameterMethod::kAuto;  // kExact: never use a symmetry shortcut
  // The exact method builds an adjacency list (about 40 bytes per state); components
  // larger than this keep diameter -1.
  std::uint64_t exact_limit = 20'000'000;
  // Above this many states, an exact (non-symmetric) component uses BoundingDiameters
  // instead of BFS from every state.
  std::uint64_t all_sources_limit = 64;
  DiameterEngine engine = DiameterEngine::kAuto;  // BFS engine of the exact diameters
  std::string variant = "hybrid";  // BFS variant for whole-space runs (sliding orbits)
  // Optional: the BFS from the rule's goals (default sources and direction). When it
  // reached every rank of rotate or sliding, the space is one component and the
  // component search is skipped (see analyze_graph in src/analysis/graph.cpp).
  const BfsResult* goal_bfs = nullptr;
};

struct GraphReport {
  std::vector<ComponentInfo> components;  // in order of representative
  std::uint64_t largest_component = 0;
  std::uint64_t goal_component_size = 0;  // states in components that hold a goal
  int diameter = -1;                      // max over components; -1 when one is undetermined
  std::uint64_t diameter_bfs_runs = 0;    // BFS runs beyond the component search itself
  double diameter_seconds = 0;            // time of those runs (and their adjacency lists)
  double components_seconds = 0;          // time of the component search
  std::string diameter_method;            // "cayley", "blank-orbits", "exact", or a mix joined by '+'
};

GraphReport analyze_graph(const AnyRule& rule, const GraphOptions& options = {});

// The exact diameter of one undirected component given all its ranks, and the BFS runs
// it took (all-sources when small, else BoundingDiameters). `runs` is incremented.
int exact_diameter(const AnyRule& rule, std::vector<std::uint64_t> ranks, std::uint64_t all_sources_limit,
                   std::uint64_t& runs, DiameterEngine engine = DiameterEngine::kAuto);

// ---- Pure functions over a BFS result from the goals (needs result.depth). ----

// Number of distinct shortest move sequences between the goal set and the states of
// each depth: paths(goal) = 1, paths(s) = sum over moves s -> t toward the goal with
// depth(t) = depth(s) - 1 of paths(t); summed per depth exactly in 128 bits. A depth
// whose per-state counts (64 bits each) or sum overflowed is marked `overflow`.
__extension__ typedef unsigned __int128 Uint128;
struct PathCount {
  Uint128 paths = 0;
  bool overflow = false;
};
std::vector<PathCount> path_counts(const AnyRule& rule, const BfsResult& result);
std::string format_paths(const PathCount& p);

// Up to `limit` ranks at the goal's eccentricity (max depth), in rank order.
std::vector<std::uint64_t> antipodes(const BfsResult& result, std::uint64_t limit);

// Moves between reached states: arcs for a directed rule, unordered pairs otherwise.
std::uint64_t reached_edges(const AnyRule& rule, const BfsResult& result);
// Mean depth over the reached states.
double average_distance(const BfsResult& result);

}  // namespace stategraph
