// bottomup: every level scans the unvisited set in parallel, each task owning a range of
// words; an unvisited state joins the layer when a BFS parent is in the frontier, found
// at the first such parent. No atomics (engine.hpp).
#include "driver.hpp"

namespace stategraph::bfs {

BfsResult run_bottomup(const AnyRule& rule, const BfsOptions& options) {
  return std::visit([&](const auto& r) { return bitset_bfs(r, options, DirectionPolicy::kBottomUp); }, rule);
}

std::uint64_t bytes_bottomup(const AnyRule& rule, const BfsOptions& options) { return bitset_bytes(rule, options); }

}  // namespace stategraph::bfs
