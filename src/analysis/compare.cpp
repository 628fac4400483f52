#include "stategraph/analysis/compare.hpp"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <functional>
#include <map>

#include "stategraph/bfs/memory.hpp"
#include "stategraph/io/log_text.hpp"

namespace stategraph {
namespace {

std::string label_of(const VariantInfo& v, int threads) {
  return std::string(v.name) + ", " + count_text(static_cast<std::uint64_t>(threads), "thread");
}

BfsResult timed_run(const AnyRule& rule, const VariantInfo& v, int threads, const BfsOptions& options) {
  tbb::global_control control(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  return v.run(rule, options);
}

// Moves a search along BFS neighbours examines: one per predecessor of every reached
// state (what a top-down search generates), counted over the warm-up's depth table.
std::uint64_t count_examined_moves(const AnyRule& rule, const BfsResult& result) {
  return std::visit(
      [&](const auto& r) {
        return tbb::parallel_reduce(
            tbb::blocked_range<std::uint64_t>(0, r.size(), 1 << 14), std::uint64_t{0},
            [&](const auto& range, std::uint64_t a) {
              auto unrank = make_unranker(r);
              for (std::uint64_t k = range.begin(); k != range.end(); ++k)
                if (result.depth[k] != kUnreached) r.for_each_predecessor(unrank(k), [&](State) { ++a; });
              return a;
            },
            std::plus<>());
      },
      rule);
}

}  // namespace

std::string layers_mismatch(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  const std::size_t n = std::max(a.size(), b.size());
  for (std::size_t d = 0; d < n; ++d) {
    const std::uint64_t x = d < a.size() ? a[d] : 0, y = d < b.size() ? b[d] : 0;
    if (x != y)
      return "depth " + std::to_string(d) + ": " + std::to_string(y) + " states, expected " + std::to_string(x) +
             " (max depth " + std::to_string(static_cast<long>(b.size()) - 1) + ", expected " +
             std::to_string(static_cast<long>(a.size()) - 1) + ")";
  }
  return "";
}

double median(std::vector<double> values) {
  if (values.empty()) throw std::logic_error("median of an empty sample");
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

CompareReport run_compare(const AnyRule& rule, const CompareOptions& options) {
  if (options.variants.empty()) throw InputError("compare needs at least one variant");
  if (options.threads.empty()) throw InputError("compare needs at least one thread count");
  if (options.repeat < 1) throw InputError("--repeat must be at least 1");
  CompareReport report;
  report.rule = std::string(rule_name(rule));
  report.rows = rule_grid(rule).rows;
  report.cols = rule_grid(rule).cols;
  report.space_size = rule_size(rule);
  report.repeat = options.repeat;
  report.threads = options.threads;
  std::sort(report.threads.begin(), report.threads.end());

  // Memory first, before any run: reference is skipped when it does not fit, any other
  // variant that does not fit is an error (the user asked for it by name).
  std::vector<const VariantInfo*> variants;
  BfsOptions plain;
  plain.stop = options.stop;
  plain.disk = options.disk;
  if (plain.disk.memory == 0 && options.memory_limit != ~std::uint64_t{0}) plain.disk.memory = options.memory_limit;
  const std::string space = report.rule + " " + rule_grid(rule).label();
  for (const VariantInfo& v : options.variants) {
    if (v.on_disk && options.disk.dir.empty())
      throw InputError("variant " + std::string(v.name) + " needs --disk DIR, a folder for its files");
    const std::uint64_t need = v.bytes_needed(rule, plain);
    if (need > options.memory_limit) {
      if (!v.timed_levels) {  // the oracle (reference) is optional: skipped, not an error
        report.notes.push_back(std::string(v.name) + " skipped: " + space + " needs " + format_bytes(need) +
                               ", more than the " + format_bytes(options.memory_limit) + " of " + options.limit_source);
        continue;
      }
      throw InputError(space + " with variant " + std::string(v.name) + " needs " + format_bytes(need) +
                       ", more than the " + format_bytes(options.memory_limit) + " of " + options.limit_source);
    }
    variants.push_back(&v);
  }
  if (variants.empty()) throw InputError("no variant left to compare (" + report.notes.front() + ")");
  for (const auto* v : variants) report.variants.emplace_back(v->name);
  if (options.log) {
    options.log(space + ": " + std::to_string(report.space_size) + " ranks, " + count_text(variants.size(), "variant") +
                " x " + count_text(report.threads.size(), "thread count") + " x " +
                count_text(static_cast<std::uint64_t>(options.repeat), "repeat") + ", after one warm-up run");
    for (const auto& note : report.notes) options.log(note);
  }

  // Warm-up: the first variant with timed levels (not reference), at the most threads; it also
  // gives the layers every later run must reproduce and, with a depth table, the
  // number of moves examined.
  const VariantInfo* warm = variants.front();
  for (const auto* v : variants)
    if (v->timed_levels) {
      warm = v;
      break;
    }
  BfsOptions warm_options = plain;
  const std::uint64_t depth_bytes = report.space_size;
  warm_options.want_depths =
      options.count_edges && !warm->on_disk &&
      warm->bytes_needed(rule, warm_options) + depth_bytes <= options.memory_limit;
  const int most = report.threads.back();
  const int total_runs = 1 + options.repeat * static_cast<int>(variants.size() * report.threads.size());
  if (options.log) options.log("[1/" + std::to_string(total_runs) + "] warm-up: " + label_of(*warm, most));
  {
    const BfsResult w = timed_run(rule, *warm, most, warm_options);
    report.layers = w.layers;
    report.warmup_variant = std::string(warm->name);
    report.warmup_threads = most;
    report.warmup_seconds = w.seconds;
    if (warm_options.want_depths) {
      tbb::global_control control(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(most));
      report.edges = count_examined_moves(rule, w);
    }
  }

  // Interleaved: every repeat runs every variant x threads once; repeat r starts at
  // variant r mod |variants|, so no variant always runs first (or right after another).
  int index = 1;
  for (int rep = 1; rep <= options.repeat; ++rep) {
    for (std::size_t i = 0; i < variants.size(); ++i) {
      const VariantInfo& v = *variants[(i + static_cast<std::size_t>(rep - 1)) % variants.size()];
      for (int t : report.threads) {
        ++index;
        BfsResult r = timed_run(rule, v, t, plain);
        const std::string problem = layers_mismatch(report.layers, r.layers);
        if (!problem.empty())
          throw CompareMismatch("per-depth counts differ: " + label_of(v, t) + ", repeat " + std::to_string(rep) +
                                " vs warm-up " + label_of(*warm, most) + ": " + problem);
        if (options.log)
          options.log("[" + std::to_string(index) + "/" + std::to_string(total_runs) + "] " + label_of(v, t) +
                      ", repeat " + std::to_string(rep) + ": " + seconds_text(r.seconds));
        r.depth.clear();
        report.runs.push_back({std::string(v.name), t, rep, std::move(r)});
      }
    }
  }
  return report;
}

CompareSummary summarize_compare(const CompareReport& report) {
  CompareSummary s;
  s.base_threads = report.threads.empty() ? 1 : report.threads.front();
  std::map<std::pair<std::string, int>, std::vector<const CompareRun*>> by_cell;
  for (const auto& run : report.runs) by_cell[{run.variant, run.threads}].push_back(&run);
  std::map<std::pair<std::string, int>, double> medians;
  for (const auto& v : report.variants)
    for (int t : report.threads) {
      const auto it = by_cell.find({v, t});
      if (it == by_cell.end()) continue;
      CompareCell c;
      c.variant = v;
      c.threads = t;
      std::vector<double> secs, rates;
      for (const CompareRun* r : it->second) {
        secs.push_back(r->result.seconds);
        rates.push_back(r->result.seconds > 0 ? static_cast<double>(r->result.reached()) / r->result.seconds : 0.0);
      }
      c.runs = static_cast<int>(secs.size());
      c.median_seconds = median(secs);
      c.min_seconds = *std::min_element(secs.begin(), secs.end());
      c.max_seconds = *std::max_element(secs.begin(), secs.end());
      c.median_states_per_s = median(rates);
      medians[{v, t}] = c.median_seconds;
      s.cells.push_back(c);
    }
  // Speedups are against the first one-thread variant with timed levels (serial).
  std::string base_variant;
  for (const VariantInfo& v : variant_table())
    if (!v.parallel && v.timed_levels && base_variant.empty()) base_variant = v.name;
  const auto serial = medians.find({base_variant, s.base_threads});
  for (auto& c : s.cells) {
    if (c.median_seconds <= 0) continue;
    if (serial != medians.end()) c.speedup_vs_serial = serial->second / c.median_seconds;
    const auto base = medians.find({c.variant, s.base_threads});
    if (base != medians.end()) c.speedup_vs_base_threads = base->second / c.median_seconds;
  }
  for (std::size_t i = 1; i < s.cells.size(); ++i)
    if (s.cells[i].median_seconds < s.cells[s.fastest].median_seconds) s.fastest = i;
  return s;
}

}  // namespace stategraph
