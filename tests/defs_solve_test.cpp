// Defined rules and rotate with both directions in `solve` and table files: depths,
// optimal paths and their counts against the built-in rotate and the reference BFS.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "defs_common.hpp"
#include "stategraph/solve/solve.hpp"

namespace stategraph {
namespace {

using namespace defs_test;

TEST(DefRotate, SolveAgreesWithTheBuiltIn) {
  for (bool both : {false, true}) {
    const AnyRule builtin = both ? rotate_both(3, 3) : make_rule("rotate", 3, 3);
    const AnyRule def = defined(both ? "rotate-3x3-both.tws" : "rotate-3x3.tws", nullptr, 3, 3);
    const DepthTable ta = build_depth_table(builtin, DepthEncoding::kByte);
    const DepthTable tb = build_depth_table(def, both ? DepthEncoding::kMod3 : DepthEncoding::kNibble);
    std::mt19937_64 rng(3);
    for (int k = 0; k < 200; ++k) {
      const State s = std::get<Rotate>(builtin).unrank(rng() % 362880);
      ASSERT_EQ(depth_of(def, tb, s), depth_of(builtin, ta, s));
      ASSERT_TRUE(count_optimal_paths(def, tb, s) == count_optimal_paths(builtin, ta, s));
      const auto path = optimal_path(def, tb, s);
      ASSERT_EQ(static_cast<int>(path.size()), depth_of(builtin, ta, s));
      // The path's moves are real: replaying them by name reaches the goal.
      State x = s;
      for (const auto& step : path) {
        const auto& names = std::get<DefinedRule>(def).move_names();
        const auto m = std::find(names.begin(), names.end(), step.move) - names.begin();
        x = std::get<DefinedRule>(def).apply(static_cast<int>(m), x);
        ASSERT_EQ(x, step.board);
      }
      ASSERT_EQ(x, identity_state(9));
    }
    // The built-in's labels for both directions: clockwise, then counter-clockwise.
    if (both) {
      std::vector<std::string> labels;
      std::get<Rotate>(builtin).for_each_move(identity_state(9), [&](const auto& l, State) { labels.push_back(l()); });
      EXPECT_EQ(labels, (std::vector<std::string>{"r1c1", "r1c2", "r2c1", "r2c2", "r1c1'", "r1c2'", "r2c1'", "r2c2'"}));
    }
  }
}

TEST(DefRotate, TableFilesRecordTheDefinitionsHash) {
  const auto dir = std::filesystem::temp_directory_path() / ("sg_defs_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const AnyRule def = defined("rotate-3x3.tws");
  const DepthTable t = build_depth_table(def, DepthEncoding::kNibble);
  save_depth_table(dir / "t.sgd", def, t);
  EXPECT_EQ(read_table_info(dir / "t.sgd").rule, std::get<DefinedRule>(def).table_id());
  const DepthTable back = load_depth_table(dir / "t.sgd", def);
  EXPECT_EQ(back.size(), t.size());
  // Another definition with the same shape (other moves) is refused, and so is the built-in.
  EXPECT_THROW(load_depth_table(dir / "t.sgd", defined("rotate-3x3.tws", "inverses")), InputError);
  EXPECT_THROW(load_depth_table(dir / "t.sgd", make_rule("rotate", 3, 3)), InputError);
  // rotate-both round-trips through its recorded name.
  const AnyRule rb = rotate_both(2, 3);
  save_depth_table(dir / "b.sgd", rb, build_depth_table(rb, DepthEncoding::kMod3));
  EXPECT_EQ(read_table_info(dir / "b.sgd").rule, "rotate-both");
  EXPECT_NO_THROW(load_depth_table(dir / "b.sgd", make_solve_rule("rotate-both", 2, 3)));
  EXPECT_THROW(load_depth_table(dir / "b.sgd", make_solve_rule("rotate", 2, 3)), InputError);
  std::filesystem::remove_all(dir);
}

TEST(DefRotate, EncodingsFollowTheMoveOrders) {
  EXPECT_EQ(encoding_problem(defined("rotate-3x3.tws"), DepthEncoding::kNibble), "");
  EXPECT_NE(encoding_problem(defined("rotate-3x3.tws"), DepthEncoding::kMod3), "");
  EXPECT_EQ(encoding_problem(defined("rotate-3x3-both.tws"), DepthEncoding::kMod3), "");
  // A directed 15-cycle: a successor can be 14 farther, beyond mod 15.
  std::string cyc = "Set P 15 1\nSolved\nEnd\nMove C\nP\n";
  for (int i = 2; i <= 15; ++i) cyc += std::to_string(i) + " ";
  cyc += "1\nEnd\n";
  const AnyRule r = DefinedRule(parse_definition(cyc, "c.tws", DefinedMetric::kGiven));
  EXPECT_NE(encoding_problem(r, DepthEncoding::kNibble), "");
}

TEST(DefMultiset, SolveParsesQueriesWithRepeatedPieces) {
  const AnyRule rule = DefinedRule(parse_definition(kMultiset, "m.tws", DefinedMetric::kGiven), 2, 4);
  const DepthTable t = build_depth_table(rule, DepthEncoding::kByte);
  const BatchResult out = solve_input(rule, t, "3\n1 1 2 2\n3 3 4 4\n1 1 2 2 3 3 4 4\n2 1 1 2\n3 3 4 4\n", {}, false);
  EXPECT_EQ(out.errors.size(), 0u);
  EXPECT_EQ(out.out.substr(0, 4), "0\n0\n");
  EXPECT_THROW(solve_input(rule, t, "1\n1 1 1 2\n3 3 4 4\n", {}, false), InputError);
  // A state that cannot reach the goal answers -1; check against the brute force.
  const auto& r = std::get<DefinedRule>(rule);
  BfsOptions o;
  o.want_depths = true;
  const BfsResult b = find_variant("reference").run(rule, o);
  for (std::uint64_t k = 0; k < r.size(); k += 7) {
    const int want = b.depth[k] == kUnreached ? -1 : b.depth[k];
    ASSERT_EQ(depth_of(rule, t, r.unrank(k)), want);
  }
}

}  // namespace
}  // namespace stategraph
