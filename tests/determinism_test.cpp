// Determinism: the CSVs `analyze` writes from a BFS (distribution.csv,
// levels.csv, summary.csv) are byte-identical for every variant and thread count, apart
// from the columns that are about the run rather than the puzzle: seconds (time),
// variant, threads, peak_bytes (memory) and, across variants, levels.csv's direction
// (which step a variant took). The depth table is compared too. Every rule at 3x3 and
// sliding 2x5; each parallel variant 20 times with the thread count cycling 1, 2, 4
// (bottomup, whose pure bottom-up levels cost seconds at 3x3, 3 times on the 3x3 rules
// only: it has no atomics, every word is written by the task that owns it).
// The graph CSVs (components.csv, ...) are compared by tests/cli_reliability_test.sh.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "stategraph/analysis/analysis.hpp"
#include "stategraph/io/tables.hpp"

namespace stategraph {
namespace {

struct Csvs {
  std::string distribution, levels, levels_no_direction, summary;
  std::vector<std::uint8_t> depth;
};

Csvs csvs_of(const AnyRule& rule, BfsResult r) {
  Csvs c;
  c.distribution = distribution_table(r).str();
  for (auto& l : r.levels) l.seconds = 0;
  c.levels = levels_table(r).str();
  for (auto& l : r.levels) l.direction = Direction::kScan;
  c.levels_no_direction = levels_table(r).str();
  r.seconds = 0;
  r.peak_bytes = 0;
  c.summary = summary_table(summarize(rule, r, "", 0)).str();
  c.depth = std::move(r.depth);
  return c;
}

TEST(Determinism, EveryVariantAndThreadCountWritesTheSameCsvs) {
  const std::vector<AnyRule> rules = {make_rule("sliding"), make_rule("rotate"), make_rule("primeswap"),
                                      make_rule("cardswap", 3, 3, RuleOptions{"A**/* */**B"}),
                                      make_rule("sliding", 2, 5)};
  const int threads[] = {1, 2, 4};
  for (const AnyRule& rule : rules) {
    const std::string label = std::string(rule_name(rule)) + " " + rule_grid(rule).label();
    BfsOptions o;
    o.want_depths = true;
    const Csvs ref = csvs_of(rule, find_variant("reference").run(rule, o));
    ASSERT_FALSE(ref.depth.empty());
    for (const auto& v : variant_table()) {
      if (v.on_disk) continue;  // no depth table (its CSVs: disk_test.cpp and cli_reliability_test.sh)
      const bool parallel = v.parallel;
      int runs = parallel ? 20 : 1;
      if (v.name == "bottomup") runs = rule_size(rule) > 400000 ? 0 : 3;
      std::string first_levels;
      for (int i = 0; i < runs; ++i) {
        const int t = threads[i % 3];
        SCOPED_TRACE(label + " " + std::string(v.name) + " run " + std::to_string(i) + ", " + std::to_string(t) +
                     " threads");
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(t));
        const Csvs got = csvs_of(rule, v.run(rule, o));
        EXPECT_EQ(got.distribution, ref.distribution);
        EXPECT_EQ(got.summary, ref.summary);
        EXPECT_EQ(got.levels_no_direction, ref.levels_no_direction);
        EXPECT_TRUE(got.depth == ref.depth) << "depth tables differ";
        // Within one variant the directions are part of the result too.
        if (i == 0) first_levels = got.levels;
        EXPECT_EQ(got.levels, first_levels);
      }
    }
  }
}

}  // namespace
}  // namespace stategraph
