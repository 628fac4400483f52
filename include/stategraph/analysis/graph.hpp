// The whole state graph: connected components over the rule's ranked
// space, the exact diameter of every component, the antipodes of the goal, the
// number of shortest paths per depth (io/tables.hpp writes them as CSV).
//
// "Whole space" means every rank of the rule (rule.size()): all n! permutations for
// rotate and primeswap, every arrangement for cardswap, and for sliding the goal's
// parity class only (n!/2 ranks; the other class is an isomorphic copy, mapped onto
// the ranked one by swapping two tiles, so it has the same components and diameters:
// analyze_graph appends them, so the report covers all n! arrangements).
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
// Kosters 2011) on an explicit adjacency list, seeded with a double sweep. Components
// above the exact limit get bounds [lower, upper] from BoundingDiameters over bitset BFS
// restricted to the component (masked_diameter.cpp, with a pair bound), within budgets;
// components that an automorphism maps onto earlier ones copy their bounds, and the
// automorphisms that map a component onto itself make each BFS count for the images of
// its source (ecc(g.w) = ecc(w), d(x, g.w) = d(g^-1.x, w); diameter.cpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "stategraph/bfs/bfs.hpp"
#include "stategraph/core/bits.hpp"
#include "stategraph/core/symmetry.hpp"

