// The explicit graph of a space, for other tools: its vertices (the states a BFS from the
// sources reaches, one component of the labelling, or every rank) and the moves between
// them, written as an edge list (.el), Matrix Market (.mtx), GraphML or DOT, with a
// vertices.csv that maps each id to its rank, state, depth and component. The command is
// `stategraph export` (src/cli/export.cpp); the writers stream the edges chunk by chunk
// (generated in parallel, written in rank order), so nothing grows with the edge count.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "stategraph/bfs/bfs.hpp"
#include "stategraph/core/bits.hpp"

namespace stategraph {

enum class GraphFormat { kEdgeList, kMatrixMarket, kGraphML, kDot };
// "el", "mtx", "graphml", "dot" (InputError naming them otherwise).
GraphFormat parse_graph_format(std::string_view name);
const char* graph_format_name(GraphFormat f);  // the file extension too

// The vertices of an export and what each carries. Ids are dense (0..count-1 in rank
// order) or the ranks themselves.
struct GraphVertices {
  std::uint64_t space = 0;  // ranks of the rule
  Bitset member;            // the vertices, by rank
  std::uint64_t count = 0;
  std::vector<std::uint64_t> before;      // per word of member: vertices at lower ranks
  std::vector<std::uint8_t> depth;        // per rank: moves to (from, forward) the sources; kUnreached: none
  std::vector<std::uint32_t> component;   // per rank: its index in analyze's components.csv (empty: not labelled)
  std::uint64_t components = 0;           // how many the labelling found
  bool dense = true;
  // Every move from a vertex ends at a vertex (an undirected rule's components, or every
  // rank): the edges need no membership test.
  bool closed = false;
  std::uint64_t id(std::uint64_t rank) const {
    if (!dense) return rank;
    const std::uint64_t w = rank >> 6;
    return before[w] + static_cast<std::uint64_t>(std::popcount(member.words()[w] & ((std::uint64_t{1} << (rank & 63)) - 1)));
  }
  std::uint64_t id_bound() const { return dense ? count : space; }  // ids are below this
};

struct VertexChoice {
  enum Kind { kReached, kWholeSpace, kComponent };
  Kind kind = kReached;
  std::uint64_t component = 0;  // kComponent: the index in components.csv
  bool label = true;            // label every rank with its component (kComponent needs it)
  bool dense = true;
  std::string variant = "hybrid";  // the BFS that gives the depths
  BfsOptions bfs;                  // its sources, direction and stop flag (want_depths is set)
};

// The bytes choose_vertices holds for a space of `space` ranks (beside the BFS's own).
std::uint64_t graph_vertices_bytes(std::uint64_t space, bool label);

// Runs the BFS from the sources (depths), labels the components when asked, and picks the
// vertices. InputError for a component index past the last.
GraphVertices choose_vertices(const AnyRule& rule, const VertexChoice& choice);

// The edges among the vertices: every move s -> t between two vertices for a directed
// rule; for an undirected one each move once, as the pair with s <= t (its reverse move
// is the same edge). Parallel; stops early (returning what it counted) when *stop is set.
std::uint64_t count_graph_edges(const AnyRule& rule, const GraphVertices& v, const std::atomic<int>* stop = nullptr);

// The files of one export: each graph format to its path, and vertices.csv (id, rank,
// state, depth, component) when `vertices` is not empty. `edges`: count_graph_edges (the
// Matrix Market header states it; without a .mtx file it may be 0). `written`, when
// given, receives the edges written. Throws std::runtime_error naming a file that cannot
// be written; returns false (files incomplete) when *stop was set.
struct GraphFiles {
  std::vector<std::pair<GraphFormat, std::filesystem::path>> graphs;
  std::filesystem::path vertices;
};
bool write_graph_files(const AnyRule& rule, const GraphVertices& v, std::uint64_t edges, const GraphFiles& files,
                       const std::atomic<int>* stop = nullptr, std::uint64_t* written = nullptr);

// True when the writers take each vertex's successors from its rank alone, with the BFS
// kernel's rank scanners (bfs/engine.hpp), and no state is unranked.
bool graph_edges_from_ranks(const AnyRule& rule);

// At most this many edges among the vertices (each vertex's moves), with no pass over them.
std::uint64_t graph_edges_bound(const AnyRule& rule, const GraphVertices& v);

// A DOT text for a picture of a small space (stategraph draw): every vertex a dot filled
// with the colour of its depth (blue at the goal to red at the deepest), the goal a larger
// black-ringed disc, the antipodes (the deepest states) squares, each state's text as
// its tooltip (and, up to 150 vertices, as its label), the edges thin and grey, and a
// caption saying so.
std::string drawing_dot(const AnyRule& rule, const GraphVertices& v, std::uint64_t edges);

}  // namespace stategraph
