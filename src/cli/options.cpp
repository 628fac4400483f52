#include "options.hpp"

#include <sys/stat.h>
#include <tbb/info.h>
#include <tbb/version.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "build_info.hpp"
#include "stategraph/bfs/memory.hpp"
#include "stategraph/io/log_text.hpp"

#ifndef STATEGRAPH_VERSION
#define STATEGRAPH_VERSION "unknown"
#endif
#ifndef STATEGRAPH_BUILD_TYPE
#define STATEGRAPH_BUILD_TYPE "unknown"
#endif
#ifndef STATEGRAPH_COMPILER
#define STATEGRAPH_COMPILER "unknown"
#endif

namespace stategraph::cli {
namespace {

std::string g_command_line, g_started_utc, g_load_before;
std::chrono::steady_clock::time_point g_started = std::chrono::steady_clock::now();

}  // namespace

const char* build_version() { return STATEGRAPH_VERSION; }
const char* build_revision() { return STATEGRAPH_GIT_REVISION; }

std::string version_text(const std::string& program) {
  return program + " " + build_version() + " (git " + build_revision() + ")";
}

void record_invocation(int argc, const char* const* argv) {
  g_command_line = shell_command_line(argc, argv);
  g_started = std::chrono::steady_clock::now();
  g_started_utc = utc_now();
  g_load_before = load_average();
}

void add_rule_options(CLI::App* sub, RuleCliOptions& o, unsigned flags, const std::string& rule_help) {
  sub->add_option("--rule", o.rule,
                  rule_help.empty() ? "Move rule (see 'stategraph rules'), or file:PATH for a twsearch-style definition"
                                    : rule_help);
  sub->add_option("--rows", o.rows, "Grid rows (default: the rule's seed size)");
  sub->add_option("--cols", o.cols, "Grid columns (default: the rule's seed size)");
  if (flags & kWithStart)
    sub->add_option("--start", o.start,
                    "Start position in the rule's text form, rows split by '/'. " + rules_reading(kStartOption, ", ") +
                        ": the start whose goal set it defines, e.g. '* A/**B'; every other rule: the BFS runs from "
                        "it instead of the goal, e.g. '1 2 3/4 5 6/7 _ 8' (a state's depth = moves from it to the "
                        "start, as for the goal; a sliding start of the other parity class searches that class)");
  if (flags & kWithDirections)
    sub->add_option("--directions", o.directions,
                    "Turn directions (" + rules_reading(kDirectionsOption, ", ") +
                        "): cw (clockwise turns only, the default) or both (either way)");
  if (flags & kWithMetric)
    sub->add_option("--metric", o.metric,
                    "file:PATH rules: given (the file's moves only, the default), inverses (each move and its "
                    "inverse; alias qtm) or powers (every power of each move, twsearch's move set; alias htm)");
}

RuleOptions rule_options(const RuleCliOptions& o) {
  RuleOptions ro;
  if (!o.start.empty()) ro.start = o.start;
  if (!o.directions.empty()) ro.directions = o.directions;
  if (!o.metric.empty()) ro.metric = o.metric;
  return ro;
}

AnyRule build_rule(const RuleCliOptions& o, const std::string& needs_rule) {
  if (o.rule.empty()) throw InputError(needs_rule);
  if ((o.rows == 0) != (o.cols == 0)) throw InputError("give both --rows and --cols, or neither");
  if (o.rule.rfind(kDefinitionPrefix, 0) == 0) check_input_file(o.rule.substr(kDefinitionPrefix.size()), "--rule");
  return make_rule(o.rule, o.rows, o.cols, rule_options(o));
}

bool any_rule_option(const RuleCliOptions& o) {
  return !o.rule.empty() || o.rows || o.cols || !o.start.empty() || !o.directions.empty() || !o.metric.empty();
}

std::string run_label(const AnyRule& rule, const std::string& start) {
  std::string label = std::string(rule_name(rule)) + "-" + rule_grid(rule).label();
  const std::optional<State> s = rule_given_start(rule);
  if (start.empty() || !s) return label;
  const std::string board = std::visit([&](const auto& r) { return r.format(*s); }, rule);
  label += "-start-";
  for (char c : board) {
    if (c == '/')
      label += '-';
    else if (c == '*')
      label += 'x';
    else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_')
      label += c;
    else
      label += '_';
  }
  return label;
}

std::string threads_help(const std::string& what) {
  return what + " (0 = all cores; at most " + std::to_string(kMaxThreads) + ")";
}

void add_threads_option(CLI::App* sub, int& threads, const std::string& what) {
  sub->add_option("--threads", threads, threads_help(what))->capture_default_str();
}

void check_thread_count(int threads) {
  if (threads < 1 || threads > kMaxThreads)
    throw InputError("--threads takes thread counts from 1 to " + std::to_string(kMaxThreads) + ", got " +
                     std::to_string(threads));
}

int effective_threads(int requested) {
  if (requested < 0 || requested > kMaxThreads)
    throw InputError("--threads must be 0 (all cores) or 1 to " + std::to_string(kMaxThreads) + ", got " +
                     std::to_string(requested));
  return requested == 0 ? tbb::info::default_concurrency() : requested;
}

MemoryLimit resolve_memory_limit(const std::string& max_memory, std::uint64_t sharing) {
  MemoryLimit m;
  m.bytes = available_memory() / (sharing ? sharing : 1);
  m.source = sharing > 1
                 ? "available memory shared by " + count_text(sharing, "process", "processes") + " on this machine"
                 : "available memory (MemAvailable)";
  if (!max_memory.empty()) {
    const std::uint64_t cap = parse_bytes(max_memory);
    if (m.bytes == 0 || cap < m.bytes) m.bytes = cap, m.source = "--max-memory limit", m.from_flag = true;
  }
  if (m.bytes == 0) m.bytes = ~std::uint64_t{0}, m.source = "unknown memory";
  return m;
}

void check_input_file(const std::string& path, const std::string& flag) {
  std::error_code ec;
  if (!path.empty() && path != "-" && std::filesystem::is_directory(path, ec))
    throw InputError(flag + " " + shown_input(path) + " is a folder; it takes a file");
}

void check_output_folder(const std::filesystem::path& dir, bool usage_error) {
  auto refuse = [&](const std::filesystem::path& p, int err) {
    const std::string message = "cannot create folder " + dir.string() + ": " + p.string() + ": " + std::strerror(err);
    if (usage_error) throw InputError(message);
    throw std::runtime_error(message);
  };
  std::filesystem::path abs = std::filesystem::absolute(dir).lexically_normal();
  if (abs.filename().empty()) abs = abs.parent_path();
  std::filesystem::path p = abs;
  std::error_code ec;
  while (!std::filesystem::exists(p, ec) && p.has_parent_path() && p.parent_path() != p) p = p.parent_path();
  if (!std::filesystem::is_directory(p, ec)) refuse(p, ENOTDIR);
  if (::access(p.c_str(), W_OK | X_OK) != 0) refuse(p, errno);
  // access() says yes to root everywhere: a folder made and removed at once is the real test.
  const std::filesystem::path probe = p / (".stategraph-probe-" + std::to_string(::getpid()));
  if (::mkdir(probe.c_str(), 0700) != 0) refuse(p, errno);
  ::rmdir(probe.c_str());
  // The folder's parent receives the staging folder of the run (RunFolder): it must be writable too.
  if (p == abs && abs.has_parent_path() && ::access(abs.parent_path().c_str(), W_OK | X_OK) != 0)
    refuse(abs.parent_path(), errno);
}

RunRecord base_record(const std::string& command) {
  RunRecord r;
  r.version = build_version();
  r.revision = build_revision();
  r.command = command;
  r.command_line = g_command_line;
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - g_started).count();
  r.started = g_started_utc;
  r.build_type = STATEGRAPH_BUILD_TYPE;
  r.compiler = std::string(STATEGRAPH_COMPILER) + " (" + __VERSION__ + ")";
  r.tbb_version = TBB_VERSION_STRING;
  r.load_average_before = g_load_before;
  return r;
}

void describe_rule(RunRecord& r, const AnyRule& rule) {
  r.rule = std::string(rule_name(rule));
  r.rows = rule_grid(rule).rows;
  r.cols = rule_grid(rule).cols;
  if (const std::optional<State> s = rule_given_start(rule))
    r.start = std::visit([&](const auto& x) { return x.format(*s); }, rule);
}

}  // namespace stategraph::cli
