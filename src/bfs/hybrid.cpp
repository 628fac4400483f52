// hybrid: direction-optimizing BFS (Beamer et al., SC'12): top-down while the frontier is
// small, bottom-up when it is large relative to what is left unvisited, top-down again
// when it shrinks. The switching rule and its constants are in engine.hpp.
#include "driver.hpp"

namespace stategraph::bfs {

BfsResult run_hybrid(const AnyRule& rule, const BfsOptions& options) {
  return std::visit([&](const auto& r) { return bitset_bfs(r, options, DirectionPolicy::kHybrid); }, rule);
}

std::uint64_t bytes_hybrid(const AnyRule& rule, const BfsOptions& options) { return bitset_bytes(rule, options); }

}  // namespace stategraph::bfs
