#include "stategraph/analysis/compare.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <set>

#include "stategraph/analysis/graph.hpp"
#include "stategraph/io/tables.hpp"

namespace stategraph {
namespace {

CompareOptions options_for(std::vector<std::string> names, std::vector<int> threads, int repeat) {
  CompareOptions o;
  for (const auto& n : names) o.variants.push_back(find_variant(n));
  o.threads = std::move(threads);
  o.repeat = repeat;
  return o;
}

TEST(CompareTest, Median) {
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(median({7}), 7);
  EXPECT_THROW(median({}), std::logic_error);
}

TEST(CompareTest, LayersMismatchNamesTheFirstDepth) {
  EXPECT_EQ(layers_mismatch({1, 2, 3}, {1, 2, 3}), "");
  EXPECT_NE(layers_mismatch({1, 2, 3}, {1, 2, 4}).find("depth 2: 4 states, expected 3"), std::string::npos);
  EXPECT_NE(layers_mismatch({1, 2, 3}, {1, 2}).find("depth 2"), std::string::npos);
  EXPECT_NE(layers_mismatch({1, 2}, {1, 2, 1}).find("depth 2"), std::string::npos);
}

// Every run's layers equal a separate reference BFS; every cell ran `repeat` times,
// interleaved (repeat r starts one variant later); moves examined cross-checked.
TEST(CompareTest, RunsEveryCombinationInterleavedAndAgreesWithReference) {
  for (const AnyRule& rule : {make_rule("sliding", 2, 3), make_rule("rotate", 2, 4), make_rule("primeswap", 2, 3)}) {
    const std::string label = std::string(rule_name(rule)) + " " + rule_grid(rule).label();
    const CompareReport r = run_compare(rule, options_for({"hybrid", "serial", "reference"}, {2, 1}, 2));
    BfsOptions with_depths;
    with_depths.want_depths = true;
    const BfsResult ref = find_variant("reference").run(rule, with_depths);
    EXPECT_EQ(r.layers, ref.layers) << label;
    EXPECT_EQ(r.threads, (std::vector<int>{1, 2})) << label;  // sorted
    ASSERT_EQ(r.runs.size(), 2u * 3 * 2) << label;
    std::map<std::pair<std::string, int>, int> count;
    for (const auto& run : r.runs) {
      ++count[{run.variant, run.threads}];
      EXPECT_EQ(run.result.layers, ref.layers) << label << " " << run.variant;
      EXPECT_GT(run.result.seconds, 0) << label;
    }
    for (const char* v : {"hybrid", "serial", "reference"})
      for (int t : {1, 2}) EXPECT_EQ((count[{v, t}]), 2) << label << " " << v << " " << t;
    EXPECT_EQ(r.runs[0].variant, "hybrid");
    EXPECT_EQ(r.runs[0].repeat, 1);
    EXPECT_EQ(r.runs[6].variant, "serial");  // repeat 2 starts with the second variant
    EXPECT_EQ(r.runs[6].repeat, 2);
    EXPECT_EQ(r.warmup_variant, "hybrid");
    EXPECT_EQ(r.warmup_threads, 2);
    // Moves examined: one per predecessor of every reached state. Undirected rules:
    // twice the edges of the graph analysis (counted along successors there); rotate:
    // every 2x2 block turns back to any state, so (rows-1)(cols-1) per state.
    const Grid g = rule_grid(rule);
    if (rule_name(rule) == "rotate")
      EXPECT_EQ(r.edges, ref.reached() * static_cast<std::uint64_t>((g.rows - 1) * (g.cols - 1))) << label;
    else
      EXPECT_EQ(r.edges, 2 * reached_edges(rule, ref)) << label;
  }
}

// A variant that is right in the warm-up but wrong later must be caught: the check
// covers every run, not only the first.
std::atomic<int> flaky_calls{0};
BfsResult flaky_run(const AnyRule& rule, const BfsOptions& o) {
  BfsResult r = find_variant("topdown").run(rule, o);
  if (flaky_calls.fetch_add(1) == 2) r.layers.back() += 1;  // the third call is wrong
  return r;
}
BfsResult short_run(const AnyRule& rule, const BfsOptions& o) {
  BfsResult r = find_variant("serial").run(rule, o);
  r.layers.pop_back();
  return r;
}

TEST(CompareTest, MismatchIsAnError) {
  const AnyRule rule = make_rule("sliding", 2, 3);
  CompareOptions o = options_for({"hybrid"}, {1}, 3);
  o.variants.push_back({"broken", "drops the last layer", short_run, find_variant("serial").bytes_needed});
  try {
    run_compare(rule, o);
    FAIL() << "no mismatch reported";
  } catch (const CompareMismatch& e) {
    EXPECT_NE(std::string(e.what()).find("broken, 1 thread, repeat 1"), std::string::npos) << e.what();
  }
  flaky_calls = 0;
  CompareOptions f = options_for({}, {1}, 5);
  f.variants.push_back({"flaky", "wrong on its third run", flaky_run, find_variant("topdown").bytes_needed});
  try {
    run_compare(rule, f);  // call 1 = warm-up, 2 = repeat 1, 3 = repeat 2
    FAIL() << "no mismatch reported";
  } catch (const CompareMismatch& e) {
    EXPECT_NE(std::string(e.what()).find("flaky, 1 thread, repeat 2"), std::string::npos) << e.what();
  }
}

TEST(CompareTest, ReferenceIsSkippedWhenItDoesNotFitOthersAreErrors) {
  const AnyRule rule = make_rule("rotate", 3, 3);
  CompareOptions o = options_for({"reference", "hybrid"}, {1}, 1);
  const std::uint64_t ref_need = find_variant("reference").bytes_needed(rule, BfsOptions{});
  const std::uint64_t hybrid_need = find_variant("hybrid").bytes_needed(rule, BfsOptions{});
  ASSERT_LT(hybrid_need + rule_size(rule), ref_need);
  o.memory_limit = ref_need - 1;
  const CompareReport r = run_compare(rule, o);
  EXPECT_EQ(r.variants, std::vector<std::string>{"hybrid"});
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("reference skipped"), std::string::npos);
  for (const auto& run : r.runs) EXPECT_EQ(run.variant, "hybrid");
  o.memory_limit = hybrid_need - 1;
  EXPECT_THROW(run_compare(rule, o), InputError);
  // Without room for the depth table the edges are not counted, and nothing fails.
  o.memory_limit = hybrid_need + rule_size(rule) - 1;
  o.variants = {find_variant("hybrid")};
  EXPECT_EQ(run_compare(rule, o).edges, 0u);
}

TEST(CompareTest, BadOptionsAreInputErrors) {
  const AnyRule rule = make_rule("rotate", 2, 3);
  EXPECT_THROW(run_compare(rule, options_for({}, {1}, 1)), InputError);
  EXPECT_THROW(run_compare(rule, options_for({"hybrid"}, {}, 1)), InputError);
  EXPECT_THROW(run_compare(rule, options_for({"hybrid"}, {1}, 0)), InputError);
}

// The summary's arithmetic on a hand-made report.
TEST(CompareTest, SummaryMediansSpeedupsAndFastest) {
  CompareReport r;
  r.rule = "rotate";
  r.rows = r.cols = 3;
  r.space_size = 100;
  r.variants = {"serial", "hybrid"};
  r.threads = {1, 2};
  r.repeat = 3;
  auto add = [&](std::string v, int t, std::vector<double> secs) {
    int rep = 0;
    for (double s : secs) {
      BfsResult b;
      b.layers = {1, 99};
      b.seconds = s;
      b.peak_bytes = 50;
      r.runs.push_back({v, t, ++rep, b});
    }
  };
  add("serial", 1, {4, 2, 3});
  add("serial", 2, {3, 3, 3});
  add("hybrid", 1, {2, 1, 1.5});
  add("hybrid", 2, {1, 0.5, 0.75});
  const CompareSummary s = summarize_compare(r);
  ASSERT_EQ(s.cells.size(), 4u);
  EXPECT_EQ(s.base_threads, 1);
  const CompareCell& h2 = s.cells[3];
  EXPECT_EQ(h2.variant, "hybrid");
  EXPECT_EQ(h2.threads, 2);
  EXPECT_EQ(h2.median_seconds, 0.75);
  EXPECT_EQ(h2.min_seconds, 0.5);
  EXPECT_EQ(h2.max_seconds, 1);
  EXPECT_DOUBLE_EQ(*h2.speedup_vs_serial, 3 / 0.75);
  EXPECT_DOUBLE_EQ(*h2.speedup_vs_base_threads, 1.5 / 0.75);
  EXPECT_DOUBLE_EQ(h2.median_states_per_s, 100 / 0.75);
  EXPECT_EQ(s.fastest, 3u);
  EXPECT_DOUBLE_EQ(*s.cells[1].speedup_vs_serial, 1.0);  // serial at 2 threads, median 3 vs 3

  const CsvTable t = compare_table(r);
  EXPECT_EQ(t.str().substr(0, t.str().find('\n')),
            "rule,rows,cols,variant,threads,repeat,seconds,states_per_s,edges_per_s,peak_bytes,bits_per_state");
  ASSERT_EQ(t.rows().size(), 12u);
  EXPECT_EQ(t.rows()[0][9], "50");
  EXPECT_EQ(t.rows()[0][10], "4");  // 50 bytes * 8 / 100 ranks
  EXPECT_EQ(t.rows()[0][8], "");    // edges not counted
  const std::string summary_csv = compare_summary_table(r, s).str();
  EXPECT_EQ(summary_csv.substr(0, summary_csv.find('\n')),
            "rule,rows,cols,variant,threads,runs,median_seconds,min_seconds,max_seconds,median_states_per_s,"
            "speedup_vs_serial,speedup_vs_base_threads,base_threads");
}

TEST(CompareTest, LevelsTableHasARowPerLevelOfEveryRun) {
  const AnyRule rule = make_rule("sliding", 2, 3);
  const CompareReport r = run_compare(rule, options_for({"hybrid", "twobit"}, {1}, 2));
  const CsvTable t = compare_levels_table(r);
  std::size_t levels = 0;
  for (const auto& run : r.runs) levels += run.result.levels.size();
  ASSERT_EQ(t.rows().size(), levels);
  EXPECT_EQ(t.str().substr(0, t.str().find('\n')), "rule,rows,cols,variant,threads,repeat,depth,direction,seconds");
  std::set<std::string> directions;
  for (const auto& row : t.rows()) directions.insert(row[7]);
  for (const auto& d : directions) EXPECT_TRUE(d == "topdown" || d == "bottomup" || d == "scan") << d;
}

}  // namespace
}  // namespace stategraph
