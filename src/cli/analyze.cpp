#include <tbb/global_control.h>
#include <tbb/info.h>

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "analyze_graph.hpp"
#include "checkpoint_cli.hpp"
#include "commands.hpp"
#include "signals.hpp"
#include "stategraph/analysis/analysis.hpp"
#include "stategraph/bfs/bfs.hpp"
#include "stategraph/bfs/disk.hpp"
#include "stategraph/bfs/memory.hpp"
#include "stategraph/io/io.hpp"
#include "stategraph/io/log_text.hpp"
#include "stategraph/io/plot.hpp"
#include "stategraph/io/run_folder.hpp"
#include "stategraph/io/tables.hpp"
#include "stategraph/rules/rule.hpp"

namespace stategraph::cli {
namespace {

struct AnalyzeOptions {
  RuleCliOptions rule;  // options.hpp: --rule, --rows, --cols, --start, --directions, --metric
  std::string variant = "auto";
  std::string max_memory;
  std::string out;
  bool all = false;
  int threads = 0;
  bool quiet = false;
  bool verify = false;
  bool no_plot = false;             // --no-plot
  bool plot_log = false;            // --plot-log
  GraphCliOptions graph;            // analyze_graph.hpp
  CheckpointCliOptions checkpoint;  // checkpoint_cli.hpp
  std::string disk;                 // --disk DIR: the disk variant's folder
  std::uint64_t disk_segment = 0;   // --disk-segment RANKS (0: the largest that fits)
  double disk_delta = DiskSettings{}.delta_fraction;  // --disk-delta F
};

// Prints a progress line for a level that runs longer than a few seconds: share of
// the level's scan done, ranks scanned per second (every level scans the whole rank
// space, `ranks` of them) and ETA. Runs beside the BFS and stops with it.
class ProgressMonitor {
 public:
  ProgressMonitor(const BfsProgress& p, std::uint64_t ranks)
      : progress_(p), ranks_(static_cast<double>(ranks)), thread_([this] { loop(); }) {}
  ~ProgressMonitor() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }

 private:
  void loop() {
    using Clock = std::chrono::steady_clock;
    int depth = -1;
    Clock::time_point level_start = Clock::now(), last_print = level_start;
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(500), [this] { return stop_; })) {
      const int d = progress_.depth.load(std::memory_order_relaxed);
      const auto now = Clock::now();
      if (d != depth) depth = d, level_start = last_print = now;
      const double running = std::chrono::duration<double>(now - level_start).count();
      if (running < 5 || now - last_print < std::chrono::seconds(5)) continue;
      last_print = now;
      const double total = static_cast<double>(progress_.total.load(std::memory_order_relaxed));
      const double done = static_cast<double>(progress_.done.load(std::memory_order_relaxed));
      const double share = total > 0 ? done / total : 0;
      std::fprintf(stderr, "  depth %d: %.1f%% of the level scanned, %.0f s so far, %.1f M ranks/s, ETA %.0f s\n", d,
                   100 * share, running, share * ranks_ / running / 1e6,
                   share > 0 ? running * (1 - share) / share : 0.0);
    }
  }

  const BfsProgress& progress_;
  const double ranks_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

