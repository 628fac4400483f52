// `stategraph compare`: every variant x thread count on one space, in one process,
// interleaved after a warm-up run; checks that every run found the same per-depth counts
// (a mismatch exits 1) and writes compare.csv, compare_levels.csv, compare_summary.csv,
// meta.csv, run.csv and (with gnuplot) the plots compare_seconds.* and compare_levels.*,
// as one run (RunFolder); a summary table goes to stdout. SIGINT/SIGTERM: one line, 128 + signal (inside a run too).
#include "stategraph/analysis/compare.hpp"

#include <sys/utsname.h>
#include <tbb/info.h>
#include <tbb/version.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "build_info.hpp"
#include "commands.hpp"
#include "signals.hpp"
#include "stategraph/bfs/memory.hpp"
#include "stategraph/io/io.hpp"
#include "stategraph/io/log_text.hpp"
#include "stategraph/io/plot.hpp"
#include "stategraph/io/run_folder.hpp"
#include "stategraph/io/tables.hpp"
#include "stategraph/rules/rule.hpp"

#ifndef STATEGRAPH_BUILD_TYPE
#define STATEGRAPH_BUILD_TYPE "unknown"
#endif
#ifndef STATEGRAPH_VERSION
#define STATEGRAPH_VERSION "unknown"
#endif

namespace stategraph::cli {
namespace {

struct CompareCliOptions {
  RuleCliOptions rule;  // options.hpp
  std::vector<std::string> variants = variant_names_by_kind();
  std::vector<int> threads;  // default: 1 and all cores
  int repeat = 5;
  std::string max_memory;
  std::string out;
  bool quiet = false;
  bool no_plot = false;
  std::string disk;             // --disk DIR: the disk variant's folder (a fresh subfolder per run)
  bool variants_given = false;  // --variants was on the command line
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

std::string fmt(double v, const char* f = "%.4g") {
  char buf[48];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// Thrown from the progress callback when a signal arrived: compare stops between runs.
struct CompareInterrupted {
  int signal;
};

int run_compare_command(const CompareCliOptions& o) {
  // Everything checked before any run, so bad input writes nothing.
  const AnyRule rule = build_rule(o.rule, "compare needs --rule NAME (see 'stategraph rules')");
  if (o.repeat < 1) throw InputError("--repeat must be at least 1");
  CompareOptions co;
  co.disk.dir = o.disk;
  std::set<std::string> seen;
  for (const auto& name : o.variants) {
    // The default list has the disk variant only with a folder for it.
    if (!o.variants_given && o.disk.empty() && lookup_variant(name) && lookup_variant(name)->on_disk) continue;
    if (name == "auto")
      throw InputError("compare runs named variants; 'auto' is not one (list them, e.g. hybrid,twobit)");
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
    check_thread_count(t);
    if (!seen_threads.insert(t).second) throw InputError("thread count " + std::to_string(t) + " listed twice");
  }
  for (int t : threads)
    if (t > cores && !o.quiet)
      std::cerr << "stategraph: warning: --threads " << t << " is more than the " << cores
                << " cores oneTBB can use here; those runs share cores\n";
  co.threads = threads;
  co.repeat = o.repeat;
  const MemoryLimit memory = resolve_memory_limit(o.max_memory);
  co.memory_limit = memory.bytes;
  co.limit_source = memory.source;
  const std::string label = std::string(rule_name(rule)) + "-" + rule_grid(rule).label();
  const std::filesystem::path dir =
      o.out.empty() ? std::filesystem::path("results") / ("compare-" + run_label(rule, o.rule.start))
                    : std::filesystem::path(o.out);
  check_output_folder(dir, true);  // before any run: a bad --out is a usage error (exit 2)

  // Progress lines; the runs poll the signal flag, and between runs the callback stops the
  // experiment when a signal came.
  const StopOnSignals signals;
  int hook_line = 0, hook_signal = 0;  // test hook: STATEGRAPH_TEST_SIGNAL_AT_LINE=N:SIG
  if (const char* hook = std::getenv("STATEGRAPH_TEST_SIGNAL_AT_LINE"))
    if (std::sscanf(hook, "%d:%d", &hook_line, &hook_signal) != 2) hook_line = 0;
  int lines = 0, completed = 0, total = 0;
  co.stop = &signals.flag();
  co.log = [&](const std::string& line) {
    if (!o.quiet) std::cerr << "  " << line << "\n";
    int k = 0, n = 0;
    if (std::sscanf(line.c_str(), "[%d/%d]", &k, &n) == 2) {
      total = n;
      completed = line.find("warm-up") != std::string::npos ? k - 1 : k;
    }
    if (++lines == hook_line) std::raise(hook_signal);
    if (signals.signal()) throw CompareInterrupted{signals.signal()};
  };

  std::vector<std::string> thread_names;
  for (int t : threads) thread_names.push_back(std::to_string(t));
  std::string command = "stategraph compare --rule " + std::string(rule_name(rule)) + " --rows " +
                        std::to_string(rule_grid(rule).rows) + " --cols " + std::to_string(rule_grid(rule).cols);
  if (!o.rule.start.empty()) command += " --start '" + o.rule.start + "'";
  if (!o.rule.directions.empty()) command += " --directions " + o.rule.directions;
  if (!o.rule.metric.empty()) command += " --metric " + o.rule.metric;
  command +=
      " --variants " + join(o.variants) + " --threads " + join(thread_names) + " --repeat " + std::to_string(o.repeat);
  if (!o.max_memory.empty()) command += " --max-memory " + o.max_memory;

  const std::string started = utc_now(), load_before = load_average();
  auto interrupted = [&](int sig) {
    std::cerr << "stategraph: compare interrupted by " << signal_name(sig) << " after " << completed << " of " << total
              << " runs (warm-up included); nothing written to " << dir.string() << "/\n";
    return 128 + sig;
  };
  std::optional<CompareReport> ran;
  try {
    ran.emplace(run_compare(rule, co));
  } catch (const CompareInterrupted& e) {
    return interrupted(e.signal);
  } catch (const BfsInterrupted& e) {  // inside a run
    return interrupted(e.signal());
  }
  if (signals.signal()) return interrupted(signals.signal());  // during the last run
  const CompareReport& report = *ran;
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

  // One run per folder: the CSVs and plots staged, then swapped in at once with run.csv.
  RunFolder run(dir);
  run.write("compare.csv", compare_table(report).str());
  run.write("compare_levels.csv", compare_levels_table(report).str());
  run.write("compare_summary.csv", compare_summary_table(report, summary).str());
  run.write("meta.csv", meta.str());
  if (!o.no_plot) {
    if (!gnuplot_available()) {
      std::cerr << "stategraph: warning: " << gnuplot_missing_message() << "\n";
    } else {
      try {
        const std::string comment = "made by: " + command + "\ndata: compare_summary.csv (" + started + ")";
        render_plot(run.staging(), "compare_seconds", comment, compare_seconds_plot(report, summary));
        for (const char* ext : {".gp", ".svg", ".png"}) run.add(std::string("compare_seconds") + ext);
        const std::string levels = compare_levels_plot(report);
        if (!levels.empty()) {
          render_plot(run.staging(), "compare_levels",
                      "made by: " + command + "\ndata: compare_levels.csv (" + started + ")", levels);
          for (const char* ext : {".gp", ".svg", ".png"}) run.add(std::string("compare_levels") + ext);
        }
      } catch (const std::exception& e) {
        std::cerr << "stategraph: warning: plots not written: " << e.what() << "\n";
      }
    }
  }
  RunRecord record = base_record("compare");
  describe_rule(record, rule);
  record.variant = join(report.variants, ";");
  record.threads = threads.back();
  record.notes = "threads " + join(thread_names, ";") + ", repeat " + std::to_string(report.repeat) + ", warm-up " +
                 report.warmup_variant + " at " + std::to_string(report.warmup_threads) + " threads" +
                 (report.notes.empty() ? "" : "; " + join(report.notes, "; "));
  run.commit(record);

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
                c.min_seconds, c.max_seconds,
                c.speedup_vs_serial ? (fmt(*c.speedup_vs_serial, "%.2f") + "x").c_str() : "-",
                c.speedup_vs_base_threads ? (fmt(*c.speedup_vs_base_threads, "%.2f") + "x").c_str() : "-",
                sig3(c.median_states_per_s).c_str(), i == summary.fastest ? "  <- fastest" : "");
  }
  std::fflush(stdout);
  const auto& best = summary.cells[summary.fastest];
  std::cout << "fastest: " << best.variant << " at " << count_text(static_cast<std::uint64_t>(best.threads), "thread")
            << " (median " << seconds_text(best.median_seconds) << " over "
            << count_text(static_cast<std::uint64_t>(best.runs), "run") << ")\n";
  for (const auto& note : report.notes) std::cout << "note: " << note << "\n";

