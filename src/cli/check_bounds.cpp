// `stategraph check-bounds DIR`: re-verifies the diameter bounds of an analyze folder
// from its diameter_witnesses.csv, running only the BFS the rows name (what each row
// proves and how it is checked: include/stategraph/analysis/check_bounds.hpp). The rule
// comes from run.csv (rule, rows, cols, start), or summary.csv in folders without one.
// Exit 0: every bound holds; 1: the first failing row on stderr (one line); 2: bad input.
#include "stategraph/analysis/check_bounds.hpp"

#include <tbb/global_control.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "signals.hpp"
#include "stategraph/bfs/bfs.hpp"
#include "stategraph/bfs/memory.hpp"
#include "stategraph/io/log_text.hpp"

namespace stategraph::cli {
namespace {

namespace fs = std::filesystem;

struct CheckBoundsOptions {
  std::string dir;
  int threads = 0;
};

int to_int(const std::string& s, const std::string& what) {
  if (s.empty()) return -1;
  try {
    std::size_t used = 0;
    const long v = std::stol(s, &used);
    if (used == s.size() && v >= 0 && v < (1L << 30)) return static_cast<int>(v);
  } catch (const std::exception&) {
  }
  throw InputError(what + ": '" + s + "' is not a count");
}

// The rule the folder was made with: run.csv's rule, rows, cols and start, else summary.csv's.
AnyRule folder_rule(const fs::path& dir) {
  fs::path file = dir / "run.csv";
  bool with_start = true;
  if (!fs::exists(file)) file = dir / "summary.csv", with_start = false;
  if (!fs::exists(file)) throw InputError(dir.string() + " has neither run.csv nor summary.csv (the rule is unknown)");
  const CsvData d = read_csv_file(file);
  const std::string w = file.string();
  if (d.rows.empty()) throw InputError(w + " has no rows");
  const auto& row = d.rows.front();
  if (row.size() != d.header.size()) throw InputError(w + " row 1: not as many fields as the header");
  RuleOptions options;
  if (with_start) {
    const std::string start = row[d.column("start", w)];
    if (!start.empty()) options.start = start;
  }
  const int rows = to_int(row[d.column("rows", w)], w + ": rows"),
            cols = to_int(row[d.column("cols", w)], w + ": cols");
  return make_rule(row[d.column("rule", w)], rows, cols, options);
}

std::map<std::uint64_t, ComponentClaim> read_claims(const fs::path& file) {
  std::map<std::uint64_t, ComponentClaim> out;
  if (!fs::exists(file)) return out;
  const CsvData d = read_csv_file(file);
  const std::string w = file.string();
  const std::size_t comp = d.column("component", w), size = d.column("size", w), rep = d.column("representative", w),
                    diam = d.column("diameter", w), lo = d.column("diameter_lower", w),
                    hi = d.column("diameter_upper", w);
  for (std::size_t i = 0; i < d.rows.size(); ++i) {
    const auto& r = d.rows[i];
    const std::string where = w + " row " + std::to_string(i + 1);
    if (r.size() != d.header.size()) throw InputError(where + ": not as many fields as the header");
    ComponentClaim c;
    c.row = i + 1;
    c.size = static_cast<std::uint64_t>(std::stoull("0" + r[size]));
    c.representative = r[rep];
    c.diameter = to_int(r[diam], where + ": diameter");
    c.lower = to_int(r[lo], where + ": diameter_lower");
    c.upper = to_int(r[hi], where + ": diameter_upper");
    const int index = to_int(r[comp], where + ": component");
    if (index < 0) throw InputError(where + ": no component number");
    out[static_cast<std::uint64_t>(index)] = c;
  }
  return out;
}

int run_check_bounds(const CheckBoundsOptions& o) {
  const fs::path dir(o.dir);
  if (!fs::exists(dir)) throw InputError("no result folder " + o.dir);
  if (!fs::is_directory(dir))
    throw InputError(o.dir + " is not a folder (check-bounds takes an analyze result folder)");
  const fs::path wfile = dir / "diameter_witnesses.csv";
  if (!fs::exists(wfile))
    throw InputError(o.dir +
                     " has no diameter_witnesses.csv (analyze writes it for components bounded by BFS "
                     "sources with at least 100,000 states, or whose bounds did not meet)");
  const std::vector<WitnessRow> rows = parse_witness_rows(read_csv_file(wfile), "diameter_witnesses.csv");
  const AnyRule rule = folder_rule(dir);
  const auto claims = read_claims(dir / "components.csv");
  const std::string label = std::string(rule_name(rule)) + "-" + std::to_string(rule_grid(rule).rows) + "x" +
                            std::to_string(rule_grid(rule).cols);
  if (rows.empty()) {
    std::cout << "check-bounds " << o.dir << ": diameter_witnesses.csv has no rows, nothing to check\n";
    return 0;
  }
  const int threads = effective_threads(o.threads);
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  const StopOnSignals signals;
  // The rows of each component, in file order (components in order of first appearance).
  std::vector<std::uint64_t> order;
  std::map<std::uint64_t, std::vector<WitnessRow>> by_component;
  for (const WitnessRow& w : rows) {
    auto& v = by_component[w.component];
    if (v.empty()) order.push_back(w.component);
    v.push_back(w);
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t runs = 0;
  for (std::uint64_t index : order) {
    const auto& crow = by_component.at(index);
    auto it = claims.find(index);
    const ComponentClaim* claim = it == claims.end() ? nullptr : &it->second;
    std::uint64_t pair_sources = 0;
    for (const auto& w : crow) pair_sources += w.kind == "pair_source";
    std::cout << "component " << index << ": checking " << crow.size() << " witness rows (needs about "
              << format_bytes(check_bounds_bytes(rule_size(rule), claim ? claim->size : rule_size(rule), pair_sources))
              << ")" << std::endl;
    ComponentCheck c;
    try {
      c = check_component_bounds(rule, crow, claim, &signals.flag());
    } catch (const BfsInterrupted& e) {
      std::cerr << "stategraph: interrupted by " << signal_name(e.signal()) << " during check-bounds of " << o.dir
                << "\n";
      return 128 + e.signal();
    }
    runs += c.bfs_runs;
    std::ostringstream line;
    line << "component " << c.component << " (" << c.size << " states): lower " << c.lower << ", upper " << c.upper
         << "; " << count_text(c.sources, "source eccentricity", "source eccentricities") << ", "
         << count_text(c.images, "image");
    if (c.source_upper >= 0) line << ", sources bound " << c.source_upper;
    if (c.pair_upper >= 0) line << ", pair bound " << c.pair_upper << " (" << c.pair_sources << " pair sources)";
    line << (claim ? ", components.csv row " + std::to_string(claim->row) : ", not in components.csv") << "; "
         << c.bfs_runs << " BFS, " << seconds_text(c.seconds);
    if (!c.failures.empty()) {
      std::cout << line.str() << ": FAILED\n";
      for (const auto& f : c.failures) std::cout << "  " << f.message << "\n";
      std::cout.flush();
      std::cerr << "stategraph: check-bounds " << o.dir << ": " << c.failures.front().message << "\n";
      return 1;
    }
    std::cout << line.str() << ": ok\n";
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "check-bounds " << o.dir << " (" << label << "): every bound holds (" << rows.size()
            << " rows of diameter_witnesses.csv, " << order.size() << " component" << (order.size() == 1 ? "" : "s")
            << ", " << runs << " BFS, " << seconds_text(seconds) << ")\n";
  return 0;
}

}  // namespace

Command add_check_bounds(CLI::App& app) {
  auto o = std::make_shared<CheckBoundsOptions>();
  auto* sub = app.add_subcommand("check-bounds",
                                 "Re-verify the diameter bounds of an analyze folder from its diameter_witnesses.csv");
  sub->add_option("dir", o->dir, "An analyze result folder (diameter_witnesses.csv, run.csv or summary.csv)")
      ->required();
  add_threads_option(sub, o->threads);
  sub->footer(
      "Runs only the BFS the witness rows name, per component: the lower row's distance\n"
      "d(state, other_state) must equal its value; each source row's eccentricity (one BFS\n"
      "within the component) must equal its value; a source row with other_state (an image)\n"
      "needs an automorphism of the rule mapping other_state (a BFS source) to state, and\n"
      "the source's eccentricity as value; the upper row must be at least\n"
      "max over states w of min over all sources s of ecc(s) + d(s, w) (images: d(g.s, w) =\n"
      "d(s, g^-1.w)), or the pair bound when that is smaller, and at least lower; a\n"
      "pair_upper row at least max over pairs x, y of min over the pair_source rows s of\n"
      "d(s, x) + d(s, y). components.csv (when present) must give the same representative\n"
      "and size, bounds the witnesses prove (its lower <= lower, its upper >= upper), and a\n"
      "diameter within them (given when they meet). Directed rules: distances along the\n"
      "moves, ecc(w) <= d(w, s) + ecc(s). Rows are counted from 1 after the header.\n"
      "Prints one line per component on stdout. Exit 0: every bound holds (also when the\n"
      "file has no rows: nothing to check); 1: the first failing row, one line on stderr;\n"
      "2: bad input (no folder, no diameter_witnesses.csv, malformed rows, unknown rule).\n"
      "Memory: 5 bits per rank of the rule's space, 4 bytes per state of the component and\n"
      "1 more per pair source.");
  return {sub, [o] { return run_check_bounds(*o); }};
}

}  // namespace stategraph::cli