int run_analyze(const AnalyzeOptions& o) {
  // Build and check everything before any work, so a bad input writes nothing.
  std::vector<AnyRule> rules;
  if (o.all) {
    if (any_rule_option(o.rule))
      throw InputError(
          "--all analyses the four seed rules at seed size; drop --rule/--rows/--cols/--start/--directions/--metric");
    for (const auto& info : rule_table())
      if (info.seed) rules.push_back(make_rule(info.name));
  } else {
    rules.push_back(build_rule(o.rule, "analyze needs --rule NAME or --all (see 'stategraph rules')"));
  }
  // --resume DIR of a disk BFS continues it (its folder is DIR); any other --resume is a checkpoint.
  const bool disk_resume = !o.checkpoint.resume.empty() && holds_disk_run(o.checkpoint.resume);
  std::filesystem::path disk_dir = o.disk;
  CheckpointCliOptions checkpoint_options = o.checkpoint;
  std::string requested_variant = o.variant;
  if (disk_resume) {
    if (!o.disk.empty() && std::filesystem::path(o.disk) != std::filesystem::path(o.checkpoint.resume))
      throw InputError("--resume " + o.checkpoint.resume + " holds a disk BFS: its folder is its --disk (drop --disk " +
                       o.disk + ")");
    if (o.variant != "auto" && o.variant != "disk")
      throw InputError("--resume " + o.checkpoint.resume + " holds a disk BFS: it continues with --variant disk");
    disk_dir = o.checkpoint.resume;
    checkpoint_options.resume.clear();
    requested_variant = "disk";
  }
  CheckpointSession checkpoint(checkpoint_options, o.all);  // reads and checks --resume before any work
  const std::string variant_name = checkpoint.variant_for(requested_variant);
  if (variant_name != "auto") find_variant(variant_name);  // unknown names fail before any work
  const MemoryLimit memory = resolve_memory_limit(o.max_memory);
  const std::uint64_t limit = memory.bytes;
  const std::string& limit_source = memory.source;
  const int threads = effective_threads(o.threads);
  // Plots need gnuplot; without it the analysis runs and says once that plots were skipped.
  const bool plot = !o.no_plot && gnuplot_available();
  if (!o.no_plot && !plot) std::cerr << "stategraph: warning: " << gnuplot_missing_message() << "\n";
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  const StopOnSignals signals;  // SIGINT/SIGTERM: stop at a safe point, write nothing, exit 128 + signal
  int hook_signal = 0;
  const int hook_depth = test_signal_depth(hook_signal);

  for (const AnyRule& rule : rules) {
    const std::string label = std::string(rule_name(rule)) + "-" + rule_grid(rule).label();
    const std::string folder = run_label(rule, o.rule.start);  // a --start is part of the folder name
    std::filesystem::path dir;
    if (o.out.empty())
      dir = std::filesystem::path("results") / folder;
    else
      dir = o.all ? std::filesystem::path(o.out) / folder : std::filesystem::path(o.out);

    check_output_folder(dir);  // before the search, not after it
    BfsOptions bo;
    bo.want_depths = o.verify || rule_start(rule).has_value() || graph_wants_depths(o.graph);
    bo.disk.dir = disk_dir;
    bo.disk.memory = limit;
    bo.disk.segment_ranks = o.disk_segment;
    bo.disk.delta_fraction = o.disk_delta;
    bo.disk.resume = disk_resume;
    bo.disk.keep_done_manifest = true;  // removed below, once the results are written
    bo.disk.commit_seconds = o.checkpoint.interval;
    bo.disk.antipodes = o.graph.max_antipodes;
    if (const char* limit_text = std::getenv("STATEGRAPH_TEST_DISK_WRITE_LIMIT"))  // test seam: a full disk
      bo.disk.write_limit = std::strtoull(limit_text, nullptr, 10);
    // Checked before any allocation: the variant's buffers against the memory limit.
    const VariantInfo& variant = choose_variant(variant_name, rule, bo, limit, limit_source);
    GraphCliOptions graph_options = o.graph;
    if (variant.on_disk) {
      // Before anything is allocated or written: what it will hold, and room for its files.
      if (!o.checkpoint.checkpoint.empty())
        throw InputError(variant.disk_resumes ? "the disk variant commits every pass into its --disk folder; drop "
                                                "--checkpoint (resume with --resume " +
                                                    disk_dir.string() + ")"
                                              : "variant " + std::string(variant.name) +
                                                    " keeps no checkpoints; drop --checkpoint");
      if (o.verify)
        throw InputError("--verify needs a depth table, which variant " + std::string(variant.name) +
                         " does not keep");
      if (!(o.checkpoint.interval >= 0) || o.checkpoint.interval > 1e9)
        throw InputError("--checkpoint-interval must be between 0 and 1e9 seconds");
      const DiskPlan plan = variant.disk_plan(rule, bo.disk);
      if (!o.quiet)
        std::cerr << label << ": " << variant.name << " variant: " << plan.text << ", in " << disk_dir.string() << "\n";
      check_disk_folder(plan, bo.disk);
      if (!graph_options.skip && !o.quiet)
        std::cerr << label << ": graph phase skipped (variant " << variant.name
                  << " keeps no depth table; --no-graph says so)\n";
      graph_options.skip = true;
      bo.want_depths = false;
    }
    checkpoint.attach(rule, variant.name, bo);
    bo.stop = &signals.flag();
    const std::uint64_t need = variant.bytes_needed(rule, bo);
    BfsProgress progress;
    std::optional<ProgressMonitor> monitor;
    if (!o.quiet) {
      std::cerr << label << ": " << rule_size(rule) << " ranks, variant " << variant.name << ", "
                << count_text(static_cast<std::uint64_t>(threads), "thread") << ", needs " << need << " bytes ("
                << format_bytes(need) << " of " << format_bytes(limit) << " " << limit_source << ")\n";
      bo.progress = &progress;
      monitor.emplace(progress, rule_size(rule));
      bo.on_level = [disk = variant.on_disk](const LevelStat& l, std::uint64_t total) {
        std::cerr << "  depth " << l.depth << ": " << l.states << " new, " << total << " total, "
                  << seconds_text(l.seconds) << ", " << direction_name(l.direction);
        if (disk) std::cerr << ", read " << format_bytes(l.bytes_read) << ", wrote " << format_bytes(l.bytes_written);
        std::cerr << "\n";
      };
    }
    if (hook_depth >= 0)
      bo.on_level = [log = bo.on_level, hook_depth, hook_signal](const LevelStat& l, std::uint64_t total) {
        if (log) log(l, total);
        if (l.depth == hook_depth) std::raise(hook_signal);
      };
    auto interrupted = [&](int sig, const std::string& when) {
      monitor.reset();
      std::cerr << "stategraph: interrupted by " << signal_name(sig) << " " << when << " of " << label
                << "; no results written for it" << checkpoint.hint() << "\n";
      return 128 + sig;
    };
    std::optional<BfsResult> searched;
    const std::string disk_hint =
        variant.disk_resumes
            ? "; its files stay in " + disk_dir.string() + ": continue with --resume " + disk_dir.string()
            : "";
    try {
      searched.emplace(variant.run(rule, bo));
    } catch (const BfsInterrupted& e) {
      return interrupted(e.signal(), "during the BFS (after depth " + std::to_string(e.depth()) + ")" + disk_hint);
    } catch (const InputError&) {
      throw;
    } catch (const std::runtime_error& e) {
      if (!variant.on_disk) throw;
      throw std::runtime_error(std::string(e.what()) + disk_hint);  // a full disk: the committed passes are kept
    }
    const BfsResult& result = *searched;
    monitor.reset();
    if (result.disk_io && !o.quiet) {
      std::uint64_t read = 0, written = 0;
      for (const LevelStat& l : result.levels) read += l.bytes_read, written += l.bytes_written;
      std::cerr << "  disk: read " << format_bytes(read) << ", wrote " << format_bytes(written) << ", at most "
                << format_bytes(result.disk_peak_bytes) << " in " << disk_dir.string();
      if (result.disk_rounds_resent) std::cerr << "; " << result.disk_rounds_resent << " update rounds sent again";
      if (result.disk_update_merges)
        std::cerr << "; " << result.disk_update_merges << " merges of a segment's update files into one bitmap";
      std::cerr << "\n";
    }
    if (o.verify) {
      const std::string problem = verify_bfs(rule, result);
      if (!problem.empty()) throw std::runtime_error("verification failed: " + problem);
      if (!o.quiet) std::cerr << "  verified: depth table consistent with every move\n";
    }
    Summary summary = summarize(rule, result, std::string(variant.name), threads);
    std::optional<GraphOutputs> graphed;
    try {
      graphed.emplace(run_graph(rule, result, summary, graph_options, o.quiet, limit, &signals.flag()));
    } catch (const BfsInterrupted& e) {
      return interrupted(e.signal(), "during the graph phase");
    }
    const GraphOutputs& graph = *graphed;
    if (signals.signal()) return interrupted(signals.signal(), "after the BFS");
    // One run per folder: every file staged, then swapped in at once with run.csv.
    RunFolder run(dir);
    run.write("distribution.csv", distribution_with_paths(result, graph.paths).str());
    run.write("levels.csv", levels_table(result).str());
    run.write("summary.csv", summary_table(summary).str());
    for (const auto& [name, content] : graph.files) run.write(name, content);
    if (!result.last_layer.empty())  // no graph phase, but the disk variant kept the deepest layer's first ranks
      run.write("antipodes.csv", antipodes_table(rule, result.last_layer).str());
    if (plot) {
      // A plot failure leaves the analysis standing: one warning line, exit 0.
      try {
        const std::string title = distribution_title(label, summary.reachable, summary.space_size);
        render_plot(run.staging(), "distribution",
                    "made by: stategraph analyze (" + label + ", variant " + std::string(variant.name) + ")" +
                        (o.plot_log ? ", --plot-log" : "") + "\ndata: distribution.csv",
                    distribution_plot(title, result.layers, o.plot_log));
        for (const char* ext : {".gp", ".svg", ".png"}) run.add(std::string("distribution") + ext);
      } catch (const std::exception& e) {
        std::cerr << "stategraph: warning: plot not written for " << label << ": " << e.what() << "\n";
      }
    }
    RunRecord record = base_record("analyze");
    describe_rule(record, rule);
    record.variant = std::string(variant.name);
    record.threads = threads;
    run.commit(record);
    checkpoint.finished();
    if (variant.disk_resumes) {  // the results are written: the finished disk BFS's manifest goes
      std::error_code ec;
      std::filesystem::remove(disk_dir / kDiskManifest, ec);
    }
    std::cout << label << ": " << summary.reachable << " of " << summary.space_size << " states reachable, max depth "
              << summary.max_depth << " (" << count_text(summary.antipodes, "antipode") << ")";
    if (summary.start_distance) std::cout << ", start at distance " << *summary.start_distance;
    if (const auto s = rule_search_start(rule))
      std::cout << ", from start " << std::visit([&](const auto& r) { return r.format(*s); }, rule);
    std::cout << ", " << seconds_text(summary.seconds);
    if (summary.graph) {
      const Summary::Graph& g = *summary.graph;
      std::cout << "; graph: " << count_text(g.components, "component") << ", largest " << g.largest_component
                << ", diameter " << (g.diameter < 0 ? std::string("undetermined") : std::to_string(g.diameter)) << ", "
                << seconds_text(graph.seconds);
    }
    std::cout << " -> " << dir.string() << "/\n";
  }
  return 0;
}

}  // namespace

