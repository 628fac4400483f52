// topdown: level-synchronous, parallel over the words of the frontier bitset; successors
// claimed with atomic fetch_or into the visited and next bitsets (engine.hpp).
#include "driver.hpp"

namespace stategraph::bfs {

BfsResult run_topdown(const AnyRule& rule, const BfsOptions& options) {
  return std::visit([&](const auto& r) { return bitset_bfs(r, options, DirectionPolicy::kTopDown); }, rule);
}

std::uint64_t bytes_topdown(const AnyRule& rule, const BfsOptions& options) { return bitset_bytes(rule, options); }

}  // namespace stategraph::bfs
