// `stategraph plot DIR...`: redraws the plots of result folders from their CSVs, with
// no search: an analyze folder (distribution.csv [+ summary.csv]) gets
// distribution.{gp,svg,png}; a compare folder (compare.csv, compare_levels.csv
// [+ meta.csv]) gets compare_seconds.* and compare_levels.*. The images join the
// folder's run: their names are added to the `files` column of its run.csv (manifest).
#include "stategraph/io/plot.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "stategraph/analysis/compare.hpp"
#include "stategraph/io/files.hpp"
#include "stategraph/io/io.hpp"

namespace stategraph::cli {
namespace {

namespace fs = std::filesystem;

struct PlotOptions {
  std::vector<std::string> dirs;
  bool log_scale = false;
};

std::uint64_t to_u64(const std::string& s, const std::string& what) {
  try {
    std::size_t used = 0;
    const unsigned long long v = std::stoull(s, &used);
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  throw InputError(what + ": '" + s + "' is not a count");
}

double to_double(const std::string& s, const std::string& what) {
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  throw InputError(what + ": '" + s + "' is not a number");
}

// Adds `names` to the files of the run in `dir` (run.csv's `files` column), so that the
// next run there replaces them; a folder without run.csv needs nothing (legacy names).
void add_to_manifest(const fs::path& dir, const std::vector<std::string>& names) {
  const fs::path file = dir / "run.csv";
  if (!fs::exists(file)) return;
  const CsvData run = read_csv_file(file);
  const std::size_t col = run.column("files", file.string());
  CsvTable out(run.header);
  for (auto row : run.rows) {
    std::set<std::string> files;
    std::stringstream list(row.at(col));
    for (std::string name; std::getline(list, name, ';');)
      if (!name.empty()) files.insert(name);
    files.insert(names.begin(), names.end());
    std::string joined;
    for (const auto& f : files) joined += (joined.empty() ? "" : ";") + f;
    row[col] = joined;
    out.add_row(row);
  }
  write_file_atomic(file, out.str());
}

std::vector<std::string> plot_files(const std::string& base) { return {base + ".gp", base + ".svg", base + ".png"}; }

// Reads key,value rows (meta.csv) into a lookup; missing file: empty.
std::vector<std::pair<std::string, std::string>> read_meta(const fs::path& p) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!fs::exists(p)) return out;
  const CsvData d = read_csv_file(p);
  for (const auto& r : d.rows)
    if (r.size() >= 2) out.emplace_back(r[0], r[1]);
  return out;
}

std::string lookup(const std::vector<std::pair<std::string, std::string>>& meta, const std::string& key) {
  for (const auto& [k, v] : meta)
    if (k == key) return v;
  return "";
}

void plot_distribution(const fs::path& dir, bool log_scale) {
  const fs::path file = dir / "distribution.csv";
  const CsvData d = read_csv_file(file);
  const std::size_t depth_col = d.column("depth", file.string()), states_col = d.column("states", file.string());
  std::vector<std::uint64_t> layers;
  for (const auto& r : d.rows) {
    if (to_u64(r[depth_col], file.string()) != layers.size())
      throw InputError(file.string() + ": depths not 0, 1, 2, ...");
    layers.push_back(to_u64(r[states_col], file.string()));
  }
  if (layers.empty()) throw InputError(file.string() + " has no rows");
  std::uint64_t reached = 0;
  for (auto c : layers) reached += c;
  std::string label = dir.filename().string();
  std::uint64_t space = reached;
  if (fs::exists(dir / "summary.csv")) {
    const CsvData s = read_csv_file(dir / "summary.csv");
    if (!s.rows.empty()) {
      const auto& row = s.rows.front();
      const std::string w = (dir / "summary.csv").string();
      label = row[s.column("rule", w)] + "-" + row[s.column("rows", w)] + "x" + row[s.column("cols", w)];
      space = to_u64(row[s.column("space_size", w)], w);
    }
  }
  render_plot(dir, "distribution",
              std::string("made by: stategraph plot") + (log_scale ? " --plot-log" : "") + " (from distribution.csv)",
              distribution_plot(distribution_title(label, reached, space), layers, log_scale));
  add_to_manifest(dir, plot_files("distribution"));
}

void plot_compare(const fs::path& dir) {
  const fs::path runs_file = dir / "compare.csv", levels_file = dir / "compare_levels.csv";
  const CsvData runs = read_csv_file(runs_file), levels = read_csv_file(levels_file);
  const auto meta = read_meta(dir / "meta.csv");
  const std::string rw = runs_file.string(), lw = levels_file.string();
  CompareReport report;
  if (runs.rows.empty()) throw InputError(rw + " has no rows");
  const auto c = [&](const char* name) { return runs.column(name, rw); };
  const std::size_t rule = c("rule"), rows = c("rows"), cols = c("cols"), variant = c("variant"),
                    threads = c("threads"), repeat = c("repeat"), seconds = c("seconds"), peak = c("peak_bytes");
  report.rule = runs.rows[0][rule];
  report.rows = static_cast<int>(to_u64(runs.rows[0][rows], rw));
  report.cols = static_cast<int>(to_u64(runs.rows[0][cols], rw));
  const std::string space = lookup(meta, "space_size");
  report.space_size = space.empty() ? 0 : to_u64(space, "meta.csv");
  std::set<int> thread_set;
  for (const auto& r : runs.rows) {
    CompareRun run;
    run.variant = r[variant];
    run.threads = static_cast<int>(to_u64(r[threads], rw));
    run.repeat = static_cast<int>(to_u64(r[repeat], rw));
    run.result.seconds = to_double(r[seconds], rw);
    run.result.peak_bytes = to_u64(r[peak], rw);
    if (std::find(report.variants.begin(), report.variants.end(), run.variant) == report.variants.end())
      report.variants.push_back(run.variant);
    thread_set.insert(run.threads);
    report.repeat = std::max(report.repeat, run.repeat);
    report.runs.push_back(std::move(run));
  }
  report.threads.assign(thread_set.begin(), thread_set.end());
  const auto l = [&](const char* name) { return levels.column(name, lw); };
  const std::size_t lv = l("variant"), lt = l("threads"), lr = l("repeat"), ld = l("depth"), ldir = l("direction"),
                    ls = l("seconds");
  for (const auto& r : levels.rows) {
    const int t = static_cast<int>(to_u64(r[lt], lw)), rep = static_cast<int>(to_u64(r[lr], lw));
    auto it = std::find_if(report.runs.begin(), report.runs.end(), [&](const CompareRun& x) {
      return x.variant == r[lv] && x.threads == t && x.repeat == rep;
    });
    if (it == report.runs.end()) throw InputError(lw + ": a level of a run compare.csv does not list");
    LevelStat stat;
    stat.depth = static_cast<int>(to_u64(r[ld], lw));
    stat.direction = r[ldir] == "bottomup" ? Direction::kBottomUp
                     : r[ldir] == "scan"   ? Direction::kScan
                                           : Direction::kTopDown;
    stat.seconds = to_double(r[ls], lw);
    it->result.levels.push_back(stat);
  }
  const std::string command = lookup(meta, "command");
  const std::string origin = "made by: stategraph plot (from the CSVs of: " + (command.empty() ? "?" : command) + ")";
  render_plot(dir, "compare_seconds", origin + "\ndata: compare.csv",
              compare_seconds_plot(report, summarize_compare(report)));
  std::vector<std::string> written = plot_files("compare_seconds");
  const std::string body = compare_levels_plot(report);
  if (!body.empty()) {
    render_plot(dir, "compare_levels", origin + "\ndata: compare_levels.csv", body);
    for (const auto& f : plot_files("compare_levels")) written.push_back(f);
  }
  add_to_manifest(dir, written);
}

int run_plot(const PlotOptions& o) {
  if (o.dirs.empty()) throw InputError("plot needs one or more result folders");
  for (const auto& d : o.dirs)
    if (!fs::exists(fs::path(d) / "compare.csv") && !fs::exists(fs::path(d) / "distribution.csv"))
      throw InputError(d + " holds neither compare.csv nor distribution.csv");
  if (!gnuplot_available()) throw std::runtime_error(gnuplot_missing_message());
  for (const auto& d : o.dirs) {
    const fs::path dir(d);
    if (fs::exists(dir / "compare.csv"))
      plot_compare(dir);
    else
      plot_distribution(dir, o.log_scale);
    std::cout << "plotted " << dir.string() << "/\n";
  }
  return 0;
}

}  // namespace

Command add_plot(CLI::App& app) {
  auto o = std::make_shared<PlotOptions>();
  auto* sub = app.add_subcommand("plot", "Redraw the plots of result folders from their CSVs (gnuplot), no search");
  sub->add_option("dirs", o->dirs, "Result folders (analyze: distribution.csv; compare: compare.csv)")->required();
  sub->add_flag("--plot-log,--log", o->log_scale,
                "Distribution plots with a logarithmic y axis (--log: the older spelling, kept)");
  return {sub, [o] { return run_plot(*o); }};
}

}  // namespace stategraph::cli
