// Answers from a depth table: depth (exact, or by walking down a modular table),
// one optimal path, and the number of optimal move sequences (a DP over the layers of
// the optimal-path DAG).
#include "stategraph/solve/solve.hpp"

#include <algorithm>

#include "stategraph/core/rank.hpp"

namespace stategraph {
namespace {

// A rule with its table: code lookups in the state's section.
template <class R>
struct View {
  const R& rule;
  const DepthTable& table;
  std::uint64_t section;
  unsigned code(State s) const { return table.code(section, rule.rank(s)); }
};

template <class R>
int depth_impl(const R& rule, const DepthTable& table, State s) {
  if (!rule.in_space(s)) return -1;
  const View<R> v{rule, table, section_of(rule, s)};
  unsigned c = v.code(s);
  if (c == table.unreached()) return -1;
  if (table.modulus() == 0) return static_cast<int>(c);
  // Modular: walk to the goal, one closer successor at a time.
  int depth = 0;
  for (;;) {
    bool found = false;
    rule.for_each_successor(s, [&](State t) {
      const unsigned ct = v.code(t);
      if (!table.closer(c, ct)) return false;
      s = t, c = ct, found = true;
      return true;
    });
    if (!found) return depth;
    ++depth;
  }
}

template <class R>
std::vector<PathStep> path_impl(const R& rule, const DepthTable& table, State s) {
  std::vector<PathStep> path;
  if (!rule.in_space(s)) return path;
  const View<R> v{rule, table, section_of(rule, s)};
  unsigned c = v.code(s);
  if (c == table.unreached()) return path;
  for (;;) {
    bool found = false;
    State next = 0;
    unsigned next_code = 0;
    rule.for_each_move(s, [&](const auto& label, State t) {
      const unsigned ct = v.code(t);
      if (!table.closer(c, ct)) return false;
      found = true, next = t, next_code = ct;
      path.push_back({label(), t});
      return true;
    });
    if (!found) return path;
    s = next, c = next_code;
  }
}

PathCount add_saturating(PathCount a, PathCount b) {
  const PathCount r = a + b;
  return r < a ? kCountSaturated : r;
}

template <class R>
PathCount count_impl(const R& rule, const DepthTable& table, State s) {
  if (!rule.in_space(s)) return 0;
  const View<R> v{rule, table, section_of(rule, s)};
  const unsigned c0 = v.code(s);
  if (c0 == table.unreached()) return 0;
  // layers[i]: the distinct states on optimal paths i moves from s (sorted), all at
  // depth(s) - i; the last layer holds goals (no closer successor).
  std::vector<std::vector<State>> layers{{s}};
  std::vector<unsigned> codes{c0};
  for (;;) {
    const unsigned c = codes.back();
    std::vector<State> next;
    unsigned next_code = 0;
    for (State x : layers.back())
      rule.for_each_successor(x, [&](State t) {
        const unsigned ct = v.code(t);
        if (table.closer(c, ct)) next.push_back(t), next_code = ct;
      });
    if (next.empty()) break;
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    layers.push_back(std::move(next));
    codes.push_back(next_code);
  }
  // count(goal) = 1; count(x) = sum of count(t) over closer successors t.
  std::vector<PathCount> below(layers.back().size(), 1);
  for (std::size_t i = layers.size() - 1; i-- > 0;) {
    const auto& lower = layers[i + 1];
    std::vector<PathCount> here(layers[i].size(), 0);
    for (std::size_t j = 0; j < layers[i].size(); ++j)
      rule.for_each_successor(layers[i][j], [&](State t) {
        const unsigned ct = v.code(t);
        if (!table.closer(codes[i], ct)) return;
        const auto it = std::lower_bound(lower.begin(), lower.end(), t);
        here[j] = add_saturating(here[j], below[static_cast<std::size_t>(it - lower.begin())]);
      });
    below = std::move(here);
  }
  return below[0];
}

}  // namespace

bool in_goal_class(const AnyRule& rule, State s) { return rule_in_space(rule, s); }

std::string format_count(PathCount c) {
  if (c == kCountSaturated) return ">=340282366920938463463374607431768211455";
  if (c == 0) return "0";
  std::string digits;
  while (c > 0) {
    digits += static_cast<char>('0' + static_cast<int>(c % 10));
    c /= 10;
  }
  return {digits.rbegin(), digits.rend()};
}

int depth_of(const AnyRule& rule, const DepthTable& table, State s) {
  return std::visit([&](const auto& r) { return depth_impl(r, table, s); }, rule);
}

std::vector<PathStep> optimal_path(const AnyRule& rule, const DepthTable& table, State s) {
  return std::visit([&](const auto& r) { return path_impl(r, table, s); }, rule);
}

PathCount count_optimal_paths(const AnyRule& rule, const DepthTable& table, State s) {
  return std::visit([&](const auto& r) { return count_impl(r, table, s); }, rule);
}

namespace {

template <class R>
void append_impl(const R& rule, const DepthTable& table, State s, const AnswerOptions& o, std::string& out) {
  const int d = depth_impl(rule, table, s);
  out += std::to_string(d);
  if (o.count) out += " count=" + format_count(d < 0 ? 0 : count_impl(rule, table, s));
  std::vector<PathStep> path;
  if ((o.path || o.boards) && d >= 0) path = path_impl(rule, table, s);
  if (o.path && d >= 0) {
    out += " path=";
    for (std::size_t i = 0; i < path.size(); ++i) {
      if (i) out += ',';
      out += path[i].move;
    }
  }
  out += '\n';
  if (o.boards && d >= 0) {
    out += "  0: " + rule.format(s) + "\n";
    for (std::size_t i = 0; i < path.size(); ++i)
      out += "  " + std::to_string(i + 1) + " " + path[i].move + ": " + rule.format(path[i].board) + "\n";
  }
}

}  // namespace

void append_answer(const AnyRule& rule, const DepthTable& table, State s, const AnswerOptions& options,
                   std::string& out) {
  std::visit([&](const auto& r) { append_impl(r, table, s, options, out); }, rule);
}

BatchResult solve_input(const AnyRule& rule, const DepthTable& table, std::string_view input,
                        const AnswerOptions& options, bool keep_going) {
  return answer_queries(rule, table, parse_queries(rule, input, keep_going), options);
}

BatchResult answer_queries(const AnyRule& rule, const DepthTable& table, const std::vector<Query>& queries,
                           const AnswerOptions& options) {
  BatchResult result;
  const bool plain = !options.path && !options.count && !options.boards;
  std::visit(
      [&](const auto& r) {
        result.out.reserve(queries.size() * (plain ? 3 : 32));
        for (const Query& q : queries) {
          if (!q.error.empty()) {
            result.errors.push_back(q.error);
            if (q.last_line >= 0) result.out += "error\n";  // keeps answers aligned with queries
            continue;
          }
          if (plain) {
            const int d = depth_impl(r, table, q.state);
            char buf[8];
            int len = 0;
            if (d < 0) {
              buf[len++] = '-', buf[len++] = '1';
            } else if (d >= 100) {
              buf[len++] = static_cast<char>('0' + d / 100), buf[len++] = static_cast<char>('0' + d / 10 % 10),
              buf[len++] = static_cast<char>('0' + d % 10);
            } else if (d >= 10) {
              buf[len++] = static_cast<char>('0' + d / 10), buf[len++] = static_cast<char>('0' + d % 10);
            } else {
              buf[len++] = static_cast<char>('0' + d);
            }
            buf[len++] = '\n';
            result.out.append(buf, static_cast<std::size_t>(len));
          } else {
            append_impl(r, table, q.state, options, result.out);
          }
        }
      },
      rule);
  return result;
}

}  // namespace stategraph
