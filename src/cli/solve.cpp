// `stategraph solve`: min-move queries in the rules' judge formats, answered from a
// depth table built once per run (parallel BFS) or memory-mapped with --table.
// `stategraph table build`: writes such a table file.
//
// Exit codes: 0 all answered; 2 bad input (first bad query, or with --keep-going
// after answering the good ones), a table that does not match, bad options; 1 system
// errors (unwritable output...).
#include "stategraph/solve/solve.hpp"

#include <tbb/global_control.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "stategraph/bfs/memory.hpp"
#include "stategraph/io/log_text.hpp"

namespace stategraph::cli {
namespace {

struct TableSource {
  RuleCliOptions rule;  // options.hpp; no --start: a table covers every start
  std::string variant = "auto";
  std::string encoding = "auto";
  std::string max_memory;
  int threads = 0;
};

void add_source_options(CLI::App* sub, TableSource& o) {
  add_rule_options(sub, o.rule, kWithDirections | kWithMetric);
  sub->add_option("--variant", o.variant, "BFS variant for the depth table (auto, hybrid, twobit, ...)")
      ->capture_default_str();
  sub->add_option(
         "--encoding", o.encoding,
         "Depth table encoding: auto (byte up to 2^25 ranks, else mod3, nibble for rotate), byte, nibble, mod3")
      ->capture_default_str();
  sub->add_option("--max-memory", o.max_memory,
                  "Refuse (exit 2) when the BFS needs more (K/M/G); default MemAvailable");
  add_threads_option(sub, o.threads);
}

AnyRule source_rule(const TableSource& o) {
  const RuleCliOptions& r = o.rule;
  if (r.rule.empty()) throw InputError("needs --rule NAME (see 'stategraph rules')");
  if ((r.rows == 0) != (r.cols == 0)) throw InputError("give both --rows and --cols, or neither");
  if (r.rule.rfind(kDefinitionPrefix, 0) == 0) check_input_file(r.rule.substr(kDefinitionPrefix.size()), "--rule");
  return make_solve_rule(r.rule, r.rows, r.cols, rule_options(r));
}

DepthEncoding source_encoding(const TableSource& o, const AnyRule& rule) {
  const DepthEncoding e = o.encoding == "auto" ? default_encoding(rule) : parse_encoding(o.encoding);
  if (const std::string problem = encoding_problem(rule, e); !problem.empty()) throw InputError(problem);
  return e;
}

DepthTable build_table(const TableSource& o, const AnyRule& rule, DepthEncoding e) {
  if (o.variant != "auto") find_variant(o.variant);
  // The limit resolved as every command does; without --max-memory the table code says "MemAvailable" itself.
  const MemoryLimit memory = resolve_memory_limit(o.max_memory);
  return build_depth_table(rule, e, o.variant, memory.from_flag ? memory.bytes : 0);
}

struct SolveOptions {
  TableSource source;
  std::string input;
  std::vector<std::string> states;
  std::string table;
  bool path = false, boards = false, count = false, keep_going = false;
};

std::string read_input(const std::string& file) {
  if (file.empty() || file == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    return std::move(ss).str();
  }
  check_input_file(file, "--input");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError("cannot read --input " + file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int run_solve(SolveOptions& o) {
  TableSource& src = o.source;
  check_input_file(o.table, "--table");
  check_input_file(o.input, "--input");
  if (!o.table.empty() && src.rule.rule.empty()) {  // the table says which rule
    const TableFileInfo info = read_table_info(o.table);
    if (info.rule.rfind("def:", 0) == 0)
      throw InputError("table " + o.table + " was built from a definition file (" + info.rule +
                       "); give the same --rule file:PATH (and --metric, --rows, --cols)");
    src.rule.rule = info.rule;
    if (src.rule.rows == 0 && src.rule.cols == 0) src.rule.rows = info.rows, src.rule.cols = info.cols;
  }
  const AnyRule rule = source_rule(src);
  if (!o.states.empty() && !o.input.empty()) throw InputError("give --state or --input, not both");
  const int threads = effective_threads(src.threads);
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));

  // Every query is read and checked before the table is built or loaded.
  std::vector<Query> queries;
  if (!o.states.empty()) {
    for (std::size_t i = 0; i < o.states.size(); ++i) {
      Query q;
      q.number = static_cast<int>(i + 1);
      try {
        q.state = parse_state(rule, o.states[i]);
      } catch (const InputError& e) {
        const std::string message = "query " + std::to_string(i + 1) + ": " + e.what();
        if (!o.keep_going) throw InputError(message);
        q.error = message;
      }
      queries.push_back(std::move(q));
    }
  } else {
    queries = parse_queries(rule, read_input(o.input), o.keep_going);
  }

  DepthTable table;
  if (!o.table.empty()) {
    if (src.encoding != "auto") throw InputError("--encoding is for building a table; --table has its own");
    table = load_depth_table(o.table, rule);
  } else {
    table = build_table(src, rule, source_encoding(src, rule));
  }
  AnswerOptions ao;
  ao.path = o.path, ao.boards = o.boards, ao.count = o.count;
  const BatchResult result = answer_queries(rule, table, queries, ao);
  std::fwrite(result.out.data(), 1, result.out.size(), stdout);
  std::fflush(stdout);
  for (const std::string& e : result.errors) std::cerr << "stategraph: error: " << e << "\n";
  return result.errors.empty() ? 0 : 2;
}

int run_table_build(const TableSource& o, const std::string& out) {
  const AnyRule rule = source_rule(o);
  const DepthEncoding e = source_encoding(o, rule);
  if (out.empty()) throw InputError("table build needs --out FILE");
  {
    std::error_code ec;
    if (std::filesystem::is_directory(out, ec))
      throw InputError("--out " + shown_input(out) + " is a folder; table build writes a file");
  }
  const int threads = effective_threads(o.threads);
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  const auto start = std::chrono::steady_clock::now();
  const DepthTable table = build_table(o, rule, e);
  const double bfs_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  save_depth_table(out, rule, table);
  std::cout << out << ": " << rule_name(rule) << " " << rule_grid(rule).label() << ", "
            << count_text(table.sections(), "section") << " x " << table.size() << " ranks, encoding "
            << encoding_name(e) << ", " << table.data_bytes() << " data bytes (" << format_bytes(table.data_bytes())
            << "), built in " << seconds_text(bfs_seconds) << "\n";
  return 0;
}

}  // namespace

Command add_solve(CLI::App& app) {
  auto o = std::make_shared<SolveOptions>();
  auto* sub = app.add_subcommand(
      "solve", "Minimum moves to the goal for each query, in the rule's judge input format (stdin or --input)");
  add_source_options(sub, o->source);
  sub->add_option("--input", o->input, "Query file (default: standard input)");
  sub->add_option("--state", o->states, "A one-off query in the rule's text form, e.g. 152463789 (repeatable)");
  sub->add_option("--table", o->table, "Depth table file from 'stategraph table build' (memory-mapped)");
  sub->add_flag("--path", o->path, "Append an optimal move sequence: path=m1,m2,...");
  sub->add_flag("--boards", o->boards, "Then print the boards step by step, one per line");
  sub->add_flag("--count", o->count, "Append the number of distinct optimal move sequences: count=N");
  sub->add_flag("--keep-going", o->keep_going,
                "Answer the good queries ('error' for a bad one), report each bad one on stderr, exit 2 at the end");
  return {sub, [o] { return run_solve(*o); }};
}

Command add_table(CLI::App& app) {
  auto o = std::make_shared<TableSource>();
  auto out = std::make_shared<std::string>();
  auto* table = app.add_subcommand("table", "Depth table files for 'solve --table'");
  table->require_subcommand(1);
  auto* build = table->add_subcommand("build", "Compute a rule's depth table (parallel BFS) and write it to --out");
  add_source_options(build, *o);
  build->add_option("--out", *out, "Table file to write (temporary name, fsync, rename)");
  return {build, [o, out] { return run_table_build(*o, *out); }};
}

}  // namespace stategraph::cli
