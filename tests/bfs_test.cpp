#include "stategraph/bfs/bfs.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <map>

#include "disk_support.hpp"

namespace stategraph {
namespace {

BfsResult run(std::string_view variant, const AnyRule& rule, bool depths = true) {
  BfsOptions o;
  o.want_depths = depths;
  return test::run_variant(find_variant(variant), rule, o);
}

int depth_of(const AnyRule& rule, const BfsResult& r, std::string_view text) {
  return std::visit(
      [&](const auto& x) {
        const State s = x.parse(text);
        if (!x.in_space(s)) return -1;
        const auto d = r.depth[x.rank(s)];
        return d == kUnreached ? -1 : static_cast<int>(d);
      },
      rule);
}

std::vector<AnyRule> small_rules(bool with_3x3 = true) {
  std::vector<AnyRule> out;
  std::vector<std::pair<int, int>> sizes{{2, 2}, {2, 3}, {3, 2}, {2, 4}};
  if (with_3x3) sizes.emplace_back(3, 3);
  for (auto [r, c] : sizes) {
    out.push_back(make_rule("sliding", r, c));
    out.push_back(make_rule("rotate", r, c));
    out.push_back(make_rule("primeswap", r, c));
  }
  out.push_back(make_rule("cardswap", 2, 3, RuleOptions{"* A/**B"}));
  out.push_back(make_rule("cardswap", 2, 3, RuleOptions{"A B/***"}));
  out.push_back(make_rule("cardswap", 3, 2, RuleOptions{"A*/* /*B"}));
  out.push_back(make_rule("cardswap", 2, 4, RuleOptions{"A***/ **B"}));
  if (with_3x3) out.push_back(make_rule("cardswap", 3, 3, RuleOptions{"A**/* */**B"}));
  return out;
}

class VariantTest : public ::testing::TestWithParam<std::string> {};

TEST_P(VariantTest, AgreesWithReferenceAndVerifies) {
  for (const AnyRule& rule : small_rules()) {
    const std::string label = std::string(rule_name(rule)) + " " + rule_grid(rule).label();
    const BfsResult ref = run("reference", rule);
    const BfsResult got = run(GetParam(), rule);
    EXPECT_EQ(got.layers, ref.layers) << label;
    EXPECT_EQ(got.depth, ref.depth) << label;
    EXPECT_EQ(verify_bfs(rule, got), "") << label;
    EXPECT_EQ(got.levels.size(), got.layers.size()) << label;
  }
}

// The variants that keep a depth table (the disk variant does not: disk_test.cpp checks
// its layers against the reference on every rule).
std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const auto& v : variant_table())
    if (!v.on_disk) names.emplace_back(v.name);
  return names;
}

