// Pure functions over a BFS result from the goals (antipodes, shortest-path counts,
// edges, mean distance).
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "stategraph/analysis/analysis.hpp"
#include "stategraph/analysis/graph.hpp"

namespace stategraph {
namespace {

void need_depths(const BfsResult& result) {
  if (result.depth.empty()) throw std::logic_error("graph analysis needs a BFS depth table");
}

std::string u128_string(Uint128 v) {
  if (v == 0) return "0";
  std::string s;
  while (v > 0) s += static_cast<char>('0' + static_cast<int>(v % 10)), v /= 10;
  return {s.rbegin(), s.rend()};
}

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

}  // namespace

std::vector<PathCount> path_counts(const AnyRule& rule, const BfsResult& result, const std::atomic<int>* stop) {
  need_depths(result);
  return std::visit(
      [&](const auto& r) {
        const std::uint64_t n = r.size();
        const std::vector<std::uint8_t>& depth = result.depth;
        // One count per rank, saturating at 2^64-1 (then the depth is marked overflowed).
        std::vector<std::uint64_t> count(n, 0);
        std::vector<PathCount> out(result.layers.size());
        const BfsOptions toward_goal;  // the BFS walked predecessors: a move s -> t leads toward the goal
        for (std::size_t d = 0; d < result.layers.size(); ++d) {
          throw_if_stopped(stop);  // a level's pass is one scan of the depth table
          struct Acc {
            Uint128 sum = 0;
            bool overflow = false;
          };
          const Acc acc = tbb::parallel_reduce(
              tbb::blocked_range<std::uint64_t>(0, n, 1 << 14), Acc{},
              [&](const auto& range, Acc a) {
                for (std::uint64_t k = range.begin(); k != range.end(); ++k) {
                  if (depth[k] != d) continue;
                  std::uint64_t c = 0;
                  if (d == 0) {
                    c = 1;
                  } else {
                    for_each_bfs_parent(r, toward_goal, r.unrank(k), [&](State t) {
                      const std::uint64_t q = r.rank(t);
                      if (depth[q] != d - 1) return;
                      const std::uint64_t x = count[q];
                      c = (x == kSaturated || c > kSaturated - x) ? kSaturated : c + x;
                    });
                  }
                  count[k] = c;
                  if (c == kSaturated) a.overflow = true;
                  const Uint128 before = a.sum;
                  a.sum += c;
                  if (a.sum < before) a.overflow = true;
                }
                return a;
              },
              [](Acc a, const Acc& b) {
                const Uint128 before = a.sum;
                a.sum += b.sum;
                a.overflow = a.overflow || b.overflow || a.sum < before;
                return a;
              });
          out[d] = {acc.sum, acc.overflow};
        }
        return out;
      },
      rule);
}

std::string format_paths(const PathCount& p) { return p.overflow ? "overflow" : u128_string(p.paths); }

std::vector<std::uint64_t> antipodes(const BfsResult& result, std::uint64_t limit) {
  need_depths(result);
  std::vector<std::uint64_t> out;
  if (result.layers.empty()) return out;
  const auto far = static_cast<std::uint8_t>(result.max_depth());
  for (std::uint64_t k = 0; k < result.depth.size() && out.size() < limit; ++k)
    if (result.depth[k] == far) out.push_back(k);
  return out;
}

std::uint64_t reached_edges(const AnyRule& rule, const BfsResult& result) {
  need_depths(result);
  return std::visit(
      [&](const auto& r) {
        const std::uint64_t arcs = tbb::parallel_reduce(
            tbb::blocked_range<std::uint64_t>(0, r.size(), 1 << 14), std::uint64_t{0},
            [&](const auto& range, std::uint64_t a) {
              for (std::uint64_t k = range.begin(); k != range.end(); ++k)
                if (result.depth[k] != kUnreached) r.for_each_successor(r.unrank(k), [&](State) { ++a; });
              return a;
            },
            std::plus<>());
        // Undirected rules: every move s -> t has its reverse t -> s, one edge.
        return r.directed() ? arcs : arcs / 2;
      },
      rule);
}

double average_distance(const BfsResult& result) {
  long double sum = 0;
  std::uint64_t total = 0;
  for (std::size_t d = 0; d < result.layers.size(); ++d)
    sum += static_cast<long double>(d) * static_cast<long double>(result.layers[d]), total += result.layers[d];
  return total == 0 ? 0.0 : static_cast<double>(sum / static_cast<long double>(total));
}

}  // namespace stategraph