Command add_analyze(CLI::App& app) {
  auto o = std::make_shared<AnalyzeOptions>();
  auto* sub = app.add_subcommand("analyze",
                                 "Breadth-first search of a whole state space from the goal (or --start); writes CSVs");
  add_rule_options(sub, o->rule, kAllRuleFlags);
  const std::vector<const VariantInfo*> order = auto_variants();
  std::string variants = "auto (fastest that fits: ";
  for (std::size_t i = 0; i < order.size(); ++i)
    variants += (i == 0 ? "" : i + 1 == order.size() ? ", then " : ", ") + std::string(order[i]->name);
  variants += ")";
  for (const auto& v : variant_table()) variants += ", " + std::string(v.name);
  sub->add_option("--variant", o->variant, "BFS variant: " + variants)->capture_default_str();
  sub->add_option("--max-memory", o->max_memory,
                  "Refuse to run (exit 2) when the variant needs more bytes than this (K/M/G suffixes); "
                  "default: MemAvailable");
  sub->add_option("--out", o->out,
                  "Output folder (default results/<rule>-<rows>x<cols>/, with a --start results/<rule>-<rows>x<cols>"
                  "-start-<board>/; with --all, the parent)");
  sub->add_flag("--all", o->all, "Analyse the four seed rules at seed size (3x3, cardswap 2x3)");
  add_threads_option(sub, o->threads);
  sub->add_flag("--quiet", o->quiet, "No per-level log on stderr");
  sub->add_flag("--verify", o->verify, "Check the depth table against every move (slow on big spaces)");
  sub->add_flag("--no-plot", o->no_plot, "Do not draw distribution.svg/.png (gnuplot)");
  sub->add_flag("--plot-log", o->plot_log, "Draw the distribution with a logarithmic y axis");
  add_graph_options(sub, o->graph);
  add_checkpoint_options(sub, o->checkpoint);
  sub->add_option("--disk", o->disk,
                  "Folder for the disk variant's files (--variant disk, or auto when no in-memory variant fits "
                  "--max-memory): its memory stays under --max-memory, the rest of the search lives here; "
                  "--resume DIR continues a killed run");
  sub->add_option("--disk-segment", o->disk_segment,
                  "Ranks per segment of the disk variant (default: the largest that fits --max-memory)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--disk-delta", o->disk_delta,
                  "The disk variant writes a pass's new visited bits of a segment as a delta file while its "
                  "deltas stay under this fraction of the segment's bits, then the bits whole (0: whole after "
                  "every pass; at most 0.5)")
      ->check(CLI::Range(0.0, 0.5))
      ->capture_default_str();
  return {sub, [o] { return run_analyze(*o); }};
}

}  // namespace stategraph::cli
