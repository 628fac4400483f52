// check_component_bounds against brute force: all-pairs distances of small components
// (primeswap 2x3 and 2x4, undirected; rotate 2x3, directed) give the true source bound
// and pair bound; witnesses at exactly those values pass, one below fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <map>

#include "stategraph/analysis/check_bounds.hpp"

namespace stategraph {
namespace {

struct Brute {
  std::vector<std::uint64_t> ranks;  // the component, sorted
  std::vector<std::vector<int>> d;   // d[i][j]: moves from ranks[i] to ranks[j]
  std::vector<std::string> text;     // formatted states
};

// The component reached from `from` along successors, and all-pairs distances.
Brute brute(const AnyRule& rule, std::uint64_t from) {
  return std::visit(
      [&](const auto& r) {
        Brute b;
        std::map<std::uint64_t, std::size_t> pos;
        std::deque<std::uint64_t> q{from};
        std::map<std::uint64_t, bool> seen{{from, true}};
        while (!q.empty()) {
          const auto x = q.front();
          q.pop_front();
          r.for_each_successor(r.unrank(x), [&](State t) {
            const auto y = r.rank(t);
            if (seen.emplace(y, true).second) q.push_back(y);
          });
        }
        for (const auto& [k, v] : seen) pos[k] = b.ranks.size(), b.ranks.push_back(k);
        const std::size_t m = b.ranks.size();
        b.d.assign(m, std::vector<int>(m, -1));
        for (std::size_t i = 0; i < m; ++i) {
          b.text.push_back(r.format(r.unrank(b.ranks[i])));
          std::deque<std::size_t> qq{i};
          b.d[i][i] = 0;
          while (!qq.empty()) {
            const auto x = qq.front();
            qq.pop_front();
            r.for_each_successor(r.unrank(b.ranks[x]), [&](State t) {
              const auto y = pos.at(r.rank(t));
              if (b.d[i][y] < 0) b.d[i][y] = b.d[i][x] + 1, qq.push_back(y);
            });
          }
        }
        return b;
      },
      rule);
}

struct Case {
  std::vector<WitnessRow> rows;
  int source_upper = 0, pair_upper = -1;
};

// Witness rows for sources (indices into the component) and pair sources, at the true values.
Case make_case(const Brute& b, const std::vector<std::size_t>& sources, const std::vector<std::size_t>& pair,
               bool directed) {
  const std::size_t m = b.ranks.size();
  auto ecc = [&](std::size_t s) { return *std::max_element(b.d[s].begin(), b.d[s].end()); };
  Case c;
  for (std::size_t w = 0; w < m; ++w) {
    int h = std::numeric_limits<int>::max();
    for (auto s : sources) h = std::min(h, ecc(s) + (directed ? b.d[w][s] : b.d[s][w]));
    c.source_upper = std::max(c.source_upper, h);
  }
  if (!pair.empty()) {
    c.pair_upper = 0;
    for (std::size_t x = 0; x < m; ++x)
      for (std::size_t y = 0; y < m; ++y) {
        int h = std::numeric_limits<int>::max();
        for (auto s : pair) h = std::min(h, b.d[s][x] + b.d[s][y]);
        c.pair_upper = std::max(c.pair_upper, h);
      }
  }
  const std::size_t a = sources[0];
  const std::size_t far = static_cast<std::size_t>(std::max_element(b.d[a].begin(), b.d[a].end()) - b.d[a].begin());
  std::size_t row = 0;
  auto add = [&](std::string kind, std::string state, std::string other, std::optional<int> value) {
    c.rows.push_back({++row, 0, std::move(kind), std::move(state), std::move(other), value});
  };
  add("lower", b.text[a], b.text[far], ecc(a));
  add("upper", "", "", c.pair_upper >= 0 ? std::min(c.source_upper, c.pair_upper) : c.source_upper);
  for (auto s : sources) add("source", b.text[s], "", ecc(s));
  if (!pair.empty()) {
    add("pair_upper", "", "", c.pair_upper);
    for (auto s : pair) add("pair_source", b.text[s], "", std::nullopt);
  }
  return c;
}

void expect_exact(const AnyRule& rule, const Brute& b, const std::vector<std::size_t>& sources,
                  const std::vector<std::size_t>& pair, bool directed) {
  Case c = make_case(b, sources, pair, directed);
  const ComponentCheck ok = check_component_bounds(rule, c.rows, nullptr);
  EXPECT_TRUE(ok.failures.empty()) << (ok.failures.empty() ? "" : ok.failures.front().message);
  EXPECT_EQ(ok.size, b.ranks.size());
  EXPECT_EQ(ok.source_upper, c.source_upper);
  EXPECT_EQ(ok.pair_upper, c.pair_upper);
  // One below the true upper bound fails on the upper row (row 2).
  Case low = c;
  --*low.rows[1].value;
  const ComponentCheck bad = check_component_bounds(rule, low.rows, nullptr);
  ASSERT_FALSE(bad.failures.empty());
  EXPECT_EQ(bad.failures.front().row, 2u) << bad.failures.front().message;
  if (!pair.empty()) {
    Case lowp = c;
    const std::size_t at = 2 + sources.size();  // the pair_upper row
    ASSERT_EQ(lowp.rows[at].kind, "pair_upper");
    --*lowp.rows[at].value;
    const ComponentCheck badp = check_component_bounds(rule, lowp.rows, nullptr);
    ASSERT_FALSE(badp.failures.empty());
    EXPECT_EQ(badp.failures.front().row, at + 1) << badp.failures.front().message;
  }
  // A source's eccentricity off by one fails on its row.
  Case off = c;
  ++*off.rows[2].value;
  const ComponentCheck bads = check_component_bounds(rule, off.rows, nullptr);
  ASSERT_FALSE(bads.failures.empty());
  EXPECT_EQ(bads.failures.front().row, 3u) << bads.failures.front().message;
}

TEST(CheckBounds, PrimeSwapMatchesBruteForce) {
  for (auto [rows, cols] : {std::pair{2, 3}, std::pair{2, 4}}) {
    const AnyRule rule = make_rule("primeswap", rows, cols);
    const Brute b = brute(rule, 0);  // the goal's component
    const std::size_t m = b.ranks.size();
    ASSERT_GT(m, 20u);
    // Pair sources: two of the sources and one state that is not a source.
    expect_exact(rule, b, {0, m / 3, m - 1}, {0, m - 1, m / 2}, false);
    expect_exact(rule, b, {m / 5}, {}, false);
  }
}

TEST(CheckBounds, DirectedRotateMatchesBruteForce) {
  const AnyRule rule = make_rule("rotate", 2, 3);
  const Brute b = brute(rule, 0);
  const std::size_t m = b.ranks.size();
  ASSERT_EQ(m, 120u);
  expect_exact(rule, b, {0, 7, 99}, {}, true);
}

TEST(CheckBounds, ParseRejectsUnknownKinds) {
  CsvData csv = parse_csv("component,kind,state,other_state,value\n0,lower,a,b,1\n0,sauce,,,2\n", "w.csv");
  EXPECT_THROW(parse_witness_rows(csv, "w.csv"), InputError);
  csv = parse_csv("component,kind,state,other_state,value\nx,upper,,,1\n", "w.csv");
  EXPECT_THROW(parse_witness_rows(csv, "w.csv"), InputError);
}

}  // namespace
}  // namespace stategraph