namespace stategraph {

// Which edges a component search follows.
enum class Connectivity {
  kAuto,     // undirected rules: the moves; directed rules: kForward when every move is
             // a bijection of the state set (rotate), kWeak otherwise
  kWeak,     // successors and predecessors (weakly connected components)
  kForward,  // successors only: for bijective moves these are the strong components
};

// How a component's diameter (or its bounds) was obtained.
enum class ComponentMethod : std::uint8_t {
  kNone,            // not determined (bounds from the representative's eccentricity only, or none)
  kSingle,          // one state: diameter 0
  kCayley,          // the representative's eccentricity (vertex-transitive)
  kBlankOrbits,     // one BFS per orbit of blank cells (sliding)
  kAllSources,      // BFS from every state (explicit adjacency list)
  kBounding,        // BoundingDiameters on an explicit adjacency list
  kBoundingMasked,  // BoundingDiameters with bitset BFS restricted to the component (a mask)
  kMirror,          // an automorphism maps it onto an earlier component: that one's bounds
  kEccentricity,    // budget or size: [ecc(rep), 2 ecc(rep)] from the component search alone
};
const char* component_method_name(ComponentMethod m);

struct ComponentInfo {
  std::uint64_t size = 0;
  std::uint64_t representative = 0;        // smallest rank in the component
  int eccentricity_of_representative = 0;  // along the searched edges (successors for rotate)
  int diameter = -1;                       // -1: not determined (component too big for the exact method)
  bool has_goal = false;                   // holds one of the rule's goals
  // Bounds on the diameter: lower <= diameter <= upper, equal when it is exact (then
  // `diameter` holds it); -1 when unknown (directed components without an exact value).
  int diameter_lower = -1, diameter_upper = -1;
  ComponentMethod method = ComponentMethod::kNone;
  std::uint64_t bfs_runs = 0;  // BFS runs spent on this component's diameter
  // States whose eccentricity came from a BFS source's image under an automorphism that
  // maps the component onto itself (ecc(g.w) = ecc(w)): BFS runs saved.
  std::uint64_t image_sources = 0;
  std::int64_t mirror_of = -1;  // index of the component an automorphism maps onto this one
  // A component of the unranked parity class (sliding): the image of component
  // mirror_of under swapping tiles 1 and 2; `representative` is that one's rank.
  bool other_class = false;
};

// The proof behind a component's bounds, re-checkable with a few BFS: d(a, b) = distance
// proves the lower bound; the upper bound holds because every state w of the component
// has ecc(w) <= min over the sources s of ecc(s) + d(s, w) <= upper.
struct DiameterWitness {
  std::uint64_t component = 0;             // index in GraphReport::components
  std::uint64_t lower_a = 0, lower_b = 0;  // ranks
  int lower = 0, upper = 0;
  std::vector<std::pair<std::uint64_t, int>> sources;  // (rank, eccentricity), in the order run
  // Images g.s of the sources under automorphisms g that map the component onto itself:
  // ecc(g.s) = ecc(s) and d(x, g.s) = d(g^-1.x, s), so they bound like sources, unrun.
  struct Image {
    std::uint64_t state = 0, of = 0;  // ranks: the image and its BFS source
    int eccentricity = 0;
  };
  std::vector<Image> images;
  // The pair bound (masked searches): d(x, y) <= min over these sources s of
  // d(s, x) + d(s, y), whose maximum over all pairs is pair_upper (0: not computed).
  std::vector<std::uint64_t> pair_sources;
  int pair_upper = 0;
};

struct ComponentOptions {
  Connectivity connectivity = Connectivity::kAuto;
  // When set, called with each component as it is found and all its ranks (unsorted);
  // ranks are collected only for components of at most collect_limit states (else the
  // vector passed is empty).
  std::function<void(ComponentInfo&, std::vector<std::uint64_t>& ranks)> on_component;
  std::uint64_t collect_limit = 0;
  // When set (and collect_limit > 0), called for each component larger than collect_limit
  // (its index in the result) with a bitset over the whole rank space holding exactly its
  // ranks (the callee may keep it).
  std::function<void(std::size_t index, ComponentInfo&, Bitset&& mask)> on_large_component;
  // A signal stops the search between two levels (BfsInterrupted); null: never.
  const std::atomic<int>* stop = nullptr;
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
  // instead of BFS from every state. Measured on primeswap 3x3 (577 components besides
  // the goal's, most of them tiny): 64 takes 281 BFS runs in all, 16 162, 8 117, 4 109,
  // in the same time (0.23 s); primeswap 2x5: 3,845 runs at 64, 1,558 at 4, 4.1-4.2 s.
  std::uint64_t all_sources_limit = 4;
  DiameterEngine engine = DiameterEngine::kAuto;  // BFS engine of the exact diameters
  std::string variant = "hybrid";                 // BFS variant for whole-space runs (sliding orbits)
  // Optional: the BFS from the rule's goals (default sources and direction). When it
  // reached every rank of rotate or sliding, the space is one component and the
  // component search is skipped (see analyze_graph in src/analysis/graph.cpp).
  const BfsResult* goal_bfs = nullptr;
  // Components above exact_limit get bounds from BoundingDiameters over bitset BFS runs
  // restricted to the component (kBoundingMasked); false leaves them at
  // [ecc(rep), 2 ecc(rep)].
  bool bound_large = true;
  // Budgets of the bounding searches: at most budget_runs BFS runs per component above
  // exact_limit (masked searches), budget_runs_small per component at most exact_limit
  // (0: none), and budget_seconds of wall time from the start of the graph analysis
  // (0: none); a search stopped by any keeps the bounds it reached. Source choices never
  // depend on the thread count, so a runs budget gives the same figures everywhere.
  std::uint64_t budget_runs = 0;
  std::uint64_t budget_runs_small = 0;
  double budget_seconds = 0;
  // Use the rule's automorphisms (grid symmetries x symbol relabellings, primeswap):
  // large components that are images of earlier ones copy their bounds.
  bool symmetry = true;
  // Witnesses are kept for bounded components of at least this many states, and for
  // every component whose bounds did not meet.
  std::uint64_t witness_min_size = 100000;
  // Rules that rank one of two isomorphic parity classes (sliding): report the
  // components of the whole space, the other class's appended as images of the first's.
  bool whole_space = true;
  // Prints the progress of the large components' searches to stderr.
  bool verbose = false;
  // Bytes the graph analysis may allocate (0: no check): its need is checked before
  // each large allocation (labelling bitsets, an adjacency list, a masked search) and
  // an InputError names need and limit when it does not fit.
  std::uint64_t memory_limit = 0;
  // The CLI's signal flag: every long loop of the graph phase (labelling, the diameter
  // searches, the masked searches and their image passes) checks it at least once a
  // level or a chunk, and throws BfsInterrupted (signal, depth -1). Null: never stops.
  const std::atomic<int>* stop = nullptr;
};

struct GraphReport {
  std::vector<ComponentInfo> components;  // in order of representative
  std::uint64_t largest_component = 0;
  std::uint64_t goal_component_size = 0;         // states in components that hold a goal
  int diameter = -1;                             // max over components; -1 when one is undetermined
  std::uint64_t diameter_bfs_runs = 0;           // BFS runs beyond the component search itself
  double diameter_seconds = 0;                   // wall time of the diameter work (small + large + finishing)
  double components_seconds = 0;                 // time of the component search (labelling) alone
  double small_seconds = 0;                      // diameters of components collected during the search
  double large_seconds = 0;                      // diameters of components above exact_limit (masked BFS)
  std::string diameter_method;                   // "cayley", "blank-orbits", "exact", or a mix joined by '+'
  int diameter_lower = -1, diameter_upper = -1;  // bounds on `diameter` (max over components)
  bool budget_stopped = false;                   // some search stopped on a budget
  std::uint64_t symmetries = 0;                  // automorphisms used (0: none)
  std::uint64_t mirrored_components = 0;         // components whose bounds came from an image
  std::uint64_t mirrored_states = 0;             // their states: BFS work saved
  std::uint64_t diameter_image_sources = 0;      // sum of the components' image_sources
  std::vector<DiameterWitness> witnesses;
  std::string note;  // what the component list covers, when not plain
};

GraphReport analyze_graph(const AnyRule& rule, const GraphOptions& options = {});

// The graph automorphisms analyze_graph uses: for primeswap, the grid's symmetries times
// the relabellings of the numbers that keep every sum's primality (identity first);
// empty for the other rules.
std::vector<Symmetry> rule_automorphisms(const AnyRule& rule);

// The exact diameter of one undirected component given all its ranks, and the BFS runs
// it took (all-sources when small, else BoundingDiameters). `runs` is incremented.
int exact_diameter(const AnyRule& rule, std::vector<std::uint64_t> ranks, std::uint64_t all_sources_limit,
                   std::uint64_t& runs, DiameterEngine engine = DiameterEngine::kAuto);

// Bounds on the diameter of one undirected component given all its ranks, within a
// budget (runs per component; a deadline in steady-clock seconds since its epoch, 0:
// none). Fills the witness (ranks) and returns [lower, upper] with the method used.
struct DiameterBounds {
  int lower = 0, upper = 0;
  ComponentMethod method = ComponentMethod::kNone;
  std::uint64_t runs = 0;
  std::uint64_t image_sources = 0;  // sources' images whose eccentricity came without a BFS
  bool stopped = false;             // the budget ended the search before the bounds met
  DiameterWitness witness;
};
// `symmetries`: graph automorphisms (a group, e.g. rule_automorphisms); those that map
// the component onto itself make each BFS count for every image of its source.
DiameterBounds bound_diameter(const AnyRule& rule, std::vector<std::uint64_t> ranks, std::uint64_t all_sources_limit,
                              std::uint64_t budget_runs, double deadline, DiameterEngine engine = DiameterEngine::kAuto,
                              const std::vector<Symmetry>& symmetries = {}, const std::atomic<int>* stop = nullptr);

// Bounds on the diameter of one undirected component given as a bitset over the whole
// rank space (BoundingDiameters over bitset BFS restricted to it; a few bytes per state
// of the component). `rep` is a rank in the component.
DiameterBounds bound_diameter_masked(const AnyRule& rule, const Bitset& mask, std::uint64_t rep,
                                     std::uint64_t budget_runs, double deadline, bool verbose = false,
                                     const std::vector<Symmetry>& symmetries = {},
                                     const std::atomic<int>* stop = nullptr);

// The eccentricities of states (ranks) of one undirected component given as a mask: one
// masked bitset BFS per source, or (multi) 64 sources per bit-parallel pass over the
// component's states (three 64-bit words per state: masked_multi_bytes). A measuring
// tool (bench MASKEDECC): for 64 eccentricities the pass measured 1.9x faster than 64
// masked BFS on primeswap 3x3's giant, 2.0x on sliding 3x3, 1.3x on sliding 2x5 and even
// on primeswap 2x5's largest component (eccentricities up to 211: a level costs a pass
// over the component). The masked BoundingDiameters keeps single sources: with source
// images it needs 17 runs on primeswap 3x3's giant, less than one pass of 64 (which
// would need a second pass for the bounds, as the eccentricities come at its end).
std::vector<int> masked_eccentricities(const AnyRule& rule, const Bitset& mask,
                                       const std::vector<std::uint64_t>& sources, bool multi);
std::uint64_t masked_multi_bytes(std::uint64_t space, std::uint64_t component);

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
std::vector<PathCount> path_counts(const AnyRule& rule, const BfsResult& result,
                                   const std::atomic<int>* stop = nullptr);  // see GraphOptions::stop
std::string format_paths(const PathCount& p);

// Up to `limit` ranks at the goal's eccentricity (max depth), in rank order.
std::vector<std::uint64_t> antipodes(const BfsResult& result, std::uint64_t limit);

// Moves between reached states: arcs for a directed rule, unordered pairs otherwise.
std::uint64_t reached_edges(const AnyRule& rule, const BfsResult& result);
// Mean depth over the reached states.
double average_distance(const BfsResult& result);

}  // namespace stategraph
