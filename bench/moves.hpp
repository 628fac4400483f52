// The moves a BFS from the goal really follows: for every reached state, each of its BFS
// neighbours once (sliding 3x4 averages 2.83 per state, not its maximum of 4). The
// edges_per_s counters of BFS and BFS12 divide this by the run's time.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "stategraph/bfs/bfs.hpp"

namespace stategraph {

// Over the ranks whose depth is set (depth empty: every rank of the rule's space, which
// is what a BFS reaches when `reached` equals the space's size). Parallel (TBB).
inline std::uint64_t count_bfs_moves(const AnyRule& rule, const std::vector<std::uint8_t>& depth = {}) {
  return std::visit(
      [&](const auto& x) {
        const BfsOptions options;  // the direction a BFS from the goal takes
        return tbb::parallel_reduce(
            tbb::blocked_range<std::uint64_t>(0, x.size(), 1 << 16), std::uint64_t{0},
            [&](const tbb::blocked_range<std::uint64_t>& range, std::uint64_t moves) {
              auto unrank = make_unranker(x);
              for (std::uint64_t k = range.begin(); k != range.end(); ++k) {
                if (!depth.empty() && depth[k] == kUnreached) continue;
                for_each_bfs_neighbour(x, options, unrank(k), [&](State) { ++moves; });
              }
              return moves;
            },
            std::plus<>());
      },
      rule);
}

}  // namespace stategraph
