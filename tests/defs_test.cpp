// Rules read from definition files and rotate with both directions:
// the parser's subset and its refusals, the metrics, multiset ranking, and every
// analysis cross-checked against the built-in rotate, the reference BFS and an
// independent brute force written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <set>

#include "defs_common.hpp"
#include "stategraph/analysis/analysis.hpp"
#include "stategraph/analysis/graph.hpp"
#include "stategraph/bfs/bfs.hpp"
#include "stategraph/io/tables.hpp"

namespace stategraph {
namespace {

using namespace defs_test;

// The message of the InputError that parsing `text` throws ("" when none).
std::string refusal(const std::string& text, const char* metric = "given") {
  try {
    parse_definition(text, "bad.tws", parse_metric(metric));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const std::string kHead = "Name t\nSet P 4 1\nSolved\nP\n1 2 3 4\nEnd\n";
const std::string kMoveA = "Move A\nP\n2 3 4 1\nEnd\n";

// ---- the format ----------------------------------------------------------------------

TEST(DefParse, ReadsTheShippedRotateFiles) {
  const Definition d = load_definition(kDefs + "rotate-3x3.tws", DefinedMetric::kGiven);
  EXPECT_EQ(d.name, "rotate3x3");
  EXPECT_EQ(d.n, 9);
  EXPECT_EQ(d.move_names, (std::vector<std::string>{"r1c1", "r1c2", "r2c1", "r2c2"}));
  EXPECT_EQ(d.moves[0], (std::vector<int>{3, 0, 2, 4, 1, 5, 6, 7, 8}));  // 4 1 3 5 2 6 7 8 9, 0-based
  const Definition b = load_definition(kDefs + "rotate-3x4-both.tws", DefinedMetric::kGiven);
  EXPECT_EQ(b.n, 12);
  EXPECT_EQ(b.moves.size(), 12u);
}

TEST(DefParse, AcceptsCommentsBlankLinesZeroOrientationsAndAnImplicitIdentity) {
  const std::string text =
      "# a comment\n\nName t   # trailing comment\r\nSet P 4 1\n\nSolved\nEnd\n"
      "Move A\nP\n2 3 4 1\n0 0 0 0\nEnd\n";
  const Definition d = parse_definition(text, "x.tws", DefinedMetric::kGiven);
  EXPECT_EQ(d.solved, (std::vector<int>{0, 1, 2, 3}));  // an empty Solved block is the identity
  EXPECT_EQ(d.moves.size(), 1u);
  // Without a Name line the file's stem names the rule.
  EXPECT_EQ(parse_definition("Set P 4 1\nSolved\nEnd\n" + kMoveA, "dir/my puzzle.tws", DefinedMetric::kGiven).name,
            "my_puzzle");
}

struct Bad {
  std::string text;
  std::string expect;  // a substring of the message, which starts "bad.tws:LINE: "
};

TEST(DefParse, RefusesOutsideTheSubsetNamingFileAndLine) {
  const std::vector<Bad> cases = {
      {"Name t\nSet P 4 3\nSolved\nEnd\n" + kMoveA, "bad.tws:2: orientation count 3"},
      {"Name t\nSet P 4 1\nSet Q 3 1\n", "bad.tws:3: a second Set"},
      {"Name t\nSet P 17 1\n", "bad.tws:2: 17 pieces: at most 16"},
      {"Name t\nSet P 1 1\n", "bad.tws:2: 1 pieces: at least 2"},
      {"Name t\nSet P x 1\n", "bad.tws:2: piece count 'x' is not a number"},
      {"Name t\nSet P 4\n", "bad.tws:2: expected 'Set NAME PIECES ORIENTATIONS'"},
      {kHead + "Move A\nP\n2 3 4 4\nEnd\n", "bad.tws:9: move 'A' is not a permutation: 4 appears twice"},
      {kHead + "Move A\nP\n2 3 4 5\nEnd\n", "bad.tws:9: move 'A' is not a permutation: 5 is outside 1..4"},
      {kHead + "Move A\nP\n2 3 4\nEnd\n", "bad.tws:9: move 'A': 3 numbers, expected 4"},
      {kHead + "Move A\nP\n2 3 x 1\nEnd\n", "bad.tws:9: move 'A': 'x' is not a piece number"},
      {kHead + "Move A\nP\n1 2 3 4\nEnd\n", "bad.tws:7: move 'A' is the identity"},
      {kHead + "Move A\nP\n2 3 4 1\n0 1 0 0\nEnd\n", "bad.tws:10: move 'A': orientation '1'"},
      {kHead + kMoveA + kMoveA, "bad.tws:11: move 'A' is defined twice"},
      {kHead + "Move A\nP\n2 3 4 1\n", "bad.tws:7: the move 'A' block has no End line"},
      {kHead + "Move A\nP\n2 3 4 1\nMove B\n", "bad.tws:10: the move 'A' block has no End line"},
      {kHead + "Move A\nQ\n2 3 4 1\nEnd\n", "bad.tws:8: expected the set name 'P' or End"},
      {"Name t\nSet P 4 1\n" + kMoveA, "bad.tws:3: Move before the Solved block"},
      {"Name t\nSet P 4 1\n", "bad.tws:3: no Solved block"},
      {kHead, "bad.tws:7: no Move blocks"},
      {"Name t\n", "bad.tws:2: no Set line"},
      {"Name t\nSet P 4 1\nSolved\nP\n1 3 3 4\nEnd\n" + kMoveA,
       "bad.tws:5: Solved: piece numbers must run 1..4 without gaps (2 is missing)"},
      {kHead + "Illegal\nEnd\n", "bad.tws:7: twsearch/ksolve keyword 'Illegal' is not supported"},
      {kHead + "Frobnicate 3\n", "bad.tws:7: unknown keyword 'Frobnicate'"},
      {kHead + "End\n", "bad.tws:7: End without a Solved or Move block"},
      {"Name a/b\n", "bad.tws:1: name 'a/b' may only use"},
      {"Set P 4 1\nName t\n", "bad.tws:2: Name must come before the Set line"},
      {kHead + "Move A,B\nP\n2 3 4 1\nEnd\n", "bad.tws:7: move name 'A,B' has a comma"},
  };
  for (const Bad& c : cases) {
    const std::string message = refusal(c.text);
    EXPECT_NE(message.find(c.expect), std::string::npos) << "got '" << message << "' for\n" << c.text;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;  // one line
  }
  // More than 64 moves after expansion (the BFS batch buffers hold 64): 17 distinct
  // 5-cycles are fine as given, 68 moves with all their powers.
  std::string many = "Name t\nSet P 16 1\nSolved\nEnd\n";
  for (int k = 0; k < 17; ++k) {
    const std::vector<int> cycle =
        k < 12 ? std::vector<int>{0, 1, 2, 3, 4 + k} : std::vector<int>{1, 2, 3, 4, 5 + k - 12};
    std::vector<int> p(16);
    for (int i = 0; i < 16; ++i) p[static_cast<std::size_t>(i)] = i;
    for (std::size_t j = 0; j < 5; ++j) p[static_cast<std::size_t>(cycle[j])] = cycle[(j + 1) % 5];
    many += std::string("Move M") + static_cast<char>('a' + k) + "\nP\n";  // Ma..Mq: no clash with generated Ma2

    for (int x : p) many += std::to_string(x + 1) + " ";
    many += "\nEnd\n";
  }
  EXPECT_EQ(refusal(many, "given"), "");
  EXPECT_NE(refusal(many, "powers").find("at most 64 are supported"), std::string::npos) << refusal(many, "powers");
}

TEST(DefParse, FileErrors) {
  EXPECT_THROW(load_definition(kDefs + "no-such-file.tws", DefinedMetric::kGiven), InputError);
  EXPECT_THROW(load_definition(kDefs, DefinedMetric::kGiven), InputError);  // a directory
  EXPECT_THROW(make_rule("file:"), InputError);
  EXPECT_THROW(parse_metric("quarter"), InputError);
  RuleOptions o;
  o.metric = "powers";
  EXPECT_THROW(make_rule("rotate", 3, 3, o), InputError);  // --metric is for defined rules
  RuleOptions d;
  d.directions = "both";
  EXPECT_THROW(make_rule("file:" + kDefs + "rotate-3x3.tws", 0, 0, d), InputError);
  EXPECT_THROW(make_rule("sliding", 3, 3, d), InputError);
  d.directions = "sideways";
  EXPECT_THROW(make_rule("rotate", 3, 3, d), InputError);
  EXPECT_THROW(defined("rotate-3x3.tws", nullptr, 2, 4), InputError);  // 8 != 9 positions
}

// ---- moves and metrics ----------------------------------------------------------------

TEST(DefMoves, MaskAndRotateTermsApplyThePermutation) {
  std::mt19937_64 rng(7);
  for (int n : {2, 5, 9, 12, 16}) {
    for (int trial = 0; trial < 50; ++trial) {
      std::vector<int> p(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) p[static_cast<std::size_t>(i)] = i;
      std::shuffle(p.begin(), p.end(), rng);
      const PermMove m = make_perm_move(p);
      State s = 0;
      for (int i = 0; i < n; ++i) s = set_cell(s, i, static_cast<unsigned>(rng() & 15));
      const State t = m.apply(s);
      for (int i = 0; i < n; ++i) ASSERT_EQ(get_cell(t, i), get_cell(s, p[static_cast<std::size_t>(i)]));
      for (int i = n; i < 16; ++i) ASSERT_EQ(get_cell(t, i), 0u);  // cells >= n stay zero
    }
  }
}

TEST(DefMoves, MetricsExpandWithTwsearchNames) {
  const auto given = std::get<DefinedRule>(defined("rotate-3x3.tws"));
  EXPECT_TRUE(given.directed());
  EXPECT_EQ(given.max_move_order(), 4);
  const auto inv = std::get<DefinedRule>(defined("rotate-3x3.tws", "inverses"));
  EXPECT_FALSE(inv.directed());
  EXPECT_EQ(inv.move_names(),
            (std::vector<std::string>{"r1c1", "r1c2", "r2c1", "r2c2", "r1c1'", "r1c2'", "r2c1'", "r2c2'"}));
  const auto pow = std::get<DefinedRule>(defined("rotate-3x3.tws", "htm"));
  EXPECT_EQ(pow.max_degree(), 12);
  EXPECT_EQ(pow.move_names()[4], "r1c12");
  EXPECT_EQ(pow.move_names()[5], "r1c1'");
  // A file that lists both directions is undirected as given; inverses adds nothing.
  const auto both = std::get<DefinedRule>(defined("rotate-3x3-both.tws"));
  EXPECT_FALSE(both.directed());
  EXPECT_EQ(std::get<DefinedRule>(defined("rotate-3x3-both.tws", "inverses")).max_degree(), 8);
  // Order 5 and 6 cycles: A A2 A2' A' and A A2 A3 A2' A'.
  const std::string five = "Set P 6 1\nSolved\nEnd\nMove A\nP\n2 3 4 5 1 6\nEnd\nMove B\nP\n2 3 4 5 6 1\nEnd\n";
  const Definition d = parse_definition(five, "x.tws", DefinedMetric::kPowers);
  EXPECT_EQ(d.move_names, (std::vector<std::string>{"A", "B", "A2", "A2'", "A'", "B2", "B3", "B2'", "B'"}));
  // An involution is its own inverse: nothing added.
  EXPECT_EQ(
      parse_definition("Set P 2 1\nSolved\nEnd\nMove S\nP\n2 1\nEnd\n", "x.tws", DefinedMetric::kPowers).moves.size(),
      1u);
  // The table identity: a hash of the expanded moves, different per metric.
  EXPECT_EQ(given.table_id().size(), 15u);
  EXPECT_EQ(given.table_id().rfind("def:", 0), 0u);
  EXPECT_NE(given.table_id(), inv.table_id());
  EXPECT_NE(inv.table_id(), both.table_id());  // other move names
  EXPECT_EQ(given.table_id(), std::get<DefinedRule>(defined("rotate-3x3.tws", nullptr, 3, 3)).table_id());
}

// ---- rotate 2xN with its cells numbered column by column ------------------------------

// rotate-2xN-columns.tws is the built-in rotate on 2xN with its cells relabelled (position
// 2c + r is grid cell (r, c)): the same goal and, move by move, the same successors.
State rows_from_columns(State s, int cols) {
  State t = 0;
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < 2; ++r) t = set_cell(t, r * cols + c, get_cell(s, 2 * c + r));
  return t;
}

TEST(DefRotateColumns, TheBuiltInsMovesOnRelabelledCells) {
  for (int cols = 3; cols <= 7; ++cols) {
    const std::string file = "rotate-2x" + std::to_string(cols) + "-columns.tws";
    const auto d = std::get<DefinedRule>(defined(file, nullptr, 2, cols));
    const Rotate r(Grid(2, cols), false);
    ASSERT_EQ(d.size(), r.size()) << file;
    ASSERT_TRUE(d.directed()) << file;
    ASSERT_EQ(d.max_degree(), r.max_degree()) << file;
    ASSERT_EQ(d.goals().size(), 1u);
    EXPECT_EQ(rows_from_columns(d.goals()[0], cols), r.goals()[0]) << file;
    std::mt19937_64 rng(static_cast<std::uint64_t>(cols));
    for (int k = 0; k < 2000; ++k) {
      const State s = d.unrank(rng() % d.size());
      std::vector<State> a, b;
      d.for_each_successor(s, [&](State t) { a.push_back(rows_from_columns(t, cols)); });
      r.for_each_successor(rows_from_columns(s, cols), [&](State t) { b.push_back(t); });
      ASSERT_EQ(a, b) << file;
      a.clear(), b.clear();
      d.for_each_predecessor(s, [&](State t) { a.push_back(rows_from_columns(t, cols)); });
      r.for_each_predecessor(rows_from_columns(s, cols), [&](State t) { b.push_back(t); });
      ASSERT_EQ(a, b) << file;
    }
  }
}

// The layers of the relabelled graph are the built-in's: the disk variant over odd
// segments on the definition against the built-in reference (2x4) and hybrid (2x5).
TEST(DefRotateColumns, SameLayersAsTheBuiltIn) {
  for (int cols : {4, 5}) {
    const AnyRule def = defined("rotate-2x" + std::to_string(cols) + "-columns.tws", nullptr, 2, cols);
    const AnyRule builtin = make_rule("rotate", 2, cols, RuleOptions{});
    const auto want = layers(builtin, cols == 4 ? "reference" : "hybrid");
    EXPECT_EQ(layers(def, "disk"), want) << "2x" << cols;
    EXPECT_EQ(layers(def, "twobit"), want) << "2x" << cols;
  }
}

// ---- the defined rotate against the built-in one -------------------------------------

TEST(DefRotate, SameMovesInTheSameOrderAsTheBuiltIn) {
  for (auto [file, both] : {std::pair{"rotate-3x3.tws", false},
                            {"rotate-3x3-both.tws", true},
                            {"rotate-3x4.tws", false},
                            {"rotate-3x4-both.tws", true}}) {
    const int cols = std::string(file).find("3x4") != std::string::npos ? 4 : 3;
    const auto d = std::get<DefinedRule>(defined(file, nullptr, 3, cols));
    const Rotate r(Grid(3, cols), both);
    ASSERT_EQ(d.size(), r.size());
    ASSERT_EQ(d.directed(), r.directed());
    ASSERT_EQ(d.max_degree(), r.max_degree());
    std::mt19937_64 rng(1);
    for (int k = 0; k < 2000; ++k) {
      const State s = r.unrank(rng() % r.size());
      ASSERT_EQ(d.rank(s), r.rank(s));
      ASSERT_EQ(d.format(s), r.format(s));
      std::vector<State> a, b, pa, pb;
      d.for_each_successor(s, [&](State t) { a.push_back(t); });
      r.for_each_successor(s, [&](State t) { b.push_back(t); });
      d.for_each_predecessor(s, [&](State t) { pa.push_back(t); });
      r.for_each_predecessor(s, [&](State t) { pb.push_back(t); });
      ASSERT_EQ(a, b) << file;
      ASSERT_EQ(pa, pb) << file;
    }
  }
}

// A defined rule's move scanner (ranks from the rank alone) gives what the built-in
// rotate's incremental ranks give, in order, on runs of ranks at 3x4, both directions.
TEST(DefRotate, RankScannerMatchesTheBuiltIn) {
  for (auto [file, both] : {std::pair{"rotate-3x4.tws", false}, {"rotate-3x4-both.tws", true}}) {
    const auto d = std::get<DefinedRule>(defined(file, nullptr, 3, 4));
    const Rotate r(Grid(3, 4), both);
    for (bool successors : {true, false}) {
      auto scan = d.rank_scanner(successors);
      ASSERT_TRUE(scan.usable()) << file;
      std::mt19937_64 rng(3);
      for (int run = 0; run < 50; ++run) {
        const std::uint64_t start = rng() % (r.size() - 100);
        for (std::uint64_t k = start; k < start + 100; ++k) {
          std::vector<std::uint64_t> want, got;
          const State s = r.unrank(k);
          if (successors)
            r.for_each_successor_rank(s, k, [&](std::uint64_t q) { want.push_back(q); });
          else
            r.for_each_predecessor_rank(s, k, [&](std::uint64_t q) { want.push_back(q); });
          scan(k, [&](std::uint64_t q) { got.push_back(q); });
          ASSERT_EQ(got, want) << file << " rank " << k;
        }
      }
    }
  }
}

TEST(DefRotate, EveryVariantGivesTheBuiltInLayers3x3) {
  // The reference BFS (strings in a hash map, no ranking) once as the oracle; every
  // other variant on each rule.
  const std::vector<std::uint64_t> cw = layers(make_rule("rotate", 3, 3));
  EXPECT_EQ(layers(defined("rotate-3x3-both.tws"), "reference"), kBoth3x3);
  for (const auto& v : variant_table()) {
    if (v.name == "reference") continue;
    EXPECT_EQ(layers(defined("rotate-3x3.tws"), v.name), cw) << v.name;
    EXPECT_EQ(layers(defined("rotate-3x3-both.tws"), v.name), kBoth3x3) << v.name;
    EXPECT_EQ(layers(defined("rotate-3x3.tws", "inverses"), v.name), kBoth3x3) << v.name;
    EXPECT_EQ(layers(rotate_both(3, 3), v.name), kBoth3x3) << v.name;
  }
  // The half-turn metric is a different puzzle: fewer levels, same 9! states.
  const auto htm = layers(defined("rotate-3x3.tws", "powers"));
  EXPECT_LT(htm.size(), kBoth3x3.size());
  std::uint64_t total = 0;
  for (auto x : htm) total += x;
  EXPECT_EQ(total, 362880u);
  EXPECT_EQ(htm, layers(defined("rotate-3x3.tws", "powers"), "serial"));
}

TEST(DefRotate, VerifierAndDepthsAgreeWithTheBuiltIn) {
  BfsOptions o;
  o.want_depths = true;
  const BfsResult a = find_variant("hybrid").run(defined("rotate-3x3-both.tws", nullptr, 3, 3), o);
  const BfsResult b = find_variant("hybrid").run(rotate_both(3, 3), o);
  EXPECT_EQ(a.depth, b.depth);
  EXPECT_EQ(verify_bfs(defined("rotate-3x3-both.tws"), a), "");
}

TEST(DefRotate, GraphAnalysesAgreeWithTheBuiltIn) {
  for (bool both : {false, true}) {
    const AnyRule builtin = both ? rotate_both(3, 3) : make_rule("rotate", 3, 3);
    const AnyRule def = defined(both ? "rotate-3x3-both.tws" : "rotate-3x3.tws", nullptr, 3, 3);
    BfsOptions o;
    o.want_depths = true;
    const BfsResult ra = find_variant("hybrid").run(builtin, o), rb = find_variant("hybrid").run(def, o);
    GraphOptions ga, gb;
    ga.goal_bfs = &ra, gb.goal_bfs = &rb;
    const GraphReport a = analyze_graph(builtin, ga), b = analyze_graph(def, gb);
    EXPECT_EQ(b.diameter, a.diameter);
    EXPECT_EQ(b.diameter_method, "cayley");
    EXPECT_EQ(b.components.size(), a.components.size());
    EXPECT_EQ(b.largest_component, a.largest_component);
    EXPECT_EQ(reached_edges(def, rb), reached_edges(builtin, ra));
    const auto pa = path_counts(builtin, ra), pb = path_counts(def, rb);
    ASSERT_EQ(pa.size(), pb.size());
    for (std::size_t d = 0; d < pa.size(); ++d) EXPECT_TRUE(pa[d].paths == pb[d].paths) << d;
    EXPECT_EQ(antipodes_table(def, antipodes(rb, 100)).str(), antipodes_table(builtin, antipodes(ra, 100)).str());
  }
}

TEST(DefRotate, GeneratedDefinitionsAtSmallSizesAndTheExactDiameter) {
  // Rotate on 2x3, 3x2, 2x4 and both directions, written out as definitions: the same
  // layers, and the exact diameter (no symmetry shortcut) equals the Cayley one.
  for (const Grid g : {Grid(2, 3), Grid(3, 2), Grid(2, 4)})
    for (bool both : {false, true}) {
      const Rotate r(g, both);
      const AnyRule builtin = r;
      const AnyRule def =
          DefinedRule(parse_definition(definition_of(r), "gen.tws", DefinedMetric::kGiven), g.rows, g.cols);
      EXPECT_EQ(std::get<DefinedRule>(def).directed(), r.directed());
      EXPECT_EQ(layers(def), layers(builtin, "reference")) << g.label() << both;
      const GraphReport cayley = analyze_graph(def);
      EXPECT_EQ(cayley.diameter, analyze_graph(builtin).diameter) << g.label() << both;
      // The exact method (all-sources BFS on directed components) only on 720 states.
      if (g.cells() > 6) continue;
      GraphOptions ex;
      ex.method = DiameterMethod::kExact;
      const GraphReport exact = analyze_graph(def, ex);
      EXPECT_EQ(cayley.diameter_method, "cayley");
      EXPECT_EQ(exact.diameter_method, "exact");
      EXPECT_EQ(cayley.diameter, exact.diameter) << g.label() << both;
      EXPECT_EQ(cayley.components.size(), exact.components.size());
    }
}

// ---- identical pieces (multiset ranking) ------------------------------------------------

// Independent BFS over vectors of piece numbers (std::map, no ranking, no nibbles):
// depth = moves from a state to the solved one, so it walks the inverse moves.
std::vector<std::uint64_t> brute_layers(const Definition& d) {
  std::map<std::vector<int>, int> depth;
  std::vector<std::vector<int>> frontier{d.solved};
  depth[d.solved] = 0;
  std::vector<std::uint64_t> out;
  while (!frontier.empty()) {
    out.push_back(frontier.size());
    std::vector<std::vector<int>> next;
    for (const auto& s : frontier)
      for (const auto& p : d.moves) {
        // t is a predecessor of s when s = t∘p, i.e. t[p[i]] = s[i].
        std::vector<int> t(s.size());
        for (std::size_t i = 0; i < s.size(); ++i) t[static_cast<std::size_t>(p[i])] = s[i];
        if (depth.emplace(t, static_cast<int>(out.size())).second) next.push_back(std::move(t));
      }
    frontier = std::move(next);
  }
  return out;
}

TEST(DefMultiset, RankingIsABijectionAndParseChecksTheMultiset) {
  const DefinedRule r(parse_definition(kMultiset, "m.tws", DefinedMetric::kGiven), 2, 4);
  EXPECT_FALSE(r.distinct());
  EXPECT_EQ(r.size(), 2520u);  // 8! / 2^4
  std::set<State> seen;
  for (std::uint64_t k = 0; k < r.size(); ++k) {
    const State s = r.unrank(k);
    ASSERT_EQ(r.rank(s), k);
    ASSERT_EQ(r.parse(r.format(s)), s);
    seen.insert(s);
  }
  EXPECT_EQ(seen.size(), r.size());
  auto un = r.unranker();
  for (std::uint64_t k = 0; k < r.size(); ++k) ASSERT_EQ(un(k), r.unrank(k));
  EXPECT_EQ(r.format(r.goals()[0]), "1 1 2 2/3 3 4 4");
  EXPECT_THROW(r.parse("1 1 1 2 3 3 4 4"), InputError);  // three 1s
  EXPECT_THROW(r.parse("1 1 2 2 3 3 4 5"), InputError);
  EXPECT_THROW(r.parse("1 1 2 2 3 3 4"), InputError);
}

TEST(DefMultiset, EveryVariantAgreesWithABruteForce) {
  for (const char* metric : {"given", "inverses", "powers"}) {
    const Definition d = parse_definition(kMultiset, "m.tws", parse_metric(metric));
    const AnyRule rule = DefinedRule(d);
    const auto want = brute_layers(d);
    for (const auto& v : variant_table()) EXPECT_EQ(layers(rule, v.name), want) << metric << " " << v.name;
    BfsOptions o;
    o.want_depths = true;
    EXPECT_EQ(verify_bfs(rule, find_variant("hybrid").run(rule, o)), "") << metric;
  }
}

TEST(DefMultiset, GraphTakesTheExactMethodAndMatchesStrongComponents) {
  const AnyRule rule = DefinedRule(parse_definition(kMultiset, "m.tws", DefinedMetric::kGiven));
  const GraphReport rep = analyze_graph(rule);
  EXPECT_EQ(rep.diameter_method, "exact");
  const auto strong = strong_components(rule);
  ASSERT_EQ(rep.components.size(), strong.size());
  for (std::size_t i = 0; i < strong.size(); ++i) {
    EXPECT_EQ(rep.components[i].representative, strong[i].first);
    EXPECT_EQ(rep.components[i].size, strong[i].second);
  }
  // Brute-force diameter of the goal's component: BFS from every member.
  const auto& r = std::get<DefinedRule>(rule);
  const std::uint64_t goal = r.rank(r.goals()[0]);
  int diameter = 0;
  std::vector<std::uint64_t> members;
  {
    BfsOptions o;
    o.want_depths = true;
    o.forward = true;
    const BfsResult b = find_variant("reference").run(rule, o);
    for (std::uint64_t k = 0; k < r.size(); ++k)
      if (b.depth[k] != kUnreached) members.push_back(k);
  }
  for (std::uint64_t k : members) {
    BfsOptions o;
    o.forward = true;
    o.sources = {r.unrank(k)};
    diameter = std::max(diameter, find_variant("reference").run(rule, o).max_depth());
  }
  for (const auto& c : rep.components)
    if (c.has_goal) EXPECT_EQ(c.diameter, diameter);
  (void)goal;
}

// ---- pancakes (results/defs/pancake-N.tws, written by pancake.sh) ---------------------

// OEIS A092113, rows n = 3..10: T(n,k) = number of stacks of n pancakes that need k
// flips (prefix reversals) to sort, k = 0..A058986(n). An external fact, written out
// here, not computed: rows 3..9 and the first four terms of row 10 as listed on the
// A092113 page; the rest of row 10 (3963 ... 73232) from Don Woods's table of the
// same counts for up to 12 pancakes. Each row must sum to n! (checked below).
const std::vector<std::vector<std::uint64_t>> kA092113 = {
    {1, 2, 2, 1},                                                                  // n = 3
    {1, 3, 6, 11, 3},                                                              // n = 4
    {1, 4, 12, 35, 48, 20},                                                        // n = 5
    {1, 5, 20, 79, 199, 281, 133, 2},                                              // n = 6
    {1, 6, 30, 149, 543, 1357, 1903, 1016, 35},                                    // n = 7
    {1, 7, 42, 251, 1191, 4281, 10561, 15011, 8520, 455},                          // n = 8
    {1, 8, 56, 391, 2278, 10666, 38015, 93585, 132697, 79379, 5804},               // n = 9
    {1, 9, 72, 575, 3963, 22825, 106461, 377863, 919365, 1309756, 814678, 73232},  // n = 10
};

// OEIS A058986, the pancake numbers P(n) (the diameter), n = 1..14.
const std::vector<int> kA058986 = {0, 1, 3, 4, 5, 7, 8, 9, 10, 11, 13, 14, 15, 16};

TEST(DefPancake, FilesHaveTheDocumentedOrientation) {
  // Position 1 is the bottom, position N the top; f<k> reverses the top k positions.
  for (int n = 3; n <= 14; ++n) {
    const std::string file = "pancake-" + std::to_string(n) + ".tws";
    const Definition d = load_definition(kDefs + file, DefinedMetric::kGiven);
    EXPECT_EQ(d.name, "pancake" + std::to_string(n));
    ASSERT_EQ(d.n, n) << file;
    ASSERT_EQ(d.moves.size(), static_cast<std::size_t>(n - 1)) << file;
    for (int k = 2; k <= n; ++k) {
      const auto& p = d.moves[static_cast<std::size_t>(k - 2)];
      EXPECT_EQ(d.move_names[static_cast<std::size_t>(k - 2)], "f" + std::to_string(k)) << file;
      for (int i = 0; i < n; ++i)  // 0-based: positions n-k..n-1 reversed, the rest fixed
        EXPECT_EQ(p[static_cast<std::size_t>(i)], i < n - k ? i : 2 * n - k - 1 - i) << file << " f" << k;
    }
    EXPECT_FALSE(std::get<DefinedRule>(defined(file)).directed()) << file;  // flips are involutions
  }
}

TEST(DefPancake, LayersMatchOeisA092113AndTheDiameterA058986) {
  // The test's own literal first: each published row counts all n! stacks.
  for (std::size_t i = 0; i < kA092113.size(); ++i) {
    const int n = static_cast<int>(i) + 3;
    std::uint64_t total = 0;
    for (std::uint64_t x : kA092113[i]) total += x;
    ASSERT_EQ(total, kFactorial[static_cast<std::size_t>(n)]) << "A092113 row n = " << n;
    ASSERT_EQ(static_cast<int>(kA092113[i].size()) - 1, kA058986[static_cast<std::size_t>(n - 1)]) << n;
  }
  const VariantInfo& hybrid = find_variant("hybrid");
  ASSERT_EQ(hybrid.name, "hybrid");
  for (int n = 3; n <= 10; ++n) {
    const auto& want = kA092113[static_cast<std::size_t>(n - 3)];
    const AnyRule rule = defined("pancake-" + std::to_string(n) + ".tws");
    const BfsResult r = hybrid.run(rule, BfsOptions{});
    EXPECT_EQ(r.layers, want) << "hybrid, n = " << n;
    EXPECT_EQ(r.max_depth(), kA058986[static_cast<std::size_t>(n - 1)]) << "hybrid, n = " << n;
    if (n <= 8) {
      const BfsResult ref = find_variant("reference").run(rule, BfsOptions{});
      EXPECT_EQ(ref.layers, want) << "reference, n = " << n;
      EXPECT_EQ(ref.max_depth(), kA058986[static_cast<std::size_t>(n - 1)]) << "reference, n = " << n;
    }
  }
}

}  // namespace
}  // namespace stategraph
