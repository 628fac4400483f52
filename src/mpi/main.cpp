// stategraph-mpi: the BFS of `stategraph analyze --no-graph` distributed over MPI
// processes. Run as `mpirun -np P stategraph-mpi --rule NAME ...`.
// A separate binary keeps MPI out of the main tool: `stategraph` stays one plain
// executable that needs no MPI runtime, and this one links the same core library.
//
// Failure handling, so that no process is left waiting in a collective:
//  * set-up (arguments, rule, partition, memory check) runs on every process; the
//    processes agree with one MPI_Allreduce whether any failed, the first failing one
//    prints its one-line message and all exit with its code (2 for bad input);
//  * a failure after that (allocation, anything thrown inside the search) on any
//    process prints "stategraph-mpi: error: process k of P: ..." and calls MPI_Abort,
//    which ends every process of the job;
//  * only process 0 writes files (one run per folder: staged, swapped in at once with
//    run.csv, see io/run_folder.hpp) and broadcasts whether that worked, so all exit
//    with the same code.
#include <mpi.h>
#include <sched.h>
#include <tbb/global_control.h>
#include <tbb/info.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <optional>
#include <sstream>
#include <string>

#include "cli/options.hpp"
#include "dist_bfs.hpp"
#include "stategraph/analysis/analysis.hpp"
#include "stategraph/analysis/graph.hpp"
#include "stategraph/bfs/memory.hpp"
#include "stategraph/io/io.hpp"
#include "stategraph/io/log_text.hpp"
#include "stategraph/io/run_folder.hpp"
#include "stategraph/io/tables.hpp"
#include "stategraph/rules/rule.hpp"

namespace stategraph::mpi {
namespace {

struct Options {
  cli::RuleCliOptions rule;  // the options block every command shares (src/cli/options.hpp)
  std::string variant = "hybrid";
  std::string out;
  std::string max_memory;
  std::string exchange;
  std::string bottomup_exchange = "query";
  int threads = 0;
  bool quiet = false;
};

// Everything the set-up decides, identical on every process.
struct Plan {
  Options o;
  std::optional<AnyRule> rule;
  Partition part;
  DistOptions dist;
  std::filesystem::path dir;
  int threads = 1;
  std::uint64_t need = 0, limit = 0;
  std::string limit_source;
  std::string label;
  int local_procs = 1;
  int bound_cores = 0;  // cores this process may run on (its affinity mask), 0 when unknown
};

struct SetupExit {  // help printed, or an error: exit with `code`
  int code;
  std::string message;  // one line, empty for help
};

// Peak resident set size of this process (VmHWM), 0 when unknown.
std::uint64_t peak_rss() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  return 0;
}

Plan setup(int argc, char** argv, int procs, int me, int local_procs) {
  Plan plan;
  Options& o = plan.o;
  CLI::App app{
      "stategraph-mpi: the breadth-first search of 'stategraph analyze --no-graph', distributed over MPI\n"
      "processes (run under mpirun -np P). Each process owns a contiguous block of the rank space;\n"
      "process 0 writes distribution.csv, levels.csv, summary.csv (plus a 'processes' column and\n"
      "communication totals) and mpi_levels.csv (bytes and seconds of communication per level).",
      "stategraph-mpi"};
  app.set_version_flag("--version", cli::version_text("stategraph-mpi"),
                       "Print the version and the git revision of this build, then exit");
  cli::add_rule_options(&app, o.rule, cli::kAllRuleFlags);
  app.get_option("--rule")->required();
  app.add_option("--variant", o.variant,
                 "hybrid (direction-optimizing, as 'analyze --variant hybrid'), topdown, or bottomup")
      ->capture_default_str();
  app.add_option("--out", o.out,
                 "Output folder (default results/<rule>-<rows>x<cols>/, with a --start ...-start-<board>/)");
  cli::add_threads_option(&app, o.threads, "Worker threads per process");
  app.add_option("--max-memory", o.max_memory,
                 "Refuse to run (exit 2) when a process needs more bytes than this (K/M/G suffixes); default: "
                 "MemAvailable shared by the processes on each machine");
  app.add_option("--exchange-buffer", o.exchange,
                 "Bytes of remote ranks (4 each) a process batches per exchange round (default: a quarter of a block "
                 "bitset, >= 256K)");
  app.add_option("--bottomup-exchange", o.bottomup_exchange,
                 "How bottom-up levels learn the remote frontier: 'query' (ask the owners of remote parents; memory "
                 "~1/P) or 'gather' (MPI_Allgatherv of the whole frontier; n bits on every process)")
      ->capture_default_str();
  app.add_flag("--quiet", o.quiet, "No per-level log on stderr");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    if (me == 0) std::cout << app.help();
    throw SetupExit{0, ""};
  } catch (const CLI::CallForVersion&) {
    if (me == 0) std::cout << cli::version_text("stategraph-mpi") << "\n";
    throw SetupExit{0, ""};
  } catch (const CLI::ParseError& e) {
    throw SetupExit{2, std::string("stategraph-mpi: error: ") + e.what() + " (see --help)"};
  }

