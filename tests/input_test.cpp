// Hostile input, everywhere it enters: one table of cases per parser. Each
// must be refused with InputError whose message is one line and names what (and, for
// query files, which query and line) went wrong, never a crash or an exception of
// another type. More cases: SolveInput.Malformed (solve_test.cpp), tests/cli_test.sh
// and tests/cli_reliability_test.sh (exit codes of the binary), the fuzz targets.
#include <gtest/gtest.h>

#include "stategraph/bfs/memory.hpp"
#include "stategraph/solve/solve.hpp"

namespace stategraph {
namespace {

struct Case {
  const char* what;
  const char* rule;
  std::string input;
  std::vector<std::string> fragments;  // all must appear in the message
};

std::string one_line_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_FALSE(what.empty());
    return what;
  }
  ADD_FAILURE() << "no InputError";
  return "";
}

void expect_cases(const std::vector<Case>& cases, const std::function<void(const Case&)>& parse) {
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.what) + " (" + c.rule + ")");
    const std::string message = one_line_error([&] { parse(c); });
    for (const auto& f : c.fragments)
      EXPECT_NE(message.find(f), std::string::npos) << "'" << f << "' not in: " << message;
  }
}

const std::string kGrid = "1 2 3\n4 5 6\n7 8 9\n";

TEST(HostileInput, QueryFiles) {
  const std::vector<Case> cases = {
      {"empty input", "rotate", "", {"empty input"}},
      {"only blank lines", "sliding", "\n \t\n\r\n", {"empty input"}},
      {"empty cardswap input", "cardswap", "", {"empty input"}},
      {"truncated grid", "rotate", "1\n1 2 3\n4 5 6", {"query 1", "line 4", "2 of 3 rows"}},
      {"grid cut mid-row", "primeswap", "1\n1 2 3\n4 5", {"query 1", "line 3", "2 numbers"}},
      {"extra tokens on a row", "rotate", "1\n1 2 3 4\n5 6 7\n8 9 1\n", {"query 1", "line 2", "4 numbers"}},
      {"extra grid after T", "rotate", "1\n" + kGrid + kGrid, {"line 5", "extra input"}},
      {"T = 0 with a grid", "rotate", "0\n" + kGrid, {"line 2", "extra input"}},
      {"repeated tile", "primeswap", "1\n1 2 3\n4 5 6\n7 8 8\n", {"query 1", "line 4", "8 appears twice"}},
      {"repeated blank", "sliding", "1\n1 2 3\n4 5 6\n7 0 _\n", {"query 1", "two blanks"}},
      {"tile out of range", "sliding", "1\n1 2 3\n4 5 6\n7 8 10\n", {"query 1", "line 4", "10 out of range"}},
      {"tile 0 in a 1..n rule", "rotate", "1\n0 2 3\n4 5 6\n7 8 9\n", {"query 1", "line 2", "0 out of range"}},
      {"20-digit tile", "rotate", "1\n1 2 3\n4 5 6\n7 8 99999999999999999999\n", {"query 1", "line 4", "out of range"}},
      {"T larger than the grids given", "rotate", "3\n" + kGrid + kGrid, {"query 3", "2 of T = 3"}},
      {"huge T, one grid", "rotate", "999999999\n" + kGrid, {"query 2", "1 of T = 999999999"}},
      {"T beyond 9 digits", "rotate", "99999999999\n" + kGrid, {"line 1", "number of queries"}},
      {"negative T", "rotate", "-1\n", {"line 1", "-1"}},
      {"negative T, cardswap", "cardswap", "-3\n* A\n**B\n", {"line 1", "-3"}},
      {"T with a sign", "rotate", "+1\n" + kGrid, {"line 1"}},
      {"T as a float", "rotate", "1.0\n" + kGrid, {"line 1"}},
      {"two numbers for T", "rotate", "1 1\n" + kGrid, {"line 1"}},
      {"non-ASCII bytes (UTF-8)", "rotate", "1\n1 2 3\n4 5 \xc3\xa9\n7 8 9\n", {"query 1", "line 3", "\\xc3"}},
      {"a NUL byte", "rotate", std::string("1\n1 2 3\n4 5 6\n7 8 9\0", 20), {"query 1", "line 4", "\\x00"}},
      {"non-ASCII in a board",
       "cardswap",
       "* A\n*\xff"
       "B\n",
       {"query 1", "lines 1-2"}},
      {"bare CR line ends", "rotate", "1\r1 2 3\r4 5 6\r7 8 9\r", {"line 1"}},
      {"17 numbers on one line (3x3)",
       "rotate",
       "1\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",
       {"query 1", "17 numbers"}},
      {"a 4-cell row in a 3-wide board", "cardswap", "* A*\n**B\n", {"query 1", "4 characters"}},
      {"letters for numbers", "rotate", "1\na b c\nd e f\ng h i\n", {"query 1", "line 2", "'a'"}},
  };
  expect_cases(cases, [](const Case& c) { parse_queries(make_solve_rule(c.rule), c.input, false); });
}

TEST(HostileInput, CrlfIsAcceptedEverywhere) {
  const AnyRule rule = make_solve_rule("rotate");
  EXPECT_EQ(parse_queries(rule, "1\r\n1 5 2\r\n4 6 3\r\n7 8 9\r\n", false).size(), 1u);
  EXPECT_EQ(parse_state(rule, "1 5 2\r\n4 6 3\r\n7 8 9\r\n"), parse_state(rule, "152463789"));
  const AnyRule card = make_solve_rule("cardswap");
  EXPECT_EQ(parse_queries(card, "1\r\n* A\r\n**B\r\n", false).size(), 1u);
}

