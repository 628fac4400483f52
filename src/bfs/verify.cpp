#include <string>

#include "stategraph/bfs/bfs.hpp"

namespace stategraph {
namespace {

template <Rule R>
std::string verify(const R& rule, const BfsResult& res) {
  const std::uint64_t size = rule.size();
  if (res.depth.size() != size)
    return "depth table has " + std::to_string(res.depth.size()) + " entries, expected " + std::to_string(size);
  for (State g : rule.goals())
    if (res.depth[rule.rank(g)] != 0) return "goal " + rule.format(g) + " is not at depth 0";
  std::vector<std::uint64_t> counts(res.layers.size(), 0);
  for (std::uint64_t r = 0; r < size; ++r) {
    const State s = rule.unrank(r);
    const unsigned d = res.depth[r];
    bool closer = false;
    std::string bad;
    rule.for_each_successor(s, [&](State t) {
      const unsigned dt = res.depth[rule.rank(t)];
      if (d == kUnreached) {
        if (dt != kUnreached && bad.empty())
          bad = "unreached state " + rule.format(s) + " has a move to a reached state";
        return;
      }
      if (dt == kUnreached && !rule.directed() && bad.empty())
        bad = "reached state " + rule.format(s) + " has an unreached neighbour in an undirected graph";
      if (dt != kUnreached && dt + 1 < d && bad.empty())
        bad = "move " + rule.format(s) + " -> " + rule.format(t) + " spans depths " + std::to_string(d) + " and " +
              std::to_string(dt);
      if (dt + 1 == d) closer = true;
    });
    if (!bad.empty()) return bad;
    if (d == kUnreached) continue;
    if (d >= counts.size())
      return "state " + rule.format(s) + " has depth " + std::to_string(d) + " beyond the last layer";
    ++counts[d];
    if (d > 0 && !closer)
      return "state " + rule.format(s) + " at depth " + std::to_string(d) + " has no move one level closer";
  }
  for (std::size_t d = 0; d < counts.size(); ++d)
    if (counts[d] != res.layers[d])
      return "layer " + std::to_string(d) + " counts " + std::to_string(res.layers[d]) + " but the table holds " +
             std::to_string(counts[d]);
  return {};
}

}  // namespace

std::string verify_bfs(const AnyRule& rule, const BfsResult& result) {
  return std::visit([&](const auto& r) { return verify(r, result); }, rule);
}

}  // namespace stategraph
