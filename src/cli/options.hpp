// The options every command shares, declared and checked in one place: the rule (its
// grid and the options the rule table says it reads), the thread count (one bound for
// every command), the memory limit, the output folder, input files, --version, and the
// provenance of a run (RunRecord). Used by stategraph's commands and by stategraph-mpi.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "stategraph/io/run_folder.hpp"
#include "stategraph/rules/rule.hpp"

namespace stategraph::cli {

// The largest --threads any command accepts (stated in every --help); above it, exit 2.
inline constexpr int kMaxThreads = 256;

// "stategraph 0.1.0 (git <revision>)": the version and the revision this binary was built from.
std::string version_text(const std::string& program);
const char* build_version();
const char* build_revision();

// Remembers the process's command line and start time, for run.csv (call first in main).
void record_invocation(int argc, const char* const* argv);

// The rule and what it is built from.
struct RuleCliOptions {
  std::string rule;
  int rows = 0, cols = 0;
  std::string start, directions, metric;  // the rule options (RuleOptionFlag), file:PATH --metric
};

// Which rule options a command offers.
enum RuleFlags : unsigned { kWithStart = 1, kWithDirections = 2, kWithMetric = 4, kAllRuleFlags = 7 };

// --rule, --rows, --cols and the chosen rule options; their help names the rules of the
// table that read each option. `rule_help` overrides the --rule text.
void add_rule_options(CLI::App* sub, RuleCliOptions& o, unsigned flags, const std::string& rule_help = "");
// The RuleOptions given on the command line.
RuleOptions rule_options(const RuleCliOptions& o);
// Checks rows/cols (both or neither) and builds the rule (InputError on any problem).
// `needs_rule` is the message when --rule is missing.
AnyRule build_rule(const RuleCliOptions& o, const std::string& needs_rule);
// Whether any rule option or size was given (analyze --all refuses them).
bool any_rule_option(const RuleCliOptions& o);
// "<rule>-<rows>x<cols>", and with a --start (any rule) "-start-<board>" (the
// board's rows joined by '-', '*' written as 'x', other marks as '_'; see README).
std::string run_label(const AnyRule& rule, const std::string& start);

// --threads N for one run: 0 = all cores; negative or above kMaxThreads -> InputError.
void add_threads_option(CLI::App* sub, int& threads, const std::string& what = "Worker threads");
int effective_threads(int requested);
// One of compare's thread counts: 1..kMaxThreads.
void check_thread_count(int threads);
std::string threads_help(const std::string& what);

// --max-memory, resolved once: the smaller of it and MemAvailable (divided among
// `sharing` processes on one machine), or unlimited when neither is known.
struct MemoryLimit {
  std::uint64_t bytes = 0;
  std::string source;
  bool from_flag = false;  // --max-memory decided the limit
};
MemoryLimit resolve_memory_limit(const std::string& max_memory, std::uint64_t sharing = 1);

// A path where an input file is expected: a folder there is an InputError naming `flag`.
void check_input_file(const std::string& path, const std::string& flag);
// The output folder check before any work: `dir` must be creatable (its nearest existing
// ancestor a folder, writable) and not an existing regular file. `usage_error`: throw
// InputError (exit 2) instead of std::runtime_error (exit 1).
void check_output_folder(const std::filesystem::path& dir, bool usage_error = false);

// A RunRecord with the binary's version and revision, the command line recorded by
// record_invocation and the wall seconds since it; the caller fills rule and the rest.
RunRecord base_record(const std::string& command);
// Fills rule, rows, cols and start (cardswap's, or the state a --start BFS runs from).
void describe_rule(RunRecord& r, const AnyRule& rule);

}  // namespace stategraph::cli