  plan.threads = cli::effective_threads(o.threads);
  plan.rule = cli::build_rule(o.rule, "stategraph-mpi needs --rule NAME");
  const AnyRule& rule = *plan.rule;
  const VariantInfo* variant = lookup_variant(o.variant);
  if (!variant || !variant->has_mpi)
    throw InputError("unknown --variant '" + shown_input(o.variant) + "' (stategraph-mpi has " +
                     variant_names([](const VariantInfo& v) { return v.has_mpi; }) + ")");
  plan.dist.policy = variant->mpi_policy;
  if (!o.exchange.empty()) plan.dist.exchange_bytes = parse_bytes(o.exchange);
  if (o.bottomup_exchange == "gather")
    plan.dist.gather_bottomup = true;
  else if (o.bottomup_exchange != "query")
    throw InputError("unknown --bottomup-exchange '" + o.bottomup_exchange + "' (query or gather)");
  std::visit(
      [&](const auto& r) {
        if constexpr (requires { r.start(); }) plan.dist.watch = r.start();
      },
      rule);
  // Test hooks: one process fails in the search at depth 1, or rejects its input alone
  // (as when one machine reads a different --start file).
  if (const char* f = std::getenv("STATEGRAPH_MPI_FAIL_RANK"); f && std::atoi(f) == me) plan.dist.fail_at_depth = 1;
  if (const char* f = std::getenv("STATEGRAPH_MPI_BAD_INPUT_RANK"); f && std::atoi(f) == me)
    throw InputError("simulated bad input on process " + std::to_string(me));

  plan.part = make_partition(rule_size(rule), procs, me);
  plan.need = bytes_per_process(rule, plan.part, plan.dist);
  plan.local_procs = local_procs;
  const cli::MemoryLimit memory = cli::resolve_memory_limit(o.max_memory, static_cast<std::uint64_t>(local_procs));
  plan.limit = memory.bytes;
  plan.limit_source = memory.source;
  if (plan.need > plan.limit)
    throw InputError("each process needs " + format_bytes(plan.need) + " (" + std::to_string(plan.need) +
                     " bytes), more than the " + format_bytes(plan.limit) + " " + plan.limit_source +
                     (plan.dist.gather_bottomup && plan.dist.policy != DirectionPolicy::kTopDown
                          ? ": use more processes or --bottomup-exchange query"
                          : ": use more processes"));
  if (cpu_set_t set; sched_getaffinity(0, sizeof set, &set) == 0) plan.bound_cores = CPU_COUNT(&set);
  plan.label = std::string(rule_name(rule)) + "-" + rule_grid(rule).label();
  plan.dir = o.out.empty() ? std::filesystem::path("results") / cli::run_label(rule, o.rule.start)
                           : std::filesystem::path(o.out);
  if (me == 0) cli::check_output_folder(plan.dir);  // before the search, on the process that writes
  return plan;
}

