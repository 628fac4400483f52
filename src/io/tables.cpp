// The CSV tables the commands write, built from the analyses' plain structs: the
// analyses compute, this file decides columns and number formats. Column lists are the
// contract of README's CSV reference; a change of one is a change of the schema.
#include "stategraph/io/tables.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace stategraph {

CsvTable distribution_table(const BfsResult& result) {
  CsvTable t({"depth", "states", "cumulative", "fraction"});
  const std::uint64_t total = result.reached();
  std::uint64_t cumulative = 0;
  for (std::size_t d = 0; d < result.layers.size(); ++d) {
    cumulative += result.layers[d];
    t.add_row({std::to_string(d), std::to_string(result.layers[d]), std::to_string(cumulative),
               fmt_double(static_cast<double>(result.layers[d]) / static_cast<double>(total))});
  }
  return t;
}

CsvTable levels_table(const BfsResult& result) {
  // The disk variant's rows add its file traffic (the other variants' tables are unchanged).
  std::vector<std::string> columns{"depth", "states", "direction", "seconds"};
  if (result.disk_io) columns.insert(columns.end(), {"bytes_read", "bytes_written"});
  CsvTable t(columns);
  for (const auto& l : result.levels) {
    std::vector<std::string> row{std::to_string(l.depth), std::to_string(l.states),
                                 std::string(direction_name(l.direction)), fmt_double(l.seconds)};
    if (result.disk_io) row.insert(row.end(), {std::to_string(l.bytes_read), std::to_string(l.bytes_written)});
    t.add_row(row);
  }
  return t;
}

CsvTable summary_table(const Summary& s) {
  CsvTable t({"rule",
              "rows",
              "cols",
              "space_size",
              "reachable",
              "max_depth",
              "antipodes",
              "variant",
              "threads",
              "seconds",
              "peak_bytes",
              "goals",
              "start_distance",
              "components",
              "largest_component",
              "diameter",
              "goal_component_size",
              "average_distance",
              "edges",
              "diameter_bfs_runs",
              "diameter_seconds",
              "diameter_method",
              "diameter_lower",
              "diameter_upper",
              "diameter_budget_stopped",
              "labelling_seconds",
              "small_components_seconds",
              "large_components_seconds",
              "symmetries",
              "mirrored_components",
              "mirrored_states",
              "graph_note",
              "diameter_image_sources"});
  std::vector<std::string> row = {s.rule,
                                  std::to_string(s.rows),
                                  std::to_string(s.cols),
                                  std::to_string(s.space_size),
                                  std::to_string(s.reachable),
                                  std::to_string(s.max_depth),
                                  std::to_string(s.antipodes),
                                  s.variant,
                                  std::to_string(s.threads),
                                  fmt_double(s.seconds),
                                  std::to_string(s.peak_bytes),
                                  std::to_string(s.goals),
                                  s.start_distance ? std::to_string(*s.start_distance) : std::string()};
  if (s.graph) {
    const auto& g = *s.graph;
    for (auto v : {std::to_string(g.components),
                   std::to_string(g.largest_component),
                   g.diameter < 0 ? std::string() : std::to_string(g.diameter),
                   std::to_string(g.goal_component_size),
                   fmt_double(g.average_distance),
                   std::to_string(g.edges),
                   std::to_string(g.diameter_bfs_runs),
                   fmt_double(g.diameter_seconds),
                   g.diameter_method,
                   g.diameter_lower < 0 ? std::string() : std::to_string(g.diameter_lower),
                   g.diameter_upper < 0 ? std::string() : std::to_string(g.diameter_upper),
                   std::string(g.budget_stopped ? "1" : "0"),
                   fmt_double(g.labelling_seconds),
                   fmt_double(g.small_components_seconds),
                   fmt_double(g.large_components_seconds),
                   std::to_string(g.symmetries),
                   std::to_string(g.mirrored_components),
                   std::to_string(g.mirrored_states),
                   g.note,
                   std::to_string(g.diameter_image_sources)})
      row.push_back(v);
  } else {
    row.resize(row.size() + 20);
  }
  t.add_row(std::move(row));
  return t;
}

CsvTable components_table(const AnyRule& rule, const GraphReport& report, std::uint64_t max_components) {
  CsvTable t({"component", "size", "representative", "eccentricity_of_representative", "diameter", "diameter_lower",
              "diameter_upper", "diameter_method", "diameter_bfs_runs", "mirror_of", "diameter_image_sources"});
  std::vector<std::size_t> order(report.components.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (order.size() > max_components) {
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return report.components[a].size > report.components[b].size;
    });
    order.resize(max_components);
  }
  std::visit(
      [&](const auto& r) {
        for (std::size_t i : order) {
          const ComponentInfo& c = report.components[i];
          State rep = r.unrank(c.representative);
          if (c.other_class) {  // the image under swapping tiles 1 and 2 (symbols 1 and 2)
            const int n = rule_grid(rule).cells();
            rep = swap_cells(rep, find_cell(rep, n, 1), find_cell(rep, n, 2));
          }
          t.add_row({std::to_string(i), std::to_string(c.size), r.format(rep),
                     std::to_string(c.eccentricity_of_representative),
                     c.diameter < 0 ? std::string() : std::to_string(c.diameter),
                     c.diameter_lower < 0 ? std::string() : std::to_string(c.diameter_lower),
                     c.diameter_upper < 0 ? std::string() : std::to_string(c.diameter_upper),
                     component_method_name(c.method), std::to_string(c.bfs_runs),
                     c.mirror_of < 0 ? std::string() : std::to_string(c.mirror_of), std::to_string(c.image_sources)});
        }
      },
      rule);
  return t;
}

