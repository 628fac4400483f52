// summarize: the facts of one BFS from the goals that summary.csv reports.
#include <string>

#include "stategraph/analysis/analysis.hpp"

namespace stategraph {

Summary summarize(const AnyRule& rule, const BfsResult& result, std::string variant, int threads) {
  Summary s;
  s.rule = std::string(rule_name(rule));
  const Grid g = rule_grid(rule);
  s.rows = g.rows;
  s.cols = g.cols;
  s.space_size = rule_size(rule);
  s.reachable = result.reached();
  s.max_depth = result.max_depth();
  s.antipodes = result.layers.empty() ? 0 : result.layers.back();
  s.variant = std::move(variant);
  s.threads = threads;
  s.seconds = result.seconds;
  s.peak_bytes = result.peak_bytes;
  std::visit(
      [&](const auto& r) {
        s.goals = r.goals().size();
        if constexpr (requires { r.start(); }) {
          if (!result.depth.empty()) {
            const auto d = result.depth[r.rank(r.start())];
            s.start_distance = d == kUnreached ? -1 : static_cast<int>(d);
          }
        }
      },
      rule);
  return s;
}

}  // namespace stategraph