std::vector<std::string> parallel_variant_names() {
  std::vector<std::string> names;
  for (const auto& v : variant_table())
    if (v.parallel && !v.on_disk) names.emplace_back(v.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllVariants, VariantTest, ::testing::ValuesIn(variant_names()),
                         [](const auto& info) { return info.param; });

// Every parallel variant at 1, 2 and 4 threads (oneTBB's parallelism set as the CLI
// sets it) against the reference on the rules up to 2x4; layers only and with depth
// tables. (3x3 runs at the default thread count in VariantTest: pure bottom-up at 3x3
// costs seconds per run, too slow to repeat per thread count in the suite.)
class ThreadsTest : public ::testing::TestWithParam<std::tuple<std::string, int>> {};

TEST_P(ThreadsTest, SameLayersAtEveryThreadCount) {
  const auto& [variant, threads] = GetParam();
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  static std::map<std::string, BfsResult> refs;
  for (const AnyRule& rule : small_rules(false)) {
    const std::string label = std::string(rule_name(rule)) + " " + rule_grid(rule).label() + " " +
                              std::visit([](const auto& x) { return x.format(x.goals()[0]); }, rule);
    auto it = refs.find(label);
    if (it == refs.end()) it = refs.emplace(label, run("reference", rule)).first;
    const BfsResult layers_only = run(variant, rule, false);
    EXPECT_EQ(layers_only.layers, it->second.layers) << label;
    EXPECT_TRUE(layers_only.depth.empty()) << label;
    const BfsResult with_depths = run(variant, rule, true);
    EXPECT_EQ(with_depths.depth, it->second.depth) << label;
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, ThreadsTest,
                         ::testing::Combine(::testing::ValuesIn(parallel_variant_names()), ::testing::Values(1, 2, 4)),
                         [](const auto& info) {
                           return std::get<0>(info.param) + "_" + std::to_string(std::get<1>(info.param)) + "threads";
                         });

// Sliding 2x5: 1,814,400 states, radius 55 — large enough that every parallel variant
// splits the work into many tasks and switches direction.
TEST(BfsTest, Sliding2x5EveryVariantAgrees) {
  const AnyRule rule = make_rule("sliding", 2, 5);
  const BfsResult ref = run("reference", rule, false);
  EXPECT_EQ(ref.reached(), 1814400u);
  EXPECT_EQ(ref.max_depth(), 55);
  for (const auto& v : variant_table()) {
    if (v.name == "reference") continue;
    const BfsResult got = run(v.name, rule, v.name == "hybrid" || v.name == "twobit");  // disk: layers only
    EXPECT_EQ(got.layers, ref.layers) << v.name;
    if (!got.depth.empty()) EXPECT_EQ(verify_bfs(rule, got), "") << v.name;
  }
}

// The plain loop (every neighbour ranked from scratch) and the incremental ranks give
// the same depths in every variant that uses them, on sliding 2x5 and 3x3.
TEST(BfsTest, IncrementalRanksAgreeWithPlainRanking) {
  for (auto [rows, cols] : {std::pair{3, 3}, std::pair{2, 5}}) {
    const AnyRule rule = make_rule("sliding", rows, cols);
    for (std::string_view variant : {"topdown", "bottomup", "hybrid", "twobit"}) {
      BfsOptions o;
      o.want_depths = true;
      const BfsResult incremental = find_variant(variant).run(rule, o);
      o.incremental_ranks = false;
      const BfsResult plain = find_variant(variant).run(rule, o);
      EXPECT_EQ(incremental.depth, plain.depth) << variant << " " << rows << "x" << cols;
      EXPECT_EQ(incremental.layers, plain.layers) << variant << " " << rows << "x" << cols;
    }
  }
}

// The incremental ranks of the rules ranked by the direct permutation (MoveRanks), on
// directed and undirected graphs, from the goal and forward from other sources: every
// variant that uses them gives the reference's layers and the plain loop's depths. (At 3x3
// every rule's ranks are checked state by state by IncrementalRanks in rules_test.cpp,
// and rotate both's layers by DefRotate in defs_test.cpp.)
TEST(BfsTest, IncrementalPermutationRanksAgreeWithReferenceAndPlainRanking) {
  std::vector<AnyRule> rules;
  rules.push_back(make_rule("rotate", 3, 3));  // 9!: a split with moves on both sides (seconds per rule)
  for (auto [rows, cols] : {std::pair{2, 2}, {2, 3}, {3, 2}, {2, 4}}) {
    rules.push_back(make_rule("rotate", rows, cols));
    rules.push_back(make_rule("rotate", rows, cols, RuleOptions{{}, "both"}));
    rules.push_back(make_rule("primeswap", rows, cols));
    rules.push_back(make_rule("adjswap", rows, cols));
  }
  for (const AnyRule& rule : rules) {
    const std::string label = std::string(rule_name(rule)) + " " + rule_grid(rule).label();
    for (bool goal : {true, false}) {
      BfsOptions o;
      o.want_depths = true;
      if (!goal) {
        const std::uint64_t n = rule_size(rule);
        o.sources = {std::visit([&](const auto& x) { return x.unrank(n / 3); }, rule),
                     std::visit([&](const auto& x) { return x.unrank(n - 1); }, rule)};
        o.forward = true;
      }
      const BfsResult ref = find_variant("reference").run(rule, o);
      for (std::string_view variant : {"topdown", "bottomup", "hybrid", "twobit"}) {
        BfsOptions plain = o;
        plain.incremental_ranks = false;
        const BfsResult incremental = find_variant(variant).run(rule, o);
        EXPECT_EQ(incremental.layers, ref.layers) << variant << " " << label << " goal " << goal;
        EXPECT_EQ(incremental.depth, find_variant(variant).run(rule, plain).depth) << variant << " " << label;
      }
    }
  }
}

// Sliding's block moves (a word of 64 ranks at a time) against the reference and the
// state-by-state steps (and the vertical moves from unranked states instead of the rank
// scanner), in every variant at 1 and 2 threads: block sizes below 64 (2x2,
// 2x3, 3x2), not multiples of 64 (2x4, 4x2), multiples (3x3, 2x5), from the goal and
// forward from other sources.
TEST(BfsTest, BlockMovesAgreeWithReferenceAndStateByState) {
  std::vector<AnyRule> rules;
  for (auto [rows, cols] : {std::pair{2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}, {3, 3}, {2, 5}})
    rules.push_back(make_rule("sliding", rows, cols));
  for (const AnyRule& rule : rules) {
    const std::string label = rule_grid(rule).label();
    for (bool goal : {true, false}) {
      BfsOptions o;
      o.want_depths = true;
      if (!goal) {
        const auto& s = std::get<Sliding>(rule);
        o.sources = {s.state_with_blank(0), s.state_with_blank(rule_grid(rule).cells() / 2)};
        o.forward = true;
      }
      const BfsResult ref = find_variant("reference").run(rule, o);
      for (std::string_view variant : {"topdown", "bottomup", "hybrid", "twobit"}) {
        if (variant == "bottomup" && rule_size(rule) > 200000) continue;  // seconds per run
        for (int threads : {1, 2}) {
          tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
          BfsOptions blocks = o, plain = o;
          plain.block_moves = false;
          const BfsResult got = find_variant(variant).run(rule, blocks);
          EXPECT_EQ(got.depth, ref.depth) << variant << " " << label << " " << threads << " threads";
          EXPECT_EQ(got.layers, ref.layers) << variant << " " << label;
          EXPECT_EQ(find_variant(variant).run(rule, plain).depth, got.depth) << variant << " " << label;
          BfsOptions unscanned = o;  // block moves, but every state unranked for its vertical moves
          unscanned.rank_scan = false;
          EXPECT_EQ(find_variant(variant).run(rule, unscanned).depth, got.depth) << variant << " " << label;
        }
      }
    }
  }
}

// Custom sources and the forward direction: on the directed rotate graph, the depth
// FROM the goal along clockwise turns differs from the depth TO it; every variant must
// match the reference in both directions and from a set of several sources.
TEST(BfsTest, SourcesAndForwardDirection) {
  const AnyRule rule = make_rule("rotate", 2, 3);
  const auto& rot = std::get<Rotate>(rule);
  BfsOptions o;
  o.want_depths = true;
  o.forward = true;
  o.sources = {rot.parse("2 1 3/4 5 6"), rot.parse("6 5 4/3 2 1")};
  const BfsResult ref = find_variant("reference").run(rule, o);
  BfsOptions back = o;
  back.forward = false;
  const BfsResult ref_back = find_variant("reference").run(rule, back);
  ASSERT_EQ(ref.layers[0], 2u);
  EXPECT_NE(ref.depth, ref_back.depth);
  for (const auto& v : variant_table()) {
    if (v.on_disk) {  // no depth table: the layers
      BfsOptions lo = o, lback = back;
      lo.want_depths = lback.want_depths = false;
      EXPECT_EQ(test::run_variant(v, rule, lo).layers, ref.layers) << v.name;
      EXPECT_EQ(test::run_variant(v, rule, lback).layers, ref_back.layers) << v.name;
      continue;
    }
    EXPECT_EQ(v.run(rule, o).depth, ref.depth) << v.name;
    EXPECT_EQ(v.run(rule, back).depth, ref_back.depth) << v.name;
  }
}

// The neighbour ranks from the rank alone (MoveRanks::Scanner: rotate one way and both
// ways, adjswap) against the reference and against the same variant with every state
// unranked (rank_scan off), toward the goal and forward from two sources, 1 and 2 threads.
TEST(BfsTest, RankScannerAgreesWithReferenceAndUnrankedStates) {
  for (const AnyRule& rule : {make_rule("rotate", 3, 3), make_rule("rotate", 2, 4), make_rule("adjswap", 2, 4)}) {
    AnyRule both = rule;
    if (rule_name(rule) == "rotate") {
      RuleOptions ro;
      ro.directions = "both";
      both = make_rule("rotate", rule_grid(rule).rows, rule_grid(rule).cols, ro);
    }
    for (const AnyRule* r : {&rule, static_cast<const AnyRule*>(&both)}) {
      for (bool forward : {false, true}) {
        BfsOptions o;
        o.want_depths = true;
        o.forward = forward;
        if (forward) {
          o.sources.clear();
          std::visit([&](const auto& x) { o.sources = {x.unrank(1), x.unrank(x.size() / 2)}; }, *r);
        }
        const BfsResult ref = find_variant("reference").run(*r, o);
        for (std::string_view variant : {"topdown", "bottomup", "hybrid", "twobit"})
          for (int threads : {1, 2}) {
            tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
            BfsOptions unscanned = o;
            unscanned.rank_scan = false;
            const std::string label = std::string(variant) + " " + std::string(rule_name(*r)) + " " +
                                      rule_grid(*r).label() + (forward ? " forward" : "");
            EXPECT_EQ(find_variant(variant).run(*r, o).depth, ref.depth) << label << " " << threads;
            EXPECT_EQ(find_variant(variant).run(*r, unscanned).depth, ref.depth) << label << " " << threads;
          }
      }
    }
  }
}

TEST(BfsTest, EightPuzzleFromItsGoal) {
  const BfsResult r = run("serial", make_rule("sliding", 3, 3), false);
  EXPECT_EQ(r.reached(), 181440u);
  EXPECT_EQ(r.max_depth(), 31);
  EXPECT_EQ(r.layers.back(), 2u);
}

TEST(BfsTest, SmallSlidingRadii) {
  const BfsResult a = run("serial", make_rule("sliding", 2, 3), false);
  EXPECT_EQ(a.reached(), 360u);
  EXPECT_EQ(a.max_depth(), 21);
  const BfsResult b = run("serial", make_rule("sliding", 2, 4), false);
  EXPECT_EQ(b.reached(), 20160u);
  EXPECT_EQ(b.max_depth(), 36);
}

TEST(BfsTest, SeedSamples) {
  const AnyRule rotate = make_rule("rotate");
  const BfsResult rr = run("serial", rotate);
  EXPECT_EQ(rr.reached(), 362880u);
  EXPECT_EQ(depth_of(rotate, rr, "1 2 3/4 5 6/7 8 9"), 0);
  EXPECT_EQ(depth_of(rotate, rr, "1 5 2/4 6 3/7 8 9"), 3);

  const AnyRule prime = make_rule("primeswap");
  const BfsResult pr = run("serial", prime);
  EXPECT_EQ(depth_of(prime, pr, "7 3 2/4 1 5/6 8 9"), 6);
  EXPECT_EQ(depth_of(prime, pr, "9 8 5/2 4 1/3 7 6"), -1);

  for (auto [start, moves] : std::vector<std::pair<std::string, int>>{{"* A/**B", 17}, {"A B/***", 12}}) {
    const AnyRule card = make_rule("cardswap", 2, 3, RuleOptions{start});
    const BfsResult cr = run("serial", card);
    EXPECT_EQ(depth_of(card, cr, start), moves) << start;
  }
}

TEST(BfsTest, VerifierCatchesACorruptTable) {
  const AnyRule rule = make_rule("sliding", 2, 3);
  BfsResult r = run("serial", rule);
  ASSERT_EQ(verify_bfs(rule, r), "");
  BfsResult moved = r;
  for (auto& d : moved.depth)
    if (d == 5) {
      d = 7;  // a state two levels too deep
      break;
    }
  EXPECT_NE(verify_bfs(rule, moved), "");
  BfsResult miscounted = r;
  miscounted.layers[3] += 1;
  EXPECT_NE(verify_bfs(rule, miscounted), "");
  BfsResult lost_goal = r;
  lost_goal.depth[std::get<Sliding>(rule).rank(std::get<Sliding>(rule).goals()[0])] = 1;
  EXPECT_NE(verify_bfs(rule, lost_goal), "");
}

TEST(BfsTest, UnknownVariantIsAnInputError) { EXPECT_THROW(find_variant("bogus"), InputError); }

}  // namespace
}  // namespace stategraph
