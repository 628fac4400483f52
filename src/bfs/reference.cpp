// reference: the textbook solution of these puzzles — a FIFO queue and a hash map from
// the state written as a string to its depth. Slow on purpose: it is the baseline the
// other variants are measured against, and an oracle for tests that shares no ranking
// or bit storage with them.
#include <queue>
#include <string>
#include <unordered_map>

#include "variants.hpp"

namespace stategraph::bfs {
namespace {

std::string to_key(State s, int n) {
  std::string key(static_cast<std::size_t>(n), ' ');
  for (int i = 0; i < n; ++i) key[static_cast<std::size_t>(i)] = static_cast<char>('a' + get_cell(s, i));
  return key;
}

State from_key(const std::string& key) {
  State s = 0;
  for (std::size_t i = 0; i < key.size(); ++i)
    s = set_cell(s, static_cast<int>(i), static_cast<unsigned>(key[i] - 'a'));
  return s;
}

template <Rule R>
BfsResult reference_bfs(const R& rule, const BfsOptions& options) {
  const int n = rule.cells();
  BfsResult result;
  LevelRecorder recorder(options, result);
  std::unordered_map<std::string, int> dist;
  std::queue<std::string> queue;
  for (State g : bfs_sources(rule, options)) {
    auto key = to_key(g, n);
    if (dist.emplace(key, 0).second) queue.push(std::move(key));
  }
  std::vector<std::uint64_t> counts;
  std::uint64_t popped = 0;
  while (!queue.empty()) {
    const std::string key = std::move(queue.front());
    queue.pop();
    const int d = dist[key];
    if ((++popped & 0xFFF) == 0) throw_if_stopped(options, d - 1);
    if (static_cast<int>(counts.size()) <= d) counts.resize(static_cast<std::size_t>(d) + 1);
    ++counts[static_cast<std::size_t>(d)];
    for_each_bfs_neighbour(rule, options, from_key(key), [&](State p) {
      auto pk = to_key(p, n);
      if (dist.emplace(pk, d + 1).second) queue.push(std::move(pk));
    });
  }
  // One queue drains all levels, so levels are reported (untimed) at the end.
  for (auto c : counts) recorder.record(c, Direction::kTopDown);
  if (options.want_depths) {
    result.depth.assign(rule.size(), kUnreached);
    for (const auto& [key, d] : dist) result.depth[rule.rank(from_key(key))] = static_cast<std::uint8_t>(d);
  }
  result.peak_bytes = bytes_reference(AnyRule(rule), options);
  recorder.finish();
  return result;
}

}  // namespace

BfsResult run_reference(const AnyRule& rule, const BfsOptions& options) {
  return std::visit([&](const auto& r) { return reference_bfs(r, options); }, rule);
}

std::uint64_t bytes_reference(const AnyRule& rule, const BfsOptions& options) {
  // A node of unordered_map<string, int> with a short string: about 64 bytes plus the
  // bucket pointer; the queue holds at most one layer of 32-byte strings.
  const std::uint64_t n = rule_size(rule);
  return n * 96 + (options.want_depths ? n : 0);
}

}  // namespace stategraph::bfs