TEST(HostileInput, StateStrings) {
  const std::vector<Case> cases = {
      {"empty", "rotate", "", {"--state ''", "0 cells, expected 9"}},
      {"blanks only", "sliding", "   ", {"0 cells"}},
      {"too few digits", "rotate", "12345678", {"1 cells, expected 9"}},
      {"too many cells", "rotate", "1 2 3 4 5 6 7 8 9 10", {"10 cells"}},
      {"17 cells on a 16-cell rule", "sliding", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0 16", {"17 cells"}},
      {"repeated tile", "primeswap", "1 2 3/4 5 6/7 8 8", {"8 appears twice"}},
      {"out of range", "rotate", "1 2 3/4 5 6/7 8 999", {"999 out of range"}},
      {"non-ASCII", "rotate", "1 2 3/4 5 6/7 8 \xe2\x82\xac", {"\\xe2"}},
      {"underscore in a permutation rule", "rotate", "1 2 3/4 5 6/7 8 _", {"--state"}},
      {"glued underscore", "sliding", "1 2 3/4 5 6/7 8_", {"8 cells"}},
      {"glued underscore, 9 cells", "sliding", "1 2 3/4 5 6/7 8_ 0", {"bad cell '8_'"}},
      {"negative number", "rotate", "-1 2 3/4 5 6/7 8 9", {"'-'"}},
      {"cardswap wrong letter", "cardswap", "* C/**B", {"'C'"}},
      {"cardswap two A", "cardswap", "*AA/**B", {"exactly one A"}},
      {"cardswap non-ASCII", "cardswap", "* \xc3\x84/**B", {"--state"}},
  };
  expect_cases(cases, [](const Case& c) { parse_state(make_solve_rule(c.rule), c.input); });
}

TEST(HostileInput, GridSizes) {
  // 1xn, 17 cells, spaces beyond 64-bit ranks (25! > 2^64), and products that would
  // overflow an int (65536 * 65536 = 2^32 wrapped to 0 before the check was fixed).
  const std::vector<std::pair<int, int>> bad = {
      {1, 9}, {9, 1}, {1, 17}, {17, 1},        {1, 1},         {-3, 3},         {3, -3},
      {4, 5}, {5, 5}, {2, 9},  {65536, 65536}, {46341, 46341}, {2147483647, 2}, {-65536, -65536}};
  for (const auto& [r, c] : bad) {
    SCOPED_TRACE(std::to_string(r) + "x" + std::to_string(c));
    for (const auto& info : rule_table()) {
      const std::string message = one_line_error([&] { make_solve_rule(info.name, r, c); });
      EXPECT_NE(message.find("not supported"), std::string::npos) << message;
    }
  }
  // The largest allowed spaces still rank into 64 bits: 16! = 20,922,789,888,000.
  EXPECT_EQ(rule_size(make_solve_rule("rotate", 4, 4)), 20922789888000ull);
  EXPECT_EQ(rule_size(make_solve_rule("sliding", 2, 8)), 20922789888000ull / 2);
}

// Regression: "." and ".K" made std::stod throw std::invalid_argument, a 400-digit
// count std::out_of_range (both exit 1 instead of 2). Found by this table.
TEST(HostileInput, ByteCounts) {
  for (const char* text :
       {"", "-5", "abc", "1e3", "0", "0.1", ".", "1..2", "5X", "5 M", "99999999999999999999999T", "9223372036854775808",
        "1.5.G", ".K",
        "1111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111"
        "1111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111"
        "1111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111"
        "1111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111",
        "inf", "nan", "\xc3\xa9", "8E"}) {
    SCOPED_TRACE(std::string("'") + text + "'");
    const std::string message = one_line_error([&] { parse_bytes(text); });
    EXPECT_NE(message.find("byte count"), std::string::npos) << message;
  }
  EXPECT_EQ(parse_bytes("1.5K"), 1536u);
  EXPECT_EQ(parse_bytes("2GiB"), 2ull << 30);
  EXPECT_EQ(parse_bytes("4096"), 4096u);
}

TEST(HostileInput, UnknownNames) {
  EXPECT_NE(one_line_error([] { make_solve_rule("Sliding"); }).find("unknown rule"), std::string::npos);
  EXPECT_NE(one_line_error([] { make_solve_rule(std::string("rot\0ate", 7)); }).find("unknown rule"),
            std::string::npos);
  EXPECT_NE(one_line_error([] { find_variant("HYBRID"); }).find("unknown BFS variant"), std::string::npos);
  EXPECT_NE(one_line_error([] { parse_encoding("mod4"); }).find("unknown table encoding"), std::string::npos);
}

// Regression (fuzz_parse_state, fuzz_cli_numbers, first 20 s runs): messages echoed the
// user's text raw, so a newline inside --state, --max-memory, --variant, --rule or
// --encoding split the "one line" error. Echoed text is now escaped (shown_input).
TEST(HostileInput, EchoedTextStaysOnOneLine) {
  const std::string nl = std::string("1\n2\r3\0", 6);
  EXPECT_NE(
      one_line_error([&] { parse_state(make_solve_rule("rotate"), std::string("\n\x01\0`789", 7)); }).find("\\x0a"),
      std::string::npos);
  EXPECT_NE(one_line_error([&] { parse_bytes(nl); }).find("1\\x0a2\\x0d3\\x00"), std::string::npos);
  one_line_error([&] { find_variant(nl); });
  one_line_error([&] { make_solve_rule(nl); });
  one_line_error([&] { parse_encoding(nl); });
  one_line_error([&] { parse_queries(make_solve_rule("rotate"), "1\n" + kGrid + "x\ry\n", false); });
  EXPECT_EQ(shown_input(std::string(100, 'a')).size(), 63u);  // cut at 60 + "..."
}

}  // namespace
}  // namespace stategraph
