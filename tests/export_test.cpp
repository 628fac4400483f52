// The graph export (io/graph_export.hpp): the vertices chosen, the edges counted and
// written, against the rules' own moves and the graph analysis on the same spaces.
// networkx checks the same files independently (tests/networkx_check.py).
#include "stategraph/io/graph_export.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "defs_common.hpp"
#include "disk_support.hpp"
#include "stategraph/analysis/graph.hpp"

namespace stategraph {
namespace {

using test::TempFolder;

std::vector<AnyRule> rules() {
  RuleOptions both;
  both.directions = "both";
  return {make_rule("sliding", 2, 3),   make_rule("rotate", 2, 3),    make_rule("rotate", 2, 3, both),
          make_rule("primeswap", 2, 4), make_rule("adjswap", 2, 3),   make_rule("cardswap"),
          make_rule("primeswap", 3, 3), make_rule("sliding", 2, 4)};
}

std::string label_of(const AnyRule& r) { return std::string(rule_name(r)) + " " + rule_grid(r).label(); }

// The pairs (u, v) of ranks the rule's moves give among `member` (undirected: u <= v).
std::multiset<std::pair<std::uint64_t, std::uint64_t>> moves_among(const AnyRule& rule, const GraphVertices& v) {
  std::multiset<std::pair<std::uint64_t, std::uint64_t>> out;
  std::visit(
      [&](const auto& r) {
        for (std::uint64_t u = 0; u < r.size(); ++u) {
          if (!v.member.test(u)) continue;
          r.for_each_successor(r.unrank(u), [&](State t) {
            const std::uint64_t q = r.rank(t);
            if (!v.member.test(q)) return;
            if (r.directed() || u <= q) out.emplace(u, q);  // undirected: each move pair once
          });
        }
      },
      rule);
  return out;
}

TEST(GraphExport, ReachedVerticesAndEdgesAreTheAnalysisOnes) {
  for (const AnyRule& rule : rules()) {
    VertexChoice c;
    const GraphVertices v = choose_vertices(rule, c);
    BfsOptions o;
    o.want_depths = true;
    const BfsResult ref = find_variant("reference").run(rule, o);
    EXPECT_EQ(v.count, ref.reached()) << label_of(rule);
    EXPECT_EQ(count_graph_edges(rule, v), reached_edges(rule, ref)) << label_of(rule);
    EXPECT_EQ(v.depth, ref.depth) << label_of(rule);
  }
}

TEST(GraphExport, EdgeListAndVerticesFileHoldExactlyTheMoves) {
  for (const AnyRule& rule : rules()) {
    for (bool dense : {true, false}) {
      VertexChoice c;
      c.kind = VertexChoice::kWholeSpace;
      c.dense = dense;
      const GraphVertices v = choose_vertices(rule, c);
      TempFolder dir("export");
      GraphFiles files;
      files.graphs = {{GraphFormat::kEdgeList, dir.path() / "g.el"}, {GraphFormat::kMatrixMarket, dir.path() / "g.mtx"}};
      files.vertices = dir.path() / "v.csv";
      const std::uint64_t edges = count_graph_edges(rule, v);
      std::uint64_t written = 0;
      ASSERT_TRUE(write_graph_files(rule, v, edges, files, nullptr, &written));
      EXPECT_EQ(written, edges) << label_of(rule);
      EXPECT_LE(edges, graph_edges_bound(rule, v)) << label_of(rule);
      // vertices.csv: id -> rank, one row per vertex, ids in rank order.
      std::ifstream vf(files.vertices);
      std::string line;
      std::getline(vf, line);
      EXPECT_EQ(line, "id,rank,state,depth,component");
      std::vector<std::uint64_t> rank_of;
      while (std::getline(vf, line)) {
        std::istringstream ss(line);
        std::string id, rank;
        std::getline(ss, id, ','), std::getline(ss, rank, ',');
        EXPECT_EQ(std::stoull(id), dense ? rank_of.size() : std::stoull(rank));
        rank_of.push_back(std::stoull(rank));
      }
      ASSERT_EQ(rank_of.size(), v.count) << label_of(rule);
      // The edge list, mapped back to ranks, is the rule's moves (with multiplicity).
      std::multiset<std::pair<std::uint64_t, std::uint64_t>> got;
      std::ifstream ef(dir.path() / "g.el");
      std::uint64_t a, b;
      while (ef >> a >> b) {
        const std::uint64_t u = dense ? rank_of.at(a) : a, q = dense ? rank_of.at(b) : b;
        got.emplace(u, q);
      }
      EXPECT_EQ(got.size(), edges) << label_of(rule);
      EXPECT_EQ(got, moves_among(rule, v)) << label_of(rule) << " dense " << dense;
      // Matrix Market: its header states the size, one entry line per edge.
      std::ifstream mf(dir.path() / "g.mtx");
      std::getline(mf, line);
      EXPECT_EQ(line, std::string("%%MatrixMarket matrix coordinate pattern ") +
                          (rule_directed(rule) ? "general" : "symmetric"));
      while (std::getline(mf, line) && line[0] == '%') {
      }
      EXPECT_EQ(line, std::to_string(v.id_bound()) + " " + std::to_string(v.id_bound()) + " " + std::to_string(edges));
      std::uint64_t entries = 0;
      while (std::getline(mf, line)) ++entries;
      EXPECT_EQ(entries, edges);
    }
  }
}

TEST(GraphExport, EdgesTakenFromTheRanksAloneAreTheMoves) {
  // From 8 cells on, the writers take the successors' ranks from each vertex's rank, as
  // the BFS kernel does (sliding's block moves and vertical scanner; the move scanners of
  // rotate, adjswap, primeswap and definition files). The edges must still be the rule's
  // moves, each with its multiplicity, whatever the vertex set.
  RuleOptions both;
  both.directions = "both";
  const std::vector<AnyRule> scanned = {make_rule("sliding", 3, 3),   make_rule("rotate", 3, 3),
                                        make_rule("rotate", 3, 3, both), make_rule("adjswap", 3, 3),
                                        make_rule("primeswap", 3, 3),   defs_test::defined("pancake-8.tws")};
  for (const AnyRule& rule : scanned) {
    EXPECT_TRUE(graph_edges_from_ranks(rule)) << label_of(rule);
    for (auto kind : {VertexChoice::kReached, VertexChoice::kWholeSpace}) {
      VertexChoice c;
      c.kind = kind;
      c.dense = false;
      c.label = false;
      const GraphVertices v = choose_vertices(rule, c);
      TempFolder dir("export");
      GraphFiles files;
      files.graphs = {{GraphFormat::kEdgeList, dir.path() / "g.el"}};
      std::uint64_t written = 0;
      ASSERT_TRUE(write_graph_files(rule, v, 0, files, nullptr, &written));
      std::vector<std::pair<std::uint64_t, std::uint64_t>> got;
      std::ifstream ef(dir.path() / "g.el");
      std::uint64_t a, b;
      while (ef >> a >> b) got.emplace_back(a, b);
      const auto want = moves_among(rule, v);
      EXPECT_EQ(written, want.size()) << label_of(rule);
      std::sort(got.begin(), got.end());
      EXPECT_TRUE(std::equal(got.begin(), got.end(), want.begin(), want.end()))
          << label_of(rule) << " kind " << kind << ": " << got.size() << " edges written, " << want.size()
          << " moves";
      EXPECT_EQ(count_graph_edges(rule, v), want.size()) << label_of(rule);
    }
  }
}

TEST(GraphExport, OneComponentIsItsStatesAndAPastTheEndIndexIsRefused) {
  const AnyRule rule = make_rule("primeswap", 3, 3);
  std::vector<ComponentInfo> comps = find_components(rule);
  ASSERT_GT(comps.size(), 3u);
  for (std::uint64_t i : {std::uint64_t{0}, std::uint64_t{1}, comps.size() - 1}) {
    VertexChoice c;
    c.kind = VertexChoice::kComponent;
    c.component = i;
    const GraphVertices v = choose_vertices(rule, c);
    EXPECT_EQ(v.count, comps[i].size) << i;
    EXPECT_TRUE(v.member.test(comps[i].representative)) << i;
    EXPECT_EQ(v.components, comps.size());
  }
  VertexChoice c;
  c.kind = VertexChoice::kComponent;
  c.component = comps.size();
  EXPECT_THROW(choose_vertices(rule, c), InputError);
}

TEST(GraphExport, GraphMLAndDotNameEveryVertexAndEdge) {
  const AnyRule rule = make_rule("cardswap");
  const GraphVertices v = choose_vertices(rule, VertexChoice{});
  TempFolder dir("export");
  GraphFiles files;
  files.graphs = {{GraphFormat::kGraphML, dir.path() / "g.graphml"}, {GraphFormat::kDot, dir.path() / "g.dot"}};
  const std::uint64_t edges = count_graph_edges(rule, v);
  ASSERT_TRUE(write_graph_files(rule, v, edges, files));
  auto count = [](const std::filesystem::path& p, const std::string& what) {
    std::ifstream f(p);
    std::string line;
    std::uint64_t n = 0;
    while (std::getline(f, line)) n += line.find(what) != std::string::npos;
    return n;
  };
  EXPECT_EQ(count(dir.path() / "g.graphml", "<node "), v.count);
  EXPECT_EQ(count(dir.path() / "g.graphml", "<edge "), edges);
  EXPECT_EQ(count(dir.path() / "g.dot", " [label="), v.count);
  EXPECT_EQ(count(dir.path() / "g.dot", " -- "), edges);
  EXPECT_THROW(parse_graph_format("csv"), InputError);
}

}  // namespace
}  // namespace stategraph
