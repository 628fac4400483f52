// The straightforward rotate 3x3 solution a judge contestant would write, the yardstick
// `solve` is measured against: BFS from the goal into std::unordered_map<std::string, int>
// keyed by state strings, then istream parsing of the queries and look-ups. Used by the
// Solve benchmark (in process) and by stategraph_naive_rotate3x3 (whole process).
#pragma once

#include <deque>
#include <istream>
#include <ostream>
#include <string>
#include <unordered_map>

namespace stategraph::bench {

// Answers the judge input `in` (T, then T grids of 1..9) on `out`: the minimum number of
// clockwise turns to 1..9, one line per query, -1 when unreachable.
inline void solve_naive_rotate3x3(std::istream& in, std::ostream& out) {
  std::unordered_map<std::string, int> dist;
  std::deque<std::string> queue;
  dist.emplace("123456789", 0);
  queue.push_back("123456789");
  while (!queue.empty()) {
    const std::string s = queue.front();
    queue.pop_front();
    const int d = dist[s];
    for (int tl : {0, 1, 3, 4}) {  // undo a clockwise turn: turn counter-clockwise
      std::string t = s;
      const int a = tl, b = tl + 1, c = tl + 3, e = tl + 4;
      t[a] = s[b], t[b] = s[e], t[e] = s[c], t[c] = s[a];
      if (dist.emplace(t, d + 1).second) queue.push_back(t);
    }
  }
  int count = 0;
  in >> count;
  for (int q = 0; q < count; ++q) {
    std::string key;
    for (int i = 0; i < 9; ++i) {
      int v;
      in >> v;
      key += static_cast<char>('0' + v);
    }
    const auto it = dist.find(key);
    out << (it == dist.end() ? -1 : it->second) << '\n';
  }
}

}  // namespace stategraph::bench
