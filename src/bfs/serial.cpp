// serial: one thread, a bitset of visited ranks and a vector of frontier states. The
// frontier holds packed states rather than ranks (same 8 bytes each), so a state is
// ranked once when it is found and never unranked; the baseline for the parallel
// variants.
#include <algorithm>
#include <vector>

#include "stategraph/core/bits.hpp"
#include "variants.hpp"

namespace stategraph::bfs {
namespace {

template <Rule R>
BfsResult serial_bfs(const R& rule, const BfsOptions& options) {
  BfsResult result;
  LevelRecorder recorder(options, result);
  Bitset visited(rule.size());
  if (options.want_depths) result.depth.assign(rule.size(), kUnreached);
  std::vector<State> frontier, next;
  for (State g : bfs_sources(rule, options)) {
    const std::uint64_t r = rule.rank(g);
    if (visited.test(r)) continue;
    visited.set(r), frontier.push_back(g);
    if (options.want_depths) result.depth[r] = 0;
  }
  std::uint64_t peak_frontier = 0;
  for (int depth = 0; recorder.record(frontier.size(), Direction::kTopDown); ++depth) {
    throw_if_stopped(options, depth);
    next.clear();
    const auto next_depth = static_cast<std::uint8_t>(std::min(depth + 1, kMaxDepth));
    std::uint64_t polled = 0;
    for (State s : frontier) {
      if ((++polled & 0xFFF) == 0) throw_if_stopped(options, depth);
      for_each_bfs_neighbour(rule, options, s, [&](State p) {
        const std::uint64_t q = rule.rank(p);
        if (visited.test(q)) return;
        visited.set(q), next.push_back(p);
        if (options.want_depths) result.depth[q] = next_depth;
      });
    }
    peak_frontier = std::max<std::uint64_t>(peak_frontier, frontier.capacity() + next.capacity());
    frontier.swap(next);
  }
  result.peak_bytes =
      Bitset::bytes_for(rule.size()) + peak_frontier * sizeof(std::uint64_t) + (options.want_depths ? rule.size() : 0);
  recorder.finish();
  return result;
}

}  // namespace

BfsResult run_serial(const AnyRule& rule, const BfsOptions& options) {
  return std::visit([&](const auto& r) { return serial_bfs(r, options); }, rule);
}

std::uint64_t bytes_serial(const AnyRule& rule, const BfsOptions& options) {
  // Visited bits plus two rank vectors; a layer rarely exceeds a quarter of the space.
  const std::uint64_t n = rule_size(rule);
  return Bitset::bytes_for(n) + n / 4 * 2 * sizeof(std::uint64_t) + (options.want_depths ? n : 0);
}

}  // namespace stategraph::bfs
