// `stategraph export`: the explicit graph of a space for other tools (networkx, igraph,
// gapbs, SciPy, Gephi, Graphviz): an edge list, Matrix Market, GraphML or DOT, and
// vertices.csv, in one result folder written whole or not at all (io/graph_export.hpp).
//
// Exit codes: 0 written; 2 bad options, or a graph above --max-edges (nothing written);
// 1 a file system error; 128 + signal when stopped by SIGINT/SIGTERM (nothing written).
#include "stategraph/io/graph_export.hpp"

#include <tbb/global_control.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "commands.hpp"
#include "signals.hpp"
#include "stategraph/bfs/memory.hpp"
#include "stategraph/io/log_text.hpp"
#include "stategraph/io/plot.hpp"
#include "stategraph/io/run_folder.hpp"

namespace stategraph::cli {
namespace {

// The default --max-edges: every 12-cell space as an edge list (adjswap 3x4, the largest,
// has 4.07 G edges), and a size that drawing and XML tools still open for GraphML / DOT.
constexpr std::uint64_t kMaxEdgesLists = 5'000'000'000;
constexpr std::uint64_t kMaxEdgesMarkup = 1'000'000;

struct ExportOptions {
  RuleCliOptions rule;
  std::string out;
  std::vector<std::string> formats{"el"};
  std::string ids = "dense";
  std::int64_t component = -1;
  bool whole_space = false;
  bool no_vertices = false;
  std::uint64_t max_edges = 0;  // 0: the default of the formats asked
  std::string max_memory;
  int threads = 0;
  bool quiet = false;
};

int run_export(const ExportOptions& o) {
  const AnyRule rule = build_rule(o.rule, "export needs --rule NAME (see 'stategraph rules')");
  const std::string label = std::string(rule_name(rule)) + "-" + rule_grid(rule).label();
  std::vector<GraphFormat> formats;
  std::set<GraphFormat> seen;
  for (const std::string& f : o.formats)
    if (seen.insert(parse_graph_format(f)).second) formats.push_back(parse_graph_format(f));
  if (o.ids != "dense" && o.ids != "rank") throw InputError("--ids must be dense or rank, not '" + o.ids + "'");
  const bool dense = o.ids == "dense";
  if (o.no_vertices && dense) throw InputError("--no-vertices needs --ids rank (dense ids are defined by vertices.csv)");
  if (o.component >= 0 && o.whole_space) throw InputError("give --component or --whole-space, not both");
  if (o.out.empty()) throw InputError("export needs --out DIR, the folder of its files");
  const std::filesystem::path dir = o.out;
  check_output_folder(dir);
  const bool markup = seen.count(GraphFormat::kGraphML) || seen.count(GraphFormat::kDot);
  const std::uint64_t max_edges = o.max_edges ? o.max_edges : markup ? kMaxEdgesMarkup : kMaxEdgesLists;

  VertexChoice choice;
  choice.kind = o.component >= 0 ? VertexChoice::kComponent
                : o.whole_space  ? VertexChoice::kWholeSpace
                                 : VertexChoice::kReached;
  choice.component = o.component >= 0 ? static_cast<std::uint64_t>(o.component) : 0;
  choice.dense = dense;
  choice.label = !o.no_vertices || markup || choice.kind == VertexChoice::kComponent;
  // Memory: the BFS's buffers with its depth table, and the vertex arrays, before any allocation.
  const MemoryLimit memory = resolve_memory_limit(o.max_memory);
  BfsOptions probe;
  probe.want_depths = true;
  const VariantInfo& variant = find_variant(choice.variant);
  const std::uint64_t need = variant.bytes_needed(rule, probe) + graph_vertices_bytes(rule_size(rule), choice.label);
  if (memory.bytes && need > memory.bytes)
    throw InputError(label + ": export needs " + format_bytes(need) + " of memory (a depth byte" +
                     (choice.label ? ", a component label" : "") + " per rank and the BFS's buffers), more than the " +
                     format_bytes(memory.bytes) + " " + memory.source);
  const int threads = effective_threads(o.threads);
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  const StopOnSignals signals;
  choice.bfs.stop = &signals.flag();
  auto interrupted = [&](int sig) {
    std::cerr << "stategraph: interrupted by " << signal_name(sig) << " during the export of " << label
              << "; nothing written\n";
    return 128 + sig;
  };
  const auto start = std::chrono::steady_clock::now();
  GraphVertices v;
  try {
    v = choose_vertices(rule, choice);
  } catch (const BfsInterrupted& e) {
    return interrupted(e.signal());
  }
  if (signals.signal()) return interrupted(signals.signal());
  // The edges are counted in a pass of their own only when the Matrix Market header needs
  // the number, or the bound from the moves per state does not settle --max-edges: else
  // the size line gives the bound and the files are written in one pass.
  const std::uint64_t bound = graph_edges_bound(rule, v);
  const bool count_first = seen.count(GraphFormat::kMatrixMarket) || bound > max_edges;
  const std::uint64_t edges = count_first ? count_graph_edges(rule, v, &signals.flag()) : bound;
  if (signals.signal()) return interrupted(signals.signal());
  // The size first; above the limit nothing is written.
  const bool directed = rule_directed(rule);
  const std::uint64_t digits = std::to_string(v.id_bound()).size();
  const std::string size_line = label + ": " + count_text(v.count, "vertex", "vertices") + ", " +
                                (count_first ? "" : "at most ") + count_text(edges, directed ? "arc" : "edge") + " (" +
                                (directed ? "directed" : "undirected") + "); as an edge list at most " +
                                format_bytes(edges * (2 * digits + 2));
  if (!o.quiet && edges <= max_edges) std::cerr << size_line << "\n";
  if (edges > max_edges)  // one line, giving the size
    throw InputError(label + " has " + count_text(edges, directed ? "arc" : "edge") + ", more than --max-edges " +
                     std::to_string(max_edges) + (o.max_edges ? "" : markup ? " (the default with graphml or dot)" : "") +
                     ": raise --max-edges, pick a --component, or export as el or mtx");
  RunFolder run(dir);
  GraphFiles files;
  std::vector<std::string> names;
  for (GraphFormat f : formats) {
    const std::string name = std::string("graph.") + graph_format_name(f);
    files.graphs.emplace_back(f, run.staging() / name);
    names.push_back(name);
  }
  if (!o.no_vertices) files.vertices = run.staging() / "vertices.csv", names.push_back("vertices.csv");
  std::uint64_t written = 0;
  if (!write_graph_files(rule, v, edges, files, &signals.flag(), &written) || signals.signal())
    return interrupted(signals.signal());
  if (count_first && written != edges)
    throw std::logic_error("export: " + std::to_string(written) + " edges written, " + std::to_string(edges) + " counted");
  for (const std::string& name : names) run.add(name);
  RunRecord record = base_record("export");
  describe_rule(record, rule);
  record.variant = std::string(choice.variant);
  record.threads = threads;
  record.notes = std::to_string(v.count) + " vertices; " + std::to_string(written) + (directed ? " arcs" : " edges") +
                 "; ids " + o.ids +
                 (choice.kind == VertexChoice::kComponent ? "; component " + std::to_string(o.component)
                  : choice.kind == VertexChoice::kWholeSpace ? "; whole space"
                                                             : "; reached from the sources");
  run.commit(record);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << label << ": " << v.count << " vertices, " << written << (directed ? " arcs" : " edges") << ", "
            << seconds_text(seconds) << " -> " << dir.string() << "/\n";
  return 0;
}

struct DrawOptions {
  RuleCliOptions rule;
  std::string out;
  std::string layout = "sfdp";
  std::uint64_t max_vertices = 5000;
  int threads = 0;
};

int run_draw(const DrawOptions& o) {
  const AnyRule rule = build_rule(o.rule, "draw needs --rule NAME (see 'stategraph rules')");
  const std::string label = std::string(rule_name(rule)) + "-" + rule_grid(rule).label();
  if (o.out.empty()) throw InputError("draw needs --out DIR, the folder of its pictures");
  const std::filesystem::path dir = o.out;
  check_output_folder(dir);
  if (!program_available(o.layout))
    throw InputError("draw needs Graphviz's " + o.layout + " (Debian package graphviz), not found on PATH");
  VertexChoice choice;
  // The BFS runs over the whole space before the states are counted: spaces past 10! ranks are refused first.
  if (rule_size(rule) > 3'628'800)
    throw InputError(label + " has " + std::to_string(rule_size(rule)) +
                     " ranks: draw is for spaces of a few thousand states (try export)");
  const int threads = effective_threads(o.threads);
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  const GraphVertices v = choose_vertices(rule, choice);
  if (v.count > o.max_vertices)
    throw InputError(label + ": " + std::to_string(v.count) + " states reach the goal, more than --max-vertices " +
                     std::to_string(o.max_vertices) + " (a picture of more is a blur; try export)");
  const std::uint64_t edges = count_graph_edges(rule, v);
  RunFolder run(dir);
  render_graph(run.staging(), "drawing", drawing_dot(rule, v, edges), o.layout);
  for (const char* ext : {".dot", ".svg", ".png"}) run.add(std::string("drawing") + ext);
  GraphFiles files;
  files.vertices = run.staging() / "vertices.csv";
  write_graph_files(rule, v, edges, files);
  run.add("vertices.csv");
  RunRecord record = base_record("draw");
  describe_rule(record, rule);
  record.variant = choice.variant;
  record.threads = threads;
  record.notes = "layout " + o.layout;
  run.commit(record);
  std::cout << label << ": " << v.count << " states, " << edges << (rule_directed(rule) ? " arcs" : " edges")
            << " drawn by " << o.layout << " -> " << (dir / "drawing.svg").string() << ", drawing.png\n";
  return 0;
}

}  // namespace

Command add_draw(CLI::App& app) {
  auto o = std::make_shared<DrawOptions>();
  auto* sub = app.add_subcommand(
      "draw",
      "Draw a small space through Graphviz (SVG and PNG): states coloured by distance to the goal, the goal and the "
      "antipodes marked, each state's text as its SVG tooltip");
  add_rule_options(sub, o->rule, kAllRuleFlags);
  sub->add_option("--out", o->out, "Folder of drawing.{dot,svg,png}, vertices.csv and run.csv")->required();
  sub->add_option("--layout", o->layout, "Graphviz layout program: sfdp, neato, fdp, dot, circo, twopi")
      ->capture_default_str();
  sub->add_option("--max-vertices", o->max_vertices, "Refuse (exit 2) to draw more states")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  add_threads_option(sub, o->threads);
  return {sub, [o] { return run_draw(*o); }};
}

Command add_export(CLI::App& app) {
  auto o = std::make_shared<ExportOptions>();
  auto* sub = app.add_subcommand(
      "export",
      "Write the explicit graph of a space for other tools: an edge list (el), Matrix Market (mtx), GraphML or "
      "DOT, and vertices.csv (id, rank, state, depth, component)");
  add_rule_options(sub, o->rule, kAllRuleFlags);
  sub->add_option("--out", o->out, "Folder of the files: graph.<format>, vertices.csv, run.csv (written whole or not at all)")
      ->required();
  sub->add_option("--format", o->formats,
                  "Formats, comma-separated: el (one 'u v' per line: gapbs, igraph, networkx), mtx (Matrix Market "
                  "coordinate pattern: SciPy, SuiteSparse), graphml (networkx, igraph, Gephi), dot (Graphviz)")
      ->delimiter(',')
      ->capture_default_str();
  sub->add_option("--ids", o->ids,
                  "Vertex ids: dense (0..m-1 in rank order, mapped by vertices.csv) or rank (the states' ranks)")
      ->capture_default_str();
  sub->add_option("--component", o->component,
                  "Only the component of this index (as in analyze's components.csv); default: the states the BFS "
                  "from the goal (or --start) reaches")
      ->check(CLI::NonNegativeNumber);
  sub->add_flag("--whole-space", o->whole_space, "Every rank of the space is a vertex, every component");
  sub->add_flag("--no-vertices", o->no_vertices, "No vertices.csv (needs --ids rank)");
  sub->add_option("--max-edges", o->max_edges,
                  "Refuse (exit 2, nothing written) a graph with more edges; default 5e9 for el/mtx (every 12-cell "
                  "space), 1e6 when graphml or dot is asked")
      ->check(CLI::PositiveNumber);
  sub->add_option("--max-memory", o->max_memory, "Refuse (exit 2) when the export needs more (K/M/G); default MemAvailable");
  add_threads_option(sub, o->threads);
  sub->add_flag("--quiet", o->quiet, "No size line on stderr");
  return {sub, [o] { return run_export(*o); }};
}

}  // namespace stategraph::cli
