// solve: depths against the BFS for every state, paths checked move by move, counts
// against a brute-force enumeration, table files, and malformed input.
#include "stategraph/solve/solve.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "stategraph/bfs/bfs.hpp"

namespace stategraph {
namespace {

// The oracle: the serial BFS's depth table (what analyze reports), per query state. For
// cardswap the goal depends on the state, so it runs a BFS with that state as start.
struct Oracle {
  AnyRule rule;
  std::vector<std::uint8_t> depth;  // non-cardswap
  explicit Oracle(const AnyRule& r) : rule(r) {
    if (!std::holds_alternative<CardSwap>(r)) {
      BfsOptions o;
      o.want_depths = true;
      depth = find_variant("serial").run(r, o).depth;
    }
  }
  // The BFS depth table whose goal is s's goal (cached per cardswap A/B placement).
  const std::vector<std::uint8_t>& table_for(State s) const {
    if (const auto* c = std::get_if<CardSwap>(&rule)) {
      auto& d = per_section[section_of(*c, s)];
      if (d.empty()) {
        BfsOptions o;
        o.want_depths = true;
        d = find_variant("serial").run(AnyRule(CardSwap(c->grid(), c->format(s))), o).depth;
      }
      return d;
    }
    return depth;
  }
  mutable std::map<std::uint64_t, std::vector<std::uint8_t>> per_section;
};

int oracle_depth(const AnyRule& rule, const std::vector<std::uint8_t>& d, State s) {
  return std::visit(
      [&](const auto& r) {
        if (!in_goal_class(rule, s)) return -1;
        const std::uint8_t x = d[r.rank(s)];
        return x == kUnreached ? -1 : static_cast<int>(x);
      },
      rule);
}

std::vector<DepthEncoding> encodings_for(const AnyRule& rule) {
  std::vector<DepthEncoding> out;
  for (DepthEncoding e : {DepthEncoding::kByte, DepthEncoding::kNibble, DepthEncoding::kMod3})
    if (encoding_problem(rule, e).empty()) out.push_back(e);
  return out;
}

// The board of rank k in the goal's class (Sliding::unrank gives the partner class
// for an even number of cells; exchanging tiles n-2 and n-1 keeps the rank).
State unrank_any(const AnyRule& rule, std::uint64_t k) {
  State s = std::visit([&](const auto& r) { return r.unrank(k); }, rule);
  if (const auto* r = std::get_if<Sliding>(&rule); r && !in_goal_class(rule, s)) {
    const int n = r->cells();
    s = swap_cells(s, find_cell(s, n, static_cast<unsigned>(n - 2)), find_cell(s, n, static_cast<unsigned>(n - 1)));
  }
  return s;
}

// Every state, every legal encoding: depth_of equals the BFS's depth; paths (for a
// stride of states) are legal move by move, end at a goal and have the optimal length.
void check_rule(const AnyRule& rule, std::uint64_t path_stride) {
  const Oracle oracle(rule);
  const std::uint64_t n = rule_size(rule);
  for (DepthEncoding e : encodings_for(rule)) {
    SCOPED_TRACE(std::string(rule_name(rule)) + " " + std::string(encoding_name(e)));
    const DepthTable table = build_depth_table(rule, e);
    for (std::uint64_t k = 0; k < n; ++k) {
      const State s = unrank_any(rule, k);
      const std::vector<std::uint8_t>& d = oracle.table_for(s);
      const int want = oracle_depth(rule, d, s);
      ASSERT_EQ(depth_of(rule, table, s), want) << "rank " << k;
      if (k % path_stride != 0) continue;
      const std::vector<PathStep> path = optimal_path(rule, table, s);
      ASSERT_EQ(static_cast<int>(path.size()), std::max(want, 0)) << "rank " << k;
      State at = s;
      for (const PathStep& step : path) {
        bool legal = false;
        std::visit(
            [&](const auto& r) {
              r.for_each_move(at, [&](const auto& label, State t) {
                if (t == step.board && label() == step.move) legal = true;
              });
            },
            rule);
        ASSERT_TRUE(legal) << "rank " << k << ": move " << step.move << " is not legal";
        at = step.board;
      }
      if (want >= 0) ASSERT_EQ(oracle_depth(rule, d, at), 0) << "rank " << k << ": path does not end at a goal";
    }
  }
}

TEST(Solve, SlidingAllStates) { check_rule(make_solve_rule("sliding"), 7); }
TEST(Solve, RotateAllStates) { check_rule(make_solve_rule("rotate"), 11); }
TEST(Solve, PrimeSwapAllStates) { check_rule(make_solve_rule("primeswap"), 11); }
TEST(Solve, CardSwapAllStates) { check_rule(make_solve_rule("cardswap"), 1); }
TEST(Solve, SlidingOtherParityIsUnreachable) {
  const AnyRule rule = make_solve_rule("sliding");
  const DepthTable table = build_depth_table(rule, DepthEncoding::kByte);
  const State s = parse_state(rule, "2 1 3 4 5 6 7 8 0");
  EXPECT_EQ(depth_of(rule, table, s), -1);
  EXPECT_EQ(count_optimal_paths(rule, table, s), PathCount{0});
  EXPECT_TRUE(optimal_path(rule, table, s).empty());
}

TEST(Solve, SlidingEvenCellCounts) {
  for (const auto& [rows, cols] : {std::pair{2, 3}, std::pair{2, 4}}) {
    const AnyRule rule = make_solve_rule("sliding", rows, cols);
    const int n = rows * cols;
    const State goal = std::get<Sliding>(rule).goals()[0];
    for (DepthEncoding e : {DepthEncoding::kByte, DepthEncoding::kMod3}) {
      const DepthTable table = build_depth_table(rule, e);
      EXPECT_EQ(depth_of(rule, table, goal), 0);
      EXPECT_EQ(depth_of(rule, table, swap_cells(goal, n - 1, n - 2)), 1);
      EXPECT_EQ(depth_of(rule, table, swap_cells(goal, 0, 1)), -1);  // two tiles exchanged
    }
  }
  check_rule(make_solve_rule("sliding", 2, 4), 5);
}

// Brute force: enumerate every depth-decreasing move sequence (no memoisation).
std::uint64_t brute_count(const AnyRule& rule, const std::vector<std::uint8_t>& d, State s) {
  const int here = oracle_depth(rule, d, s);
  if (here < 0) return 0;
  if (here == 0) return 1;
  std::uint64_t total = 0;
  std::visit(
      [&](const auto& r) {
        r.for_each_successor(s, [&](State t) {
          if (oracle_depth(rule, d, t) == here - 1) total += brute_count(rule, d, t);
        });
      },
      rule);
  return total;
}

void check_counts(const AnyRule& rule, std::uint64_t stride, int max_depth) {
  const Oracle oracle(rule);
  std::vector<DepthTable> tables;
  for (DepthEncoding e : encodings_for(rule)) tables.push_back(build_depth_table(rule, e));
  int checked = 0;
  for (std::uint64_t k = 0; k < rule_size(rule); k += stride) {
    const State s = unrank_any(rule, k);
    const std::vector<std::uint8_t>& d = oracle.table_for(s);
    if (oracle_depth(rule, d, s) > max_depth) continue;
    const std::uint64_t want = brute_count(rule, d, s);
    for (const DepthTable& t : tables)
      ASSERT_EQ(static_cast<std::uint64_t>(count_optimal_paths(rule, t, s)), want)
          << rule_name(rule) << " rank " << k << " encoding " << encoding_name(t.encoding());
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST(SolveCount, Sliding2x3AllStates) { check_counts(make_solve_rule("sliding", 2, 3), 1, 99); }
TEST(SolveCount, Rotate2x3AllStates) { check_counts(make_solve_rule("rotate", 2, 3), 1, 99); }
TEST(SolveCount, Rotate3x3Sample) { check_counts(make_solve_rule("rotate"), 101, 8); }
TEST(SolveCount, PrimeSwap2x3AllStates) { check_counts(make_solve_rule("primeswap", 2, 3), 1, 99); }
TEST(SolveCount, PrimeSwap3x3Sample) { check_counts(make_solve_rule("primeswap"), 211, 9); }
TEST(SolveCount, CardSwap2x3AllStates) { check_counts(make_solve_rule("cardswap"), 1, 99); }
TEST(SolveCount, EightPuzzleReadmeExample) {
  const AnyRule rule = make_solve_rule("sliding");
  const DepthTable table = build_depth_table(rule, DepthEncoding::kByte);
  const State s = parse_state(rule, "6 3 8 1 4 5 2 7 9");
  EXPECT_EQ(depth_of(rule, table, s), 20);
  EXPECT_EQ(format_count(count_optimal_paths(rule, table, s)), "2");
}
TEST(SolveCount, FormatCount) {
  EXPECT_EQ(format_count(0), "0");
  EXPECT_EQ(format_count(PathCount{1} << 100), "1267650600228229401496703205376");
  EXPECT_EQ(format_count(kCountSaturated), ">=340282366920938463463374607431768211455");
}

// ---- Samples through solve_input -------------------------------------------------------

std::string solve(const std::string& rule_name, const std::string& input, bool keep_going = false) {
  const AnyRule rule = make_solve_rule(rule_name);
  const DepthTable table = build_depth_table(rule, default_encoding(rule));
  return solve_input(rule, table, input, AnswerOptions{}, keep_going).out;
}

TEST(SolveInput, Samples) {
  EXPECT_EQ(solve("rotate", "2\n1 2 3\n4 5 6\n7 8 9\n1 5 2\n4 6 3\n7 8 9\n"), "0\n3\n");
  EXPECT_EQ(solve("primeswap", "2\n7 3 2\n4 1 5\n6 8 9\n\n9 8 5\n2 4 1\n3 7 6\n"), "6\n-1\n");
  EXPECT_EQ(solve("cardswap", "* A\n**B\n"), "17\n");
  EXPECT_EQ(solve("cardswap", "A B\n***\n"), "12\n");
  EXPECT_EQ(solve("cardswap", "2\n* A\n**B\n\nA B\n***"), "17\n12\n");
  EXPECT_EQ(solve("sliding", "2\n1 2 3\n4 5 6\n7 8 0\n1 2 3\n4 5 6\n7 8 9\n"), "0\n0\n");
}

TEST(SolveInput, CrlfAndTrailingSpaces) {
  EXPECT_EQ(solve("rotate", "2\r\n1 2 3\r\n4 5 6\r\n7 8 9\r\n\r\n1 5 2\r\n4 6 3\r\n7 8 9\r\n"), "0\n3\n");
  EXPECT_EQ(solve("cardswap", "* A\r\n**B\r\n"), "17\n");
  // A dropped trailing space is a blank at the end of the row; extra spaces are ignored.
  EXPECT_EQ(solve("cardswap", "AB\n***\n"), solve("cardswap", "AB \n***\n"));
  EXPECT_EQ(solve("cardswap", "A B   \n***\n"), "12\n");
}

TEST(SolveInput, OneLineAndDigitGrids) {
  EXPECT_EQ(solve("rotate", "3\n1 5 2 4 6 3 7 8 9\n152463789\n1,5,2/4,6,3/7,8,9\n"), "3\n3\n3\n");
}

// Expects InputError whose message contains every fragment.
void expect_error(const std::string& rule_name, const std::string& input, std::vector<std::string> fragments) {
  const AnyRule rule = make_solve_rule(rule_name);
  try {
    parse_queries(rule, input, false);
    ADD_FAILURE() << "no error for input: " << input;
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    for (const auto& f : fragments) EXPECT_NE(what.find(f), std::string::npos) << "'" << f << "' not in: " << what;
  }
}

TEST(SolveInput, Malformed) {
  const std::string g = "1 2 3\n4 5 6\n7 8 9\n";
  expect_error("rotate", "", {"empty input"});
  expect_error("rotate", "\n  \n", {"empty input"});
  expect_error("rotate", "-2\n" + g, {"line 1", "-2"});
  expect_error("rotate", "two\n" + g, {"line 1"});
  expect_error("rotate", "1 2\n" + g, {"line 1"});
  expect_error("rotate", "1\n1 2 3\n4 5 6\n", {"query 1", "line 4", "2 of 3 rows"});
  expect_error("rotate", "2\n1 2 3\n4 5\n7 8 9\n" + g, {"query 1", "line 3", "2 numbers"});
  expect_error("rotate", "1\n1 2 3 4\n4 5 6\n7 8 9\n", {"query 1", "line 2", "4 numbers"});
  expect_error("rotate", "1\n" + g + "1 2 3\n", {"line 5", "extra input"});
  expect_error("rotate", "2\n" + g + "1 1 3\n4 5 6\n7 8 9\n", {"query 2", "line 5", "1 appears twice"});
  expect_error("rotate", "1\n1 2 3\n4 5 6\n7 8 10\n", {"query 1", "line 4", "10 out of range"});
  expect_error("rotate", "1\n1 2 3\n4 5 6\n7 8 0\n", {"query 1", "0 out of range"});
  expect_error("rotate", "1\n1 2 3\n4 x 6\n7 8 9\n", {"query 1", "line 3", "'x'"});
  expect_error("rotate", "3\n" + g + "\n" + g, {"query 3", "2 of T = 3"});
  expect_error("primeswap", "1\n1 2 3\n4 5 6\n7 8 _\n", {"query 1", "line 4"});
  expect_error("sliding", "1\n1 2 3\n4 5 6\n7 0 9\n", {"query 1", "two blanks"});
  expect_error("cardswap", "* C\n**B\n", {"query 1", "lines 1-2", "'C' is not a card"});
  expect_error("cardswap", "* A\n", {"query 1", "1 of 2 rows"});
  expect_error("cardswap", "*AA\n**B\n", {"query 1", "exactly one A"});
  expect_error("cardswap", "* A*\n**B\n", {"query 1", "4 characters"});
  expect_error("cardswap", "2\n* A\n**B\n", {"query 2", "1 of T = 2"});
  expect_error("cardswap", "1\n* A\n**B\nA B\n***\n", {"line 4", "extra input"});
}

TEST(SolveInput, KeepGoing) {
  const AnyRule rule = make_solve_rule("rotate");
  const DepthTable table = build_depth_table(rule, DepthEncoding::kByte);
  const BatchResult r = solve_input(
      rule, table, "4\n1 2 3\n4 5 6\n7 8 9\n\n1 2 2\n4 5 6\n7 8 9\n\n1 5 2\n4 6 3\n7 8 9\n\n1 2\n", {}, true);
  EXPECT_EQ(r.out, "0\nerror\n3\nerror\n");
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_NE(r.errors[0].find("query 2, line 6"), std::string::npos) << r.errors[0];
  EXPECT_NE(r.errors[1].find("query 4, line 14"), std::string::npos) << r.errors[1];
}

TEST(SolveInput, AnswerFormat) {
  const AnyRule rule = make_solve_rule("rotate");
  const DepthTable table = build_depth_table(rule, DepthEncoding::kByte);
  AnswerOptions o;
  o.path = o.count = o.boards = true;
  std::string out;
  append_answer(rule, table, parse_state(rule, "152463789"), o, out);
  EXPECT_EQ(out,
            "3 count=1 path=r1c2,r1c2,r1c2\n  0: 1 5 2/4 6 3/7 8 9\n  1 r1c2: 1 6 5/4 3 2/7 8 9\n"
            "  2 r1c2: 1 3 6/4 2 5/7 8 9\n  3 r1c2: 1 2 3/4 5 6/7 8 9\n");
}

// ---- Table files --------------------------------------------------------------------------

class TableFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("solve_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

void expect_load_error(const std::filesystem::path& p, const AnyRule& rule, const std::string& fragment) {
  try {
    load_depth_table(p, rule);
    ADD_FAILURE() << "table accepted, expected: " << fragment;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST_F(TableFile, RoundTripEveryEncoding) {
  for (const AnyRule& rule : {make_solve_rule("rotate"), make_solve_rule("sliding"), make_solve_rule("cardswap"),
                              make_solve_rule("primeswap", 2, 3)}) {
    for (DepthEncoding e : encodings_for(rule)) {
      SCOPED_TRACE(std::string(rule_name(rule)) + " " + std::string(encoding_name(e)));
      const DepthTable built = build_depth_table(rule, e);
      const auto path = dir_ / "t.sgdt";
      save_depth_table(path, rule, built);
      const TableFileInfo info = read_table_info(path);
      EXPECT_EQ(info.rule, rule_name(rule));
      EXPECT_EQ(info.encoding, e);
      const DepthTable loaded = load_depth_table(path, rule);
      ASSERT_EQ(loaded.data_bytes(), built.data_bytes());
      EXPECT_EQ(std::memcmp(loaded.data(), built.data(), built.data_bytes()), 0);
      for (std::uint64_t k = 0; k < rule_size(rule); k += 97) {
        const State s = unrank_any(rule, k);
        EXPECT_EQ(depth_of(rule, loaded, s), depth_of(rule, built, s));
      }
      for (const auto& entry : std::filesystem::directory_iterator(dir_))
        EXPECT_EQ(entry.path().filename(), "t.sgdt") << "left behind: " << entry.path();
    }
  }
}

TEST_F(TableFile, RefusesCorruptedOrMismatched) {
  const AnyRule rule = make_solve_rule("rotate");
  const auto path = dir_ / "rotate.sgdt";
  save_depth_table(path, rule, build_depth_table(rule, DepthEncoding::kNibble));
  expect_load_error(path, make_solve_rule("primeswap"), "built for rotate 3x3");
  expect_load_error(path, make_solve_rule("rotate", 2, 4), "built for rotate 3x3");
  {  // flip one data byte
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(128 + 1000);
    char c = 0;
    f.read(&c, 1);
    f.seekp(128 + 1000);
    c = static_cast<char>(c ^ 0x10);
    f.write(&c, 1);
  }
  expect_load_error(path, rule, "checksum mismatch");
  std::filesystem::resize_file(path, 4000);
  expect_load_error(path, rule, "truncated");
  std::ofstream(dir_ / "junk") << std::string(200, 'x');
  expect_load_error(dir_ / "junk", rule, "bad magic");
  expect_load_error(dir_ / "missing", rule, "cannot open");
}

// A table written by the stategraph of format version 1 (own header, own checksum) is
// refused by its version, in one line that says what to do.
TEST_F(TableFile, RefusesTheOlderFormat) {
  const std::filesystem::path old = std::filesystem::path(STATEGRAPH_SOURCE_DIR) / "tests/data/rotate_2x3_v1.sgdt";
  const std::string fragment = "format version 1, this build reads version 2: written by an older stategraph";
  try {
    read_table_info(old);
    ADD_FAILURE() << "an older table was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("stategraph table build"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
  expect_load_error(old, make_solve_rule("rotate", 2, 3), fragment);
  // The same table in the current format loads.
  const AnyRule rule = make_solve_rule("rotate", 2, 3);
  save_depth_table(dir_ / "new.sgdt", rule, build_depth_table(rule, DepthEncoding::kByte));
  EXPECT_EQ(read_table_info(dir_ / "new.sgdt").size, 720u);
}

TEST(SolveEncodings, Choice) {
  EXPECT_FALSE(encoding_problem(make_solve_rule("rotate"), DepthEncoding::kMod3).empty());
  EXPECT_TRUE(encoding_problem(make_solve_rule("rotate"), DepthEncoding::kNibble).empty());
  EXPECT_EQ(default_encoding(make_solve_rule("rotate")), DepthEncoding::kByte);
  EXPECT_EQ(default_encoding(make_solve_rule("sliding", 3, 4)), DepthEncoding::kMod3);
  EXPECT_EQ(default_encoding(make_solve_rule("rotate", 3, 4)), DepthEncoding::kNibble);
  EXPECT_THROW(build_depth_table(make_solve_rule("rotate"), DepthEncoding::kMod3), InputError);
  EXPECT_EQ(table_sections(make_solve_rule("cardswap")), 30u);
}

}  // namespace
}  // namespace stategraph
