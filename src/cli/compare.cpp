// `stategraph compare` (issue 6): every variant x thread count on one space, in one
// process, interleaved after a warm-up run; checks that every run found the same
// per-depth counts (a mismatch exits 1) and writes compare.csv, compare_levels.csv,
// compare_summary.csv, meta.csv and (with gnuplot) the plots compare_seconds.* and
// compare_levels.*; a summary table goes to stdout.
#include <sys/utsname.h>
#include <tbb/info.h>
#include <tbb/version.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "build_info.hpp"
#include "commands.hpp"
#include "stategraph/analysis/compare.hpp"
#include "stategraph/io/io.hpp"
#include "stategraph/bfs/memory.hpp"
#include "stategraph/io/plot.hpp"
#include "stategraph/rules/rule.hpp"
#include "stategraph/io/tables.hpp"

#ifndef STATEGRAPH_BUILD_TYPE
#define STATEGRAPH_BUILD_TYPE "unknown"
#endif
#ifndef STATEGRAPH_VERSION
#define STATEGRAPH_VERSION "unknown"
#endif

namespace stategraph::cli {
namespace {

struct CompareCliOptions {
  std::string rule;
  int rows = 0, cols = 0;
  std::string start;
  std::vector<std::string> variants = variant_names_by_kind();
  std::vector<int> threads;  // default: 1 and all cores
  int repeat = 5;
  std::string max_memory;
  std::string out;
  bool quiet = false;
  bool no_plot = false;
};

std::string join(const std::vector<std::string>& v, const char* sep = ",") {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string proc_value(const char* file, const std::string& key) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (line.compare(0, key.size(), key) == 0) {
      auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      auto v = line.substr(colon + 1);
      v.erase(0, v.find_first_not_of(" \t"));
      return v;
    }
  return "";
}

std::uint64_t meminfo_bytes(const std::string& key) {
  const std::string v = proc_value("/proc/meminfo", key);
  return v.empty() ? 0 : std::stoull(v) * 1024;  // "12345 kB"
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a.empty() ? "" : a + " " + b + " " + c;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string fmt(double v, const char* f = "%.4g") {
  char buf[48];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

int run_compare_command(const CompareCliOptions& o) {
  // Everything checked before any run, so bad input writes nothing.
  if (o.rule.empty()) throw InputError("compare needs --rule NAME (see 'stategraph rules')");
  if ((o.rows == 0) != (o.cols == 0)) throw InputError("give both --rows and --cols, or neither");
  RuleOptions ro;
  if (!o.start.empty()) ro.start = o.start;
  const AnyRule rule = make_rule(o.rule, o.rows, o.cols, ro);
  if (o.repeat < 1) throw InputError("--repeat must be at least 1");
  CompareOptions co;
  std::set<std::string> seen;
  for (const auto& name : o.variants) {
    if (name == "auto") throw InputError("compare runs named variants; 'auto' is not one (list them, e.g. hybrid,twobit)");
    co.variants.push_back(find_variant(name));
    if (!seen.insert(name).second) throw InputError("variant '" + name + "' listed twice in --variants");
  }
  if (co.variants.empty()) throw InputError("--variants needs at least one variant");
  const int cores = tbb::info::default_concurrency();
  std::vector<int> threads = o.threads;
  if (threads.empty()) {
    threads = {1};
    if (cores > 1) threads.push_back(cores);
  }
  std::set<int> seen_threads;
  for (int t : threads) {
    if (t < 1) throw InputError("--threads takes positive thread counts, got " + std::to_string(t));
    if (t > cores)
      throw InputError("--threads " + std::to_string(t) + " is more than the " + std::to_string(cores) +
                       " cores oneTBB can use here");
    if (!seen_threads.insert(t).second) throw InputError("thread count " + std::to_string(t) + " listed twice");
  }
  co.threads = threads;
  co.repeat = o.repeat;
  std::uint64_t limit = available_memory();
  co.limit_source = "available memory (MemAvailable)";
  if (!o.max_memory.empty()) {
    const std::uint64_t cap = parse_bytes(o.max_memory);
    if (limit == 0 || cap < limit) limit = cap, co.limit_source = "--max-memory limit";
  }
  if (limit == 0) limit = ~std::uint64_t{0}, co.limit_source = "unknown memory";
  co.memory_limit = limit;
  const std::string label = std::string(rule_name(rule)) + "-" + rule_grid(rule).label();
  const std::filesystem::path dir =
      o.out.empty() ? std::filesystem::path("results") / ("compare-" + label) : std::filesystem::path(o.out);
  if (!o.quiet) co.log = [](const std::string& line) { std::cerr << "  " << line << "\n"; };

  std::vector<std::string> thread_names;
  for (int t : threads) thread_names.push_back(std::to_string(t));
  std::string command = "stategraph compare --rule " + std::string(rule_name(rule)) + " --rows " +
                        std::to_string(rule_grid(rule).rows) + " --cols " + std::to_string(rule_grid(rule).cols);
  if (!o.start.empty()) command += " --start '" + o.start + "'";
  command += " --variants " + join(o.variants) + " --threads " + join(thread_names) + " --repeat " +
             std::to_string(o.repeat);
  if (!o.max_memory.empty()) command += " --max-memory " + o.max_memory;

  const std::string started = utc_now(), load_before = load_average();
  const CompareReport report = run_compare(rule, co);
  const CompareSummary summary = summarize_compare(report);

  CsvTable meta({"key", "value"});
  auto put = [&](const std::string& k, const std::string& v) { meta.add_row({k, v}); };
  utsname un{};
  ::uname(&un);
  put("command", command);
  put("started_utc", started);
  put("finished_utc", utc_now());
  put("stategraph_version", STATEGRAPH_VERSION);
  put("git_revision", STATEGRAPH_GIT_REVISION);
  put("build_type", STATEGRAPH_BUILD_TYPE);
  put("compiler", std::string(STATEGRAPH_COMPILER) + " (" + __VERSION__ + ")");
  put("march_native", STATEGRAPH_NATIVE_FLAG);
  put("tbb_version", TBB_VERSION_STRING);
  put("cpu_model", proc_value("/proc/cpuinfo", "model name"));
  put("cores", std::to_string(std::thread::hardware_concurrency()));
  put("tbb_default_concurrency", std::to_string(cores));
  put("memory_total_bytes", std::to_string(meminfo_bytes("MemTotal")));
  put("memory_available_bytes", std::to_string(meminfo_bytes("MemAvailable")));
  put("kernel", std::string(un.sysname) + " " + un.release + " " + un.machine);
  put("load_average_before", load_before);
  put("load_average_after", load_average());
  put("rule", report.rule);
  put("rows", std::to_string(report.rows));
  put("cols", std::to_string(report.cols));
  put("space_size", std::to_string(report.space_size));
  std::uint64_t reached = 0;
  for (auto c : report.layers) reached += c;
  put("reachable", std::to_string(reached));
  put("max_depth", std::to_string(static_cast<long>(report.layers.size()) - 1));
  put("variants", join(report.variants));
  put("threads", join(thread_names));
  put("repeat", std::to_string(report.repeat));
  put("warmup", report.warmup_variant + " at " + std::to_string(report.warmup_threads) + " threads, " +
                    fmt_double(report.warmup_seconds) + " s (with a depth table when edges are counted)");
  put("edges_examined", report.edges ? std::to_string(report.edges) : "");
  put("order", "interleaved: each repeat runs every variant x threads once, starting one variant later each repeat");
  put("notes", join(report.notes, "; "));

  FileSet files(dir);
  files.stage("compare.csv", compare_table(report).str());
  files.stage("compare_levels.csv", compare_levels_table(report).str());
  files.stage("compare_summary.csv", compare_summary_table(report, summary).str());
  files.stage("meta.csv", meta.str());
  files.commit();

  // The summary on stdout.
  const std::string base = std::to_string(summary.base_threads);
  std::cout << "compare " << label << ": " << reached << " of " << report.space_size << " states reachable, max depth "
            << report.layers.size() - 1 << "; per-depth counts identical in all " << report.runs.size() + 1
            << " runs (warm-up included)\n";
  std::printf("%-10s %7s %11s %11s %11s %10s %10s %12s\n", "variant", "threads", "median_s", "min_s", "max_s",
              "vs_serial", ("vs_" + base + "_thr").c_str(), "states_per_s");
  for (std::size_t i = 0; i < summary.cells.size(); ++i) {
    const auto& c = summary.cells[i];
    std::printf("%-10s %7d %11.6f %11.6f %11.6f %10s %10s %12s%s\n", c.variant.c_str(), c.threads, c.median_seconds,
                c.min_seconds, c.max_seconds, c.speedup_vs_serial ? (fmt(*c.speedup_vs_serial, "%.2f") + "x").c_str() : "-",
                c.speedup_vs_base_threads ? (fmt(*c.speedup_vs_base_threads, "%.2f") + "x").c_str() : "-",
                fmt(c.median_states_per_s, "%.3g").c_str(), i == summary.fastest ? "  <- fastest" : "");
  }
  std::fflush(stdout);
  const auto& best = summary.cells[summary.fastest];
  std::cout << "fastest: " << best.variant << " at " << best.threads << " thread" << (best.threads == 1 ? "" : "s")
            << " (median " << fmt(best.median_seconds) << " s over " << best.runs << " runs)\n";
  for (const auto& note : report.notes) std::cout << "note: " << note << "\n";

  if (!o.no_plot) {
    if (!gnuplot_available()) {
      std::cerr << "stategraph: warning: " << gnuplot_missing_message() << "\n";
    } else {
      try {
        const std::string comment = "made by: " + command + "\ndata: compare_summary.csv (" + started + ")";
        render_plot(dir, "compare_seconds", comment, compare_seconds_plot(report, summary));
        const std::string levels = compare_levels_plot(report);
        if (!levels.empty())
          render_plot(dir, "compare_levels", "made by: " + command + "\ndata: compare_levels.csv (" + started + ")",
                      levels);
      } catch (const std::exception& e) {
        std::cerr << "stategraph: warning: plots not written: " << e.what() << "\n";
      }
    }
  }
  std::cout << "-> " << dir.string() << "/\n";
  return 0;
}

}  // namespace

Command add_compare(CLI::App& app) {
  auto o = std::make_shared<CompareCliOptions>();
  auto* sub = app.add_subcommand(
      "compare",
      "Time BFS variants x thread counts on one space (interleaved, after a warm-up), check they agree; "
      "writes compare.csv, compare_levels.csv, compare_summary.csv, meta.csv and plots");
  sub->add_option("--rule", o->rule, "Move rule (see 'stategraph rules')");
  sub->add_option("--rows", o->rows, "Grid rows (default: the rule's seed size)");
  sub->add_option("--cols", o->cols, "Grid columns (default: the rule's seed size)");
  sub->add_option("--start", o->start, "cardswap start position, rows split by '/'");
  sub->add_option("--variants", o->variants, "Comma-separated BFS variants, run in this order")
      ->delimiter(',')
      ->capture_default_str();
  sub->add_option("--threads", o->threads, "Comma-separated thread counts (default: 1 and all cores)")
      ->delimiter(',');
  sub->add_option("--repeat", o->repeat, "Timed runs of every variant x threads")->capture_default_str();
  sub->add_option("--max-memory", o->max_memory,
                  "Memory limit (K/M/G suffixes; default MemAvailable): reference is skipped above it, "
                  "any other variant above it is an error");
  sub->add_option("--out", o->out, "Output folder (default results/compare-<rule>-<rows>x<cols>/)");
  sub->add_flag("--quiet", o->quiet, "No per-run log on stderr");
  sub->add_flag("--no-plot", o->no_plot, "Do not draw the plots (gnuplot)");
  return {sub, [o] { return run_compare_command(*o); }};
}

}  // namespace stategraph::cli
