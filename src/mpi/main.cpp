// stategraph-mpi: the BFS of `stategraph analyze --no-graph` distributed over MPI
// processes (issue 7). Run as `mpirun -np P stategraph-mpi --rule NAME ...`.
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
//  * only process 0 writes files (staged, renamed into place when all are written)
//    and broadcasts whether that worked, so all exit with the same code.
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

#include "dist_bfs.hpp"
#include "stategraph/analysis/analysis.hpp"
#include "stategraph/analysis/graph.hpp"
#include "stategraph/io/io.hpp"
#include "stategraph/bfs/memory.hpp"
#include "stategraph/rules/rule.hpp"
#include "stategraph/io/tables.hpp"

namespace stategraph::mpi {
namespace {

struct Options {
  std::string rule;
  int rows = 0, cols = 0;
  std::string start;
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
  app.add_option("--rule", o.rule, "Move rule (see 'stategraph rules')")->required();
  app.add_option("--rows", o.rows, "Grid rows (default: the rule's seed size)");
  app.add_option("--cols", o.cols, "Grid columns (default: the rule's seed size)");
  app.add_option("--start", o.start, "cardswap start position, rows split by '/', e.g. '* A/**B'");
  app.add_option("--variant", o.variant,
                 "hybrid (direction-optimizing, as 'analyze --variant hybrid'), topdown, or bottomup")
      ->capture_default_str();
  app.add_option("--out", o.out, "Output folder (default results/<rule>-<rows>x<cols>/)");
  app.add_option("--threads", o.threads, "Worker threads per process (0 = all cores)")->capture_default_str();
  app.add_option("--max-memory", o.max_memory,
                 "Refuse to run (exit 2) when a process needs more bytes than this (K/M/G suffixes); default: "
                 "MemAvailable shared by the processes on each machine");
  app.add_option("--exchange-buffer", o.exchange,
                 "Bytes of remote ranks (4 each) a process batches per exchange round (default: a quarter of a block bitset, >= 256K)");
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
  } catch (const CLI::ParseError& e) {
    throw SetupExit{2, std::string("stategraph-mpi: error: ") + e.what() + " (see --help)"};
  }

