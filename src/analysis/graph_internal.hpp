// Internal: how analyze_graph obtains diameters (src/analysis/diameter.cpp).
#pragma once

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "stategraph/analysis/graph.hpp"
#include "stategraph/bfs/engine.hpp"

namespace stategraph {

// The start of a BFS inside a mask: every rank outside `mask` marked visited.
inline void visit_outside(const Bitset& mask, Bitset& visited) {
  const std::uint64_t* mw = mask.words();
  std::uint64_t* vw = visited.words();
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, mask.num_words(), 1u << 14), [&](const auto& r) {
    for (std::uint64_t w = r.begin(); w != r.end(); ++w) vw[w] = ~mw[w] & bfs::valid_mask(visited, w);
  });
}

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

// Positions of the component's ranks: index(r) = prefix[r / 64] + popcount(mask word below r).
class MaskIndex {
 public:
  explicit MaskIndex(const Bitset& mask) : mask_(mask), prefix_(mask.num_words() + 1, 0) {
    const std::uint64_t* w = mask.words();
    for (std::uint64_t i = 0; i < mask.num_words(); ++i)
      prefix_[i + 1] = prefix_[i] + static_cast<std::uint64_t>(std::popcount(w[i]));
  }
  std::uint64_t size() const { return prefix_.back(); }
  std::uint64_t index(std::uint64_t r) const {
    const std::uint64_t below = (std::uint64_t{1} << (r & 63)) - 1;
    return prefix_[r >> 6] + static_cast<std::uint64_t>(std::popcount(mask_.words()[r >> 6] & below));
  }
  std::uint64_t word_base(std::uint64_t w) const { return prefix_[w]; }
  // Prefetches what index(r) reads besides the mask word.
  void prefetch(std::uint64_t r) const { __builtin_prefetch(prefix_.data() + (r >> 6), 0, 3); }
  // The rank at position i.
  std::uint64_t rank(std::uint64_t i) const {
    const std::uint64_t w =
        static_cast<std::uint64_t>(std::upper_bound(prefix_.begin(), prefix_.end(), i) - prefix_.begin()) - 1;
    std::uint64_t bits = mask_.words()[w];
    for (std::uint64_t k = i - prefix_[w]; k > 0; --k) bits &= bits - 1;
    return w * 64 + static_cast<unsigned>(std::countr_zero(bits));
  }

 private:
  const Bitset& mask_;
  HugeArray<std::uint64_t> prefix_;
};

// The pair bound of distance arrays D_0..D_{k-1} (k >= 2, one byte per state, each
// from a source of eccentricity ecc[i]): max over states x, y of min_i (D_i[x] + D_i[y]),
// an upper bound on the diameter (masked_diameter.cpp; check_bounds.cpp re-checks it).
int pair_bound(const std::vector<std::vector<std::uint8_t>>& keep_, const std::vector<int>& ecc);

void finish_diameters(const AnyRule& rule, const GraphOptions& options, const DiameterPlan& plan, GraphReport& report);

}  // namespace stategraph
