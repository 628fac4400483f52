// Re-checks the diameter bounds of a result folder (`stategraph check-bounds DIR`): each
// component's rows of diameter_witnesses.csv (io/tables.hpp writes them from
// DiameterWitness) are verified by running only the BFS the rows name:
//   lower       d(state, other_state) = value: one BFS from state (its source row's
//               BFS when state is a source);
//   source      (no other_state) its eccentricity in the component = value: one BFS;
//   source      with other_state: the image of BFS source other_state under an
//               automorphism of the rule (rule_automorphisms) that maps other_state to
//               state, so it keeps the component; value = the source's eccentricity;
//   upper       >= max over states w of the component of min over all sources s (BFS
//               ones and images) of ecc(s) + d(s, w), or >= the pair bound below when
//               that is smaller (each alone bounds the diameter), and >= lower;
//   pair_upper  >= max over pairs x, y of min over the pair_source rows s of
//               d(s, x) + d(s, y) (one BFS per pair source, reused when it is a source).
// The component is the set the first BFS reaches from the component's first named
// state; every named state must lie in it, and components.csv's row (when given) must
// name the same representative (smallest rank) and size, bounds that follow from the
// witnesses' (its lower <= lower, its upper >= upper), and a diameter (when given) in
// [lower, upper], given whenever lower = upper.
//
// Directed rules (rotate): components are the sets reached along successors (the
// strong components, as the component search defines them for bijective moves);
// d(a, b) follows successors, ecc(s) = max over w of d(s, w), and the upper bound uses
// ecc(w) <= d(w, s) + ecc(s), so each source takes a second BFS along predecessors. The
// pair bound is not defined there (the searches that write it are undirected only).
//
// Memory per component: 5 bitsets over the rule's rank space (mask, visited, frontier,
// next, and prefix counts of the mask) plus 4 bytes per state of the component (16-bit
// distances of the current BFS and the recomputed upper bound per state) and one byte
// per state per pair source (check_bounds_bytes).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stategraph/io/io.hpp"
#include "stategraph/rules/rule.hpp"

namespace stategraph {

// One row of diameter_witnesses.csv; `row` counts data rows from 1 (the header is row 0).
struct WitnessRow {
  std::size_t row = 0;
  std::uint64_t component = 0;
  std::string kind;  // lower, upper, source, pair_upper, pair_source
  std::string state, other_state;
  std::optional<int> value;
};
// Parses diameter_witnesses.csv's rows; InputError naming `what` and the row on a
// missing column, an unknown kind, or a field that is not a count.
std::vector<WitnessRow> parse_witness_rows(const CsvData& csv, const std::string& what);

// A component's row of components.csv, as far as the check reads it (-1: empty field).
struct ComponentClaim {
  std::size_t row = 0;  // data row, from 1
  std::uint64_t size = 0;
  std::string representative;
  int diameter = -1, lower = -1, upper = -1;
};

struct BoundsFailure {
  std::string file;  // "diameter_witnesses.csv" or "components.csv"
  std::size_t row = 0;
  std::string message;
};

struct ComponentCheck {
  std::uint64_t component = 0;
  std::uint64_t size = 0;      // states reached from the first named state
  int lower = -1, upper = -1;  // as claimed
  // Recomputed max_w min_s ecc(s) + d(s, w): exact when above `upper`; else between the
  // exact value and `upper` (images are applied only to states still above upper).
  int source_upper = -1;
  int pair_upper = -1;  // recomputed pair bound (-1: no pair rows)
  std::uint64_t sources = 0, images = 0, pair_sources = 0;
  std::uint64_t bfs_runs = 0;  // the component search included
  double seconds = 0;
  std::uint64_t rows = 0;               // witness rows checked
  std::vector<BoundsFailure> failures;  // witness rows by row, then upper, then components.csv
};

// Checks one component's witness rows (all with the same component index, in file
// order). `claim`: its components.csv row, or null. `stop`: a signal flag polled between
// and inside BFS runs (BfsInterrupted); null: never. Malformed states are InputErrors.
ComponentCheck check_component_bounds(const AnyRule& rule, const std::vector<WitnessRow>& rows,
                                      const ComponentClaim* claim, const std::atomic<int>* stop = nullptr);

// Bytes check_component_bounds allocates for a component of `component` states in a
// space of `space` ranks with `pair_sources` pair rows (an estimate from above).
std::uint64_t check_bounds_bytes(std::uint64_t space, std::uint64_t component, std::uint64_t pair_sources);

}  // namespace stategraph