  if ((o.rows == 0) != (o.cols == 0)) throw InputError("give both --rows and --cols, or neither");
  if (o.threads < 0) throw InputError("--threads must be 0 (all cores) or positive");
  RuleOptions ro;
  if (!o.start.empty()) ro.start = o.start;
  plan.rule = make_rule(o.rule, o.rows, o.cols, ro);
  const AnyRule& rule = *plan.rule;
  const VariantInfo* variant = lookup_variant(o.variant);
  if (!variant || !variant->has_mpi)
    throw InputError("unknown --variant '" + shown_input(o.variant) + "' (stategraph-mpi has " +
                     variant_names([](const VariantInfo& v) { return v.has_mpi; }) + ")");
  plan.dist.policy = variant->mpi_policy;
  if (!o.exchange.empty()) plan.dist.exchange_bytes = parse_bytes(o.exchange);
  if (o.bottomup_exchange == "gather") plan.dist.gather_bottomup = true;
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
  const std::uint64_t avail = available_memory();
  plan.limit = avail / static_cast<std::uint64_t>(local_procs);
  plan.limit_source = "available memory shared by " + std::to_string(local_procs) + " process(es) on this machine";
  if (!o.max_memory.empty()) {
    const std::uint64_t cap = parse_bytes(o.max_memory);
    if (plan.limit == 0 || cap < plan.limit) plan.limit = cap, plan.limit_source = "--max-memory limit";
  }
  if (plan.limit == 0) plan.limit = ~std::uint64_t{0}, plan.limit_source = "unknown memory";
  if (plan.need > plan.limit)
    throw InputError("each process needs " + format_bytes(plan.need) + " (" + std::to_string(plan.need) +
                     " bytes), more than the " + format_bytes(plan.limit) + " " + plan.limit_source +
                     (plan.dist.gather_bottomup && plan.dist.policy != DirectionPolicy::kTopDown
                         ? ": use more processes or --bottomup-exchange query"
                         : ": use more processes"));
  plan.threads = o.threads == 0 ? tbb::info::default_concurrency() : o.threads;
  if (cpu_set_t set; sched_getaffinity(0, sizeof set, &set) == 0) plan.bound_cores = CPU_COUNT(&set);
  const std::string label = std::string(rule_name(rule)) + "-" + rule_grid(rule).label();
  plan.dir = o.out.empty() ? std::filesystem::path("results") / label : std::filesystem::path(o.out);
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
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism,
                                  static_cast<std::size_t>(plan.threads));
  const std::string label = std::string(rule_name(rule)) + "-" + rule_grid(rule).label();
  if (me == 0 && !plan.o.quiet) {
    const std::uint64_t single = 3 * ((rule_size(rule) + 63) / 64 * 8);
    std::cerr << label << ": " << rule_size(rule) << " ranks over " << procs << " process(es) (" << local_procs
              << " on this machine), blocks of " << plan.part.block << " ranks, variant " << plan.o.variant << " (bottom-up exchange: " << plan.o.bottomup_exchange << "), "
              << plan.threads << " thread(s) each\n"
              << "  memory: each process needs up to " << format_bytes(plan.need) << " (" << plan.need
              << " bytes; single-process hybrid: " << format_bytes(single) << ", ratio "
              << fmt_double(static_cast<double>(plan.need) / static_cast<double>(single)) << ") of "
              << format_bytes(plan.limit) << " " << plan.limit_source << "\n";
  }
  // Open MPI binds each process to one core by default when np <= 2: more threads
  // than cores would then share that core. Say so on every process where it happens.
  if (plan.bound_cores > 0 && plan.threads > plan.bound_cores)
    std::fprintf(stderr,
                 "stategraph-mpi: warning: process %d runs %d threads but may use only %d core(s) (its CPU binding): "
                 "start with 'mpirun --bind-to none' or lower --threads\n",
                 me, plan.threads, plan.bound_cores);
  if (me == 0 && !plan.o.quiet)
    plan.dist.on_level = [](const CommLevel& l, std::uint64_t total) {
      std::fprintf(stderr, "  depth %d: %llu new, %llu total, %.3f s (%.3f comm), %s, %d round(s), %llu bytes sent\n",
                   l.depth, static_cast<unsigned long long>(l.states), static_cast<unsigned long long>(total),
                   l.seconds, l.comm_seconds, std::string(direction_name(l.direction)).c_str(), l.rounds,
                   static_cast<unsigned long long>(l.bytes_sent));
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
      FileSet files(plan.dir);
      files.stage("distribution.csv", distribution_with_paths(bfs, {}).str());
      files.stage("levels.csv", levels_table(bfs).str());
      files.stage("summary.csv", summary_csv(summary, procs, bytes, comm, rss, plan.o.bottomup_exchange).str());
      files.stage("mpi_levels.csv", mpi_levels_table(result).str());
      files.commit();
      if (!plan.o.quiet)
        std::cerr << "  communication: " << bytes << " bytes sent in total, " << comm << " s of " << bfs.seconds
                  << " s in MPI calls; largest process buffers " << format_bytes(result.peak_bytes_max)
                  << ", largest peak RSS " << format_bytes(rss) << "\n";
      std::cout << label << ": " << summary.reachable << " of " << summary.space_size << " states reachable, max depth "
                << summary.max_depth << " (" << summary.antipodes << " antipodes)";
      if (summary.start_distance) std::cout << ", start at distance " << *summary.start_distance;
      std::cout << ", " << summary.seconds << " s on " << procs << " process(es) -> " << plan.dir.string() << "/\n";
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
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  const int code = stategraph::mpi::run(argc, argv);
  MPI_Finalize();
  return code;
}