// summary.csv as `analyze` writes it, then the distributed run's columns at the end.
CsvTable summary_csv(const Summary& s, int procs, std::uint64_t bytes_sent, double comm_seconds, std::uint64_t rss,
                     const std::string& bottomup_exchange) {
  CsvTable t = summary_table(s);
  t.add_column("processes", {std::to_string(procs)});
  t.add_column("bytes_sent", {std::to_string(bytes_sent)});
  t.add_column("comm_seconds", {fmt_double(comm_seconds)});
  t.add_column("max_rss_bytes", {std::to_string(rss)});
  t.add_column("bottomup_exchange", {bottomup_exchange});
  return t;
}

CsvTable mpi_levels_table(const DistResult& r) {
  CsvTable t({"depth", "states", "direction", "rounds", "bytes_sent", "remote_ranks", "list32_bytes", "bitmap_bytes",
              "compute_seconds", "comm_seconds", "seconds"});
  for (const auto& l : r.comm)
    t.add_row({std::to_string(l.depth), std::to_string(l.states), std::string(direction_name(l.direction)),
               std::to_string(l.rounds), std::to_string(l.bytes_sent), std::to_string(l.remote_ranks),
               std::to_string(l.list32_bytes), std::to_string(l.bitmap_bytes), fmt_double(l.compute_seconds),
               fmt_double(l.comm_seconds), fmt_double(l.seconds)});
  return t;
}