CsvTable diameter_witnesses_table(const AnyRule& rule, const GraphReport& report) {
  CsvTable t({"component", "kind", "state", "other_state", "value"});
  std::visit(
      [&](const auto& r) {
        for (const DiameterWitness& w : report.witnesses) {
          const std::string c = std::to_string(w.component);
          t.add_row(
              {c, "lower", r.format(r.unrank(w.lower_a)), r.format(r.unrank(w.lower_b)), std::to_string(w.lower)});
          t.add_row({c, "upper", "", "", std::to_string(w.upper)});
          for (const auto& [s, e] : w.sources) t.add_row({c, "source", r.format(r.unrank(s)), "", std::to_string(e)});
          for (const auto& im : w.images)
            t.add_row({c, "source", r.format(r.unrank(im.state)), r.format(r.unrank(im.of)),
                       std::to_string(im.eccentricity)});
          if (w.pair_upper > 0) {
            t.add_row({c, "pair_upper", "", "", std::to_string(w.pair_upper)});
            for (auto s : w.pair_sources) t.add_row({c, "pair_source", r.format(r.unrank(s)), "", ""});
          }
        }
      },
      rule);
  return t;
}

CsvTable component_sizes_table(const GraphReport& report) {
  std::map<std::uint64_t, std::uint64_t> histogram;
  for (const auto& c : report.components) ++histogram[c.size];
  CsvTable t({"size", "count"});
  for (const auto& [size, count] : histogram) t.add_row({std::to_string(size), std::to_string(count)});
  return t;
}

CsvTable antipodes_table(const AnyRule& rule, const std::vector<std::uint64_t>& ranks) {
  CsvTable t({"rank", "state"});
  std::visit(
      [&](const auto& r) {
        for (auto k : ranks) t.add_row({std::to_string(k), r.format(r.unrank(k))});
      },
      rule);
  return t;
}

CsvTable distribution_with_paths(const BfsResult& result, const std::vector<PathCount>& paths) {
  const CsvTable base = distribution_table(result);
  CsvTable t({"depth", "states", "cumulative", "fraction", "paths"});
  for (std::size_t d = 0; d < base.rows().size(); ++d) {
    auto row = base.rows()[d];
    row.push_back(d < paths.size() ? format_paths(paths[d]) : std::string());
    t.add_row(std::move(row));
  }
  return t;
}

namespace {
std::vector<std::string> keys(const CompareReport& r, const CompareRun& run) {
  return {r.rule,      std::to_string(r.rows),      std::to_string(r.cols),
          run.variant, std::to_string(run.threads), std::to_string(run.repeat)};
}
}  // namespace

CsvTable compare_table(const CompareReport& report) {
  CsvTable t({"rule", "rows", "cols", "variant", "threads", "repeat", "seconds", "states_per_s", "edges_per_s",
              "peak_bytes", "bits_per_state"});
  for (const auto& run : report.runs) {
    auto row = keys(report, run);
    const double secs = run.result.seconds;
    const double reached = static_cast<double>(run.result.reached());
    row.push_back(fmt_double(secs));
    row.push_back(secs > 0 ? fmt_double(reached / secs) : std::string());
    row.push_back(secs > 0 && report.edges ? fmt_double(static_cast<double>(report.edges) / secs) : std::string());
    row.push_back(std::to_string(run.result.peak_bytes));
    row.push_back(fmt_double(report.space_size ? 8.0 * static_cast<double>(run.result.peak_bytes) /
                                                     static_cast<double>(report.space_size)
                                               : 0.0));
    t.add_row(std::move(row));
  }
  return t;
}

CsvTable compare_levels_table(const CompareReport& report) {
  CsvTable t({"rule", "rows", "cols", "variant", "threads", "repeat", "depth", "direction", "seconds"});
  for (const auto& run : report.runs)
    for (const auto& l : run.result.levels) {
      auto row = keys(report, run);
      row.push_back(std::to_string(l.depth));
      row.push_back(std::string(direction_name(l.direction)));
      row.push_back(fmt_double(l.seconds));
      t.add_row(std::move(row));
    }
  return t;
}

CsvTable compare_summary_table(const CompareReport& report, const CompareSummary& summary) {
  CsvTable t({"rule", "rows", "cols", "variant", "threads", "runs", "median_seconds", "min_seconds", "max_seconds",
              "median_states_per_s", "speedup_vs_serial", "speedup_vs_base_threads", "base_threads"});
  auto opt = [](const std::optional<double>& v) { return v ? fmt_double(*v) : std::string(); };
  for (const auto& c : summary.cells)
    t.add_row({report.rule, std::to_string(report.rows), std::to_string(report.cols), c.variant,
               std::to_string(c.threads), std::to_string(c.runs), fmt_double(c.median_seconds),
               fmt_double(c.min_seconds), fmt_double(c.max_seconds), fmt_double(c.median_states_per_s),
               opt(c.speedup_vs_serial), opt(c.speedup_vs_base_threads), std::to_string(summary.base_threads)});
  return t;
}

}  // namespace stategraph