  std::cout << "-> " << dir.string() << "/\n";
  return 0;
}

}  // namespace

Command add_compare(CLI::App& app) {
  auto o = std::make_shared<CompareCliOptions>();
  auto* sub = app.add_subcommand(
      "compare",
      "Time BFS variants x thread counts on one space (interleaved, after a warm-up), check they agree; "
      "writes compare.csv, compare_levels.csv, compare_summary.csv, meta.csv, run.csv and plots");
  add_rule_options(sub, o->rule, kAllRuleFlags);
  auto* variants = sub->add_option("--variants", o->variants,
                                   "Comma-separated BFS variants, run in this order (the default has disk only "
                                   "with --disk)")
                       ->delimiter(',')
                       ->capture_default_str();
  sub->add_option(
         "--threads", o->threads,
         "Comma-separated thread counts, each 1 to " + std::to_string(kMaxThreads) + " (default: 1 and all cores)")
      ->delimiter(',');
  sub->add_option("--repeat", o->repeat, "Timed runs of every variant x threads")->capture_default_str();
  sub->add_option("--max-memory", o->max_memory,
                  "Memory limit (K/M/G suffixes; default MemAvailable): reference is skipped above it, "
                  "any other variant above it is an error");
  sub->add_option("--out", o->out,
                  "Output folder (default results/compare-<rule>-<rows>x<cols>/, with a --start ...-start-<board>/); "
                  "checked before any run");
  sub->add_flag("--quiet", o->quiet, "No per-run log on stderr");
  sub->add_flag("--no-plot", o->no_plot, "Do not draw the plots (gnuplot)");
  sub->add_option("--disk", o->disk, "Folder for the disk variant's files (each of its runs uses it and empties it)");
  return {sub, [o, variants] {
            o->variants_given = variants->count() > 0;
            return run_compare_command(*o);
          }};
}

}  // namespace stategraph::cli