[[noreturn]] void abort_job(int procs, int me, const std::string& what, int code) {
  std::fprintf(stderr, "stategraph-mpi: error: process %d of %d: %s\n", me, procs, what.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

int run(int argc, char** argv) {
  int procs = 1, me = 0, local_procs = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &local_procs);
  MPI_Comm_free(&node);

  // Set-up on every process; agree on the outcome before any collective work.
  Plan plan;
  std::optional<SetupExit> exit;
  try {
    plan = setup(argc, argv, procs, me, local_procs);
  } catch (const SetupExit& e) {
    exit = e;
  } catch (const InputError& e) {
    exit = SetupExit{2, std::string("stategraph-mpi: error: ") + e.what()};
  } catch (const std::exception& e) {
    exit = SetupExit{1, std::string("stategraph-mpi: error: ") + e.what()};
  }
  // The first process whose set-up failed (or procs when none) speaks for all.
  int first = exit && exit->code != 0 ? me : procs;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first < procs) {
    int code = me == first ? exit->code : 0;
    if (me == first) std::cerr << exit->message << "\n";
    MPI_Bcast(&code, 1, MPI_INT, first, MPI_COMM_WORLD);
    return code;
  }
  int help = exit ? 1 : 0;  // help on some process: all stop
  MPI_Allreduce(MPI_IN_PLACE, &help, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (help) return 0;

  const AnyRule& rule = *plan.rule;
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(plan.threads));
  const std::string& label = plan.label;
  if (me == 0 && !plan.o.quiet) {
    const std::uint64_t single = 3 * ((rule_size(rule) + 63) / 64 * 8);
    std::cerr << label << ": " << rule_size(rule) << " ranks over "
              << count_text(static_cast<std::uint64_t>(procs), "process", "processes") << " (" << local_procs
              << " on this machine), blocks of " << plan.part.block << " ranks, variant " << plan.o.variant
              << " (bottom-up exchange: " << plan.o.bottomup_exchange << "), "
              << count_text(static_cast<std::uint64_t>(plan.threads), "thread") << " each\n"
              << "  memory: each process needs up to " << format_bytes(plan.need) << " (" << plan.need
              << " bytes; single-process hybrid: " << format_bytes(single) << ", ratio "
              << sig3(static_cast<double>(plan.need) / static_cast<double>(single)) << ") of "
              << format_bytes(plan.limit) << " " << plan.limit_source << "\n";
  }
  // Open MPI binds each process to one core by default when np <= 2: more threads
  // than cores would then share that core. Say so on every process where it happens.
  if (plan.bound_cores > 0 && plan.threads > plan.bound_cores)
    std::fprintf(stderr,
                 "stategraph-mpi: warning: process %d runs %d threads but may use only %d core%s (its CPU binding): "
                 "start with 'mpirun --bind-to none' or lower --threads\n",
                 me, plan.threads, plan.bound_cores, plan.bound_cores == 1 ? "" : "s");
  if (me == 0 && !plan.o.quiet)
    plan.dist.on_level = [](const CommLevel& l, std::uint64_t total) {
      std::cerr << "  depth " << l.depth << ": " << l.states << " new, " << total << " total, "
                << seconds_text(l.seconds) << " (" << sig3(l.comm_seconds) << " comm), " << direction_name(l.direction)
                << ", " << count_text(static_cast<std::uint64_t>(l.rounds), "round") << ", " << l.bytes_sent
                << " bytes sent\n";
    };

  DistResult result;
  std::uint64_t rss = 0;
  try {
    result = distributed_bfs(rule, plan.part, plan.dist, MPI_COMM_WORLD);
    rss = peak_rss();
    MPI_Allreduce(MPI_IN_PLACE, &rss, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  } catch (const std::bad_alloc&) {
    abort_job(procs, me, "out of memory", 1);
  } catch (const std::exception& e) {
    abort_job(procs, me, e.what(), 1);
  }

  int code = 0;
  if (me == 0) {
    try {
      std::uint64_t bytes = 0;
      double comm = 0;
      for (const auto& l : result.comm) bytes += l.bytes_sent, comm += l.comm_seconds;
      BfsResult bfs = result.bfs;
      bfs.peak_bytes = result.peak_bytes_max;  // per process, the largest
      Summary summary = summarize(rule, bfs, plan.o.variant, plan.threads);
      if (result.watch_depth) summary.start_distance = *result.watch_depth;
      // One run per folder: staged, then swapped in at once with run.csv.
      RunFolder run(plan.dir);
      run.write("distribution.csv", distribution_with_paths(bfs, {}).str());
      run.write("levels.csv", levels_table(bfs).str());
      run.write("summary.csv", summary_csv(summary, procs, bytes, comm, rss, plan.o.bottomup_exchange).str());
      run.write("mpi_levels.csv", mpi_levels_table(result).str());
      RunRecord record = cli::base_record("mpi");
      cli::describe_rule(record, rule);
      record.variant = plan.o.variant;
      record.threads = plan.threads;
      record.notes = count_text(static_cast<std::uint64_t>(procs), "process", "processes") + ", bottom-up exchange " +
                     plan.o.bottomup_exchange;
      run.commit(record);
      if (!plan.o.quiet)
        std::cerr << "  communication: " << bytes << " bytes sent in total, " << seconds_text(comm) << " of "
                  << seconds_text(bfs.seconds) << " in MPI calls; largest process buffers "
                  << format_bytes(result.peak_bytes_max) << ", largest peak RSS " << format_bytes(rss) << "\n";
      std::cout << label << ": " << summary.reachable << " of " << summary.space_size << " states reachable, max depth "
                << summary.max_depth << " (" << count_text(summary.antipodes, "antipode") << ")";
      if (summary.start_distance) std::cout << ", start at distance " << *summary.start_distance;
      std::cout << ", " << seconds_text(summary.seconds) << " on "
                << count_text(static_cast<std::uint64_t>(procs), "process", "processes") << " -> " << plan.dir.string()
                << "/\n";
    } catch (const std::exception& e) {
      std::cerr << "stategraph-mpi: error: " << e.what() << "\n";
      code = 1;
    }
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return code;
}

}  // namespace
}  // namespace stategraph::mpi

int main(int argc, char** argv) {
  int provided = 0;
  stategraph::cli::record_invocation(argc, argv);
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  const int code = stategraph::mpi::run(argc, argv);
  MPI_Finalize();
  return code;
}
