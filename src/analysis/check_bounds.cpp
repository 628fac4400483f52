// check-bounds: re-verifies a component's diameter witnesses with the BFS they name
// (what is checked and why it proves the bounds: include/stategraph/analysis/check_bounds.hpp).
//
// Each BFS is the engine's bitset BFS (bfs::hybrid_levels) restricted to the component
// by a mask, as in masked_diameter.cpp; distances are kept per state of the component
// (its position in the mask). The upper bound is recomputed per state w as
// hi(w) = min over sources s of ecc(s) + d(s, w): each BFS source contributes its
// distances as they come, each image t = g.s of a source its distances
// d(t, w) = d(g.s, w) = d(s, g^-1.w) read from the source's BFS (an unrank, an
// automorphism and a rank per state, cheaper than the BFS it replaces).
#include "stategraph/analysis/check_bounds.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

#include "analysis/graph_internal.hpp"
#include "stategraph/analysis/graph.hpp"
#include "stategraph/bfs/engine.hpp"

namespace stategraph {
namespace {

constexpr const char* kWitnessFile = "diameter_witnesses.csv";
constexpr std::uint16_t kNoBound = std::numeric_limits<std::uint16_t>::max();

std::uint64_t to_count(const std::string& s, const std::string& what) {
  if (!s.empty() && s.size() <= 19 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::stoull(s);
  throw InputError(what + ": '" + s + "' is not a count");
}

std::string row_text(std::size_t row) { return std::string(kWitnessFile) + " row " + std::to_string(row); }

template <class R>
class Checker {
 public:
  Checker(const R& rule, std::uint64_t first, const std::atomic<int>* stop)
      : rule_(rule),
        stop_(stop),
        directed_(rule.directed()),
        mask_(rule.size()),
        visited_(rule.size()),
        frontier_(rule.size()),
        next_(rule.size()) {
    opts_.stop = stop;
    opts_.forward = true;
    // The component: every rank reached from `first` (along successors).
    visited_.clear(), frontier_.clear(), next_.clear();
    visited_.set(first), frontier_.set(first);
    const auto run =
        bfs::hybrid_levels(rule_, opts_, frontier_, visited_, next_, 1, rule.size() - 1, [](int, std::uint64_t) {});
    ++runs_;
    std::memcpy(mask_.words(), visited_.words(), mask_.num_words() * sizeof(std::uint64_t));
    (void)run;
    index_.emplace(mask_);
    n_ = index_->size();
    dist_.assign(n_, 0);
  }

  std::uint64_t size() const { return n_; }
  std::uint64_t runs() const { return runs_; }
  bool contains(std::uint64_t rank) const { return rank < mask_.size() && mask_.test(rank); }
  std::uint64_t position(std::uint64_t rank) const { return index_->index(rank); }
  std::uint64_t smallest_rank() const {
    const std::uint64_t* w = mask_.words();
    for (std::uint64_t i = 0; i < mask_.num_words(); ++i)
      if (w[i]) return i * 64 + static_cast<unsigned>(std::countr_zero(w[i]));
    return 0;
  }
  const std::vector<std::uint16_t>& dist() const { return dist_; }

  // BFS from `src` inside the component; forward: dist = d(src, w), else d(w, src).
  // Returns the largest distance (the eccentricity when forward).
  int bfs(std::uint64_t src, bool forward) {
    throw_if_stopped(stop_);
    visit_outside(mask_, visited_);
    bfs::parallel_clear(frontier_);
    visited_.set(src), frontier_.set(src);
    dist_[position(src)] = 0;
    BfsOptions o = opts_;
    o.forward = forward || !directed_;
    const auto run = bfs::hybrid_levels(rule_, o, frontier_, visited_, next_, 1, n_ - 1, [&](int depth, std::uint64_t) {
      if (depth >= kNoBound / 2) throw std::length_error("component too deep for 16-bit distances");
      record(static_cast<std::uint16_t>(depth));
    });
    ++runs_;
    if (run.unvisited != 0)
      throw std::runtime_error("the component is not strongly connected: a BFS from " +
                               rule_.format(rule_.unrank(src)) + " misses " + std::to_string(run.unvisited) +
                               " of its states");
    return run.depth;
  }

  // hi[w] = min(hi[w], e + dist[w]) for every state; with g_inv: the images g.s of the
  // BFS source s, hi[w] = min(hi[w], e + dist[g^-1.w]) for the states with hi[w] > target
  // only (the others already meet the claimed bound, and hi only decreases).
  void tighten(std::vector<std::uint16_t>& hi, int e, const std::vector<const Symmetry*>& g_inv, int target) const {
    if (g_inv.empty()) {
      tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n_, 1u << 16), [&](const auto& r) {
        for (std::uint64_t i = r.begin(); i != r.end(); ++i)
          hi[i] = static_cast<std::uint16_t>(std::min<int>(hi[i], e + dist_[i]));
      });
      return;
    }
    const std::uint64_t* mw = mask_.words();
    std::atomic<bool> outside{false};
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, mask_.num_words(), 1u << 10), [&](const auto& r) {
      if (stop_ && stop_->load(std::memory_order_relaxed)) return;
      for (std::uint64_t w = r.begin(); w != r.end(); ++w) {
        std::uint64_t i = index_->word_base(w);
        for (std::uint64_t b = mw[w]; b; b &= b - 1, ++i) {
          if (hi[i] <= target) continue;
          const State x = rule_.unrank(w * 64 + static_cast<unsigned>(std::countr_zero(b)));
          int h = hi[i];
          for (const Symmetry* g : g_inv) {
            const std::uint64_t y = rule_.rank(g->apply(x));
            if (!mask_.test(y)) {
              outside = true;
              continue;
            }
            h = std::min(h, e + dist_[position(y)]);
          }
          hi[i] = static_cast<std::uint16_t>(h);
        }
      }
    });
    throw_if_stopped(stop_);
    if (outside) throw std::logic_error("an automorphism keeping a state of the component maps another outside it");
  }

 private:
  void record(std::uint16_t depth) {
    const std::uint64_t* fw = frontier_.words();
    const std::uint64_t* mw = mask_.words();
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, frontier_.num_words(), 1u << 14), [&](const auto& r) {
      for (std::uint64_t w = r.begin(); w != r.end(); ++w) {
        const std::uint64_t f = fw[w];
        if (!f) continue;
        const std::uint64_t base = index_->word_base(w), m = mw[w];
        for (std::uint64_t b = f; b; b &= b - 1) {
          const int bit = std::countr_zero(b);
          dist_[base + static_cast<std::uint64_t>(std::popcount(m & ((std::uint64_t{1} << bit) - 1)))] = depth;
        }
      }
    });
  }

  const R& rule_;
  const std::atomic<int>* stop_;
  bool directed_;
  Bitset mask_, visited_, frontier_, next_;
  std::optional<MaskIndex> index_;
  std::uint64_t n_ = 0;
  std::vector<std::uint16_t> dist_;
  BfsOptions opts_;
  std::uint64_t runs_ = 0;
};

template <class R>
ComponentCheck check_component(const R& rule, const std::vector<WitnessRow>& rows, const ComponentClaim* claim,
                               const std::atomic<int>* stop) {
  const double t0 = now_seconds();
  ComponentCheck out;
  out.component = rows.front().component;
  out.rows = rows.size();
  auto fail = [&](std::size_t row, const std::string& what) {
    out.failures.push_back({kWitnessFile, row, row_text(row) + ": " + what});
  };
  auto parse = [&](const WitnessRow& w, const std::string& text, const char* column) -> std::uint64_t {
    if (text.empty()) throw InputError(row_text(w.row) + ": " + w.kind + " row without " + column);
    State s;
    try {
      s = rule.parse(text);
    } catch (const InputError& e) {
      throw InputError(row_text(w.row) + ": " + column + " '" + text + "': " + e.what());
    }
    if (!rule.in_space(s))
      throw InputError(row_text(w.row) + ": " + column + " '" + text + "' is not in the rule's ranked space");
    return rule.rank(s);
  };
  auto value_of = [&](const WitnessRow& w) {
    if (!w.value) throw InputError(row_text(w.row) + ": " + w.kind + " row without a value");
    return *w.value;
  };

  // Gather the rows.
  const WitnessRow* lower_row = nullptr;
  const WitnessRow* upper_row = nullptr;
  const WitnessRow* pair_row = nullptr;
  std::uint64_t lower_a = 0, lower_b = 0;
  struct Source {
    const WitnessRow* row;
    std::uint64_t rank;
    int ecc = -1;                     // measured
    std::vector<std::size_t> images;  // indices into `images`
    int pair = -1;                    // its index among the pair sources, or -1
  };
  struct Image {
    const WitnessRow* row;
    std::uint64_t rank, of;
    const Symmetry* g_inv = nullptr;
  };
  std::vector<Source> sources;
  std::vector<Image> images;
  std::vector<std::pair<const WitnessRow*, std::uint64_t>> pair_sources;
  std::map<std::uint64_t, std::size_t> source_of;  // rank -> index of its BFS source row
  for (const WitnessRow& w : rows) {
    if (w.kind == "lower") {
      if (lower_row)
        throw InputError(row_text(w.row) + ": a second lower row for component " + std::to_string(out.component));
      lower_row = &w, lower_a = parse(w, w.state, "state"), lower_b = parse(w, w.other_state, "other_state");
      out.lower = value_of(w);
    } else if (w.kind == "upper") {
      if (upper_row)
        throw InputError(row_text(w.row) + ": a second upper row for component " + std::to_string(out.component));
      upper_row = &w, out.upper = value_of(w);
    } else if (w.kind == "source") {
      value_of(w);
      const std::uint64_t r = parse(w, w.state, "state");
      if (w.other_state.empty()) {
        source_of.emplace(r, sources.size());
        sources.push_back({&w, r, -1, {}, -1});
      } else {
        images.push_back({&w, r, parse(w, w.other_state, "other_state"), nullptr});
      }
    } else if (w.kind == "pair_upper") {
      if (pair_row)
        throw InputError(row_text(w.row) + ": a second pair_upper row for component " + std::to_string(out.component));
      pair_row = &w, value_of(w);
    } else if (w.kind == "pair_source") {
      pair_sources.emplace_back(&w, parse(w, w.state, "state"));
    }
  }
  if (!lower_row)
    throw InputError(std::string(kWitnessFile) + ": component " + std::to_string(out.component) + " has no lower row");
  if (!upper_row)
    throw InputError(std::string(kWitnessFile) + ": component " + std::to_string(out.component) + " has no upper row");
  if (!pair_sources.empty() && !pair_row)
    throw InputError(row_text(pair_sources.front().first->row) + ": pair_source rows without a pair_upper row");
  if (pair_row && pair_sources.size() < 2)
    throw InputError(row_text(pair_row->row) + ": a pair bound needs at least 2 pair_source rows");
  if (rule.directed() && pair_row)
    throw InputError(row_text(pair_row->row) + ": a pair bound on a directed rule (" + std::string(rule.name()) +
                     ") cannot be checked: d(x, y) <= d(x, s) + d(s, y) needs both directions");

  // The component: reached from the lower pair's first state.
  Checker<R> c(rule, lower_a, stop);
  out.size = c.size();
  for (const WitnessRow& w : rows)
    for (const std::string* text : {&w.state, &w.other_state})
      if (!text->empty() && !c.contains(parse(w, *text, text == &w.state ? "state" : "other_state")))
        fail(w.row, (text == &w.state ? "state " : "other_state ") + *text + " is not in component " +
                        std::to_string(out.component) + " (the " + std::to_string(c.size()) + " states reached from " +
                        lower_row->state + ")");
  if (!out.failures.empty()) {
    out.bfs_runs = c.runs(), out.seconds = now_seconds() - t0;
    return out;
  }
  for (std::size_t p = 0; p < pair_sources.size(); ++p) {
    auto it = source_of.find(pair_sources[p].second);
    if (it != source_of.end() && sources[it->second].pair < 0) sources[it->second].pair = static_cast<int>(p);
  }

  // Images: an automorphism mapping the source to the image.
  const std::vector<Symmetry> autos = rule_automorphisms(AnyRule(rule));
  std::vector<Symmetry> inverses;
  inverses.reserve(autos.size());
  for (const Symmetry& g : autos) inverses.push_back(g.inverse());
  std::vector<Image> unchecked;  // images whose source or mapping failed: no bound from them
  for (std::size_t k = 0; k < images.size(); ++k) {
    Image& im = images[k];
    auto it = source_of.find(im.of);
    if (it == source_of.end()) {
      fail(im.row->row,
           "image " + im.row->state + " of " + im.row->other_state + ", which has no source row of its own");
      continue;
    }
    const State from = rule.unrank(im.of), to = rule.unrank(im.rank);
    for (std::size_t g = 0; g < autos.size(); ++g)
      if (autos[g].apply(from) == to) {
        im.g_inv = &inverses[g];
        break;
      }
    if (!im.g_inv) {
      fail(im.row->row, "no automorphism of " + std::string(rule.name()) + " (" + std::to_string(autos.size()) +
                            " checked) maps source " + im.row->other_state + " to " + im.row->state);
      continue;
    }
    sources[it->second].images.push_back(k);
  }

  // BFS from each source: its eccentricity, the lower pair's distance, the bounds.
  std::vector<std::uint16_t> hi(c.size(), kNoBound);
  std::vector<std::vector<std::uint8_t>> pair_dist(pair_sources.size());
  std::vector<int> pair_ecc(pair_sources.size(), 0);
  bool lower_done = false;
  auto keep_pair = [&](std::size_t p, int e) {
    if (e > 255) throw std::length_error("a pair source's eccentricity above 255 (8-bit distances)");
    const auto& d = c.dist();
    pair_dist[p].resize(d.size());
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, d.size(), 1u << 16), [&](const auto& r) {
      for (std::uint64_t i = r.begin(); i != r.end(); ++i) pair_dist[p][i] = static_cast<std::uint8_t>(d[i]);
    });
    pair_ecc[p] = e;
  };
  auto check_lower = [&] {
    const int d = c.dist()[c.position(lower_b)];
    if (d != out.lower)
      fail(lower_row->row, "lower: d(" + lower_row->state + ", " + lower_row->other_state + ") is " +
                               std::to_string(d) + ", not " + std::to_string(out.lower));
    lower_done = true;
  };
  for (Source& s : sources) {
    s.ecc = c.bfs(s.rank, true);
    ++out.sources;
    if (s.ecc != *s.row->value)
      fail(s.row->row, "source " + s.row->state + " has eccentricity " + std::to_string(s.ecc) + ", not " +
                           std::to_string(*s.row->value));
    if (s.rank == lower_a) check_lower();
    if (s.pair >= 0 && !c.dist().empty()) keep_pair(static_cast<std::size_t>(s.pair), s.ecc);
    if (rule.directed()) c.bfs(s.rank, false);  // d(w, s) for ecc(w) <= d(w, s) + ecc(s)
    c.tighten(hi, s.ecc, {}, 0);
    std::vector<const Symmetry*> g_inv;
    for (std::size_t k : s.images) {
      const Image& im = images[k];
      ++out.images;
      if (*im.row->value != s.ecc)
        fail(im.row->row, "image " + im.row->state + " of source " + im.row->other_state + " has value " +
                              std::to_string(*im.row->value) + ", not the source's eccentricity " +
                              std::to_string(s.ecc));
      g_inv.push_back(im.g_inv);
    }
    if (!g_inv.empty()) c.tighten(hi, s.ecc, g_inv, out.upper);
  }
  if (!lower_done) {
    c.bfs(lower_a, true);
    check_lower();
  }
  for (std::size_t p = 0; p < pair_sources.size(); ++p)
    if (pair_dist[p].empty()) keep_pair(p, c.bfs(pair_sources[p].second, true));
  out.pair_sources = pair_sources.size();

  // The source bound: max over states of hi (every state has ecc <= hi). The images
  // skipped the states already at or below the claimed upper bound, so this is the exact
  // max over w of min over all sources when it exceeds upper, else at most upper.
  out.source_upper = tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, hi.size(), 1u << 16), 0,
      [&](const auto& r, int m) {
        for (std::uint64_t i = r.begin(); i != r.end(); ++i) m = std::max<int>(m, hi[i]);
        return m;
      },
      [](int a, int b) { return std::max(a, b); });
  if (sources.empty()) out.source_upper = -1;
  if (pair_row) {
    // pair_bound's table has (max ecc + 1)^(k - 1) cells per thread.
    double cells = 1;
    const int emax = *std::max_element(pair_ecc.begin(), pair_ecc.end());
    for (std::size_t j = 0; j + 1 < pair_ecc.size(); ++j) cells *= emax + 1;
    if (cells > double(1u << 27))
      throw InputError(row_text(pair_row->row) + ": the pair bound of " + std::to_string(pair_ecc.size()) +
                       " sources needs a table of " + std::to_string(static_cast<std::uint64_t>(cells)) +
                       " cells, too many to check here");
    out.pair_upper = pair_bound(pair_dist, pair_ecc);
    if (out.pair_upper > *pair_row->value)
      fail(pair_row->row, "pair_upper " + std::to_string(*pair_row->value) + " is below the pair bound " +
                              std::to_string(out.pair_upper) + " of its " + std::to_string(pair_sources.size()) +
                              " pair sources");
  }
  int bound = -1;
  if (out.source_upper >= 0) bound = out.source_upper;
  if (out.pair_upper >= 0) bound = bound < 0 ? out.pair_upper : std::min(bound, out.pair_upper);
  if (bound < 0)
    fail(upper_row->row, "upper " + std::to_string(out.upper) + " has no source or pair_source rows to prove it");
  else if (bound > out.upper)
    fail(upper_row->row, "upper " + std::to_string(out.upper) +
                             " is below the bound the sources give: " + std::to_string(bound) +
                             " (max over states of min over " + std::to_string(out.sources + out.images) +
                             " sources of ecc(s) + d(s, w): " + std::to_string(out.source_upper) +
                             (out.pair_upper >= 0 ? ", pair bound: " + std::to_string(out.pair_upper) : "") + ")");
  if (out.lower > out.upper)
    fail(upper_row->row, "upper " + std::to_string(out.upper) + " is below lower " + std::to_string(out.lower));

  if (claim) {
    auto cfail = [&](const std::string& what) {
      out.failures.push_back({"components.csv", claim->row,
                              "components.csv row " + std::to_string(claim->row) + " (component " +
                                  std::to_string(out.component) + "): " + what});
    };
    const std::string rep = rule.format(rule.unrank(c.smallest_rank()));
    if (claim->representative != rep)
      cfail("representative " + claim->representative + ", but the smallest rank of the component is " + rep);
    if (claim->size != c.size())
      cfail("size " + std::to_string(claim->size) + ", but the component has " + std::to_string(c.size()) + " states");
    if (claim->lower > out.lower || claim->upper < out.upper || claim->lower < 0)
      cfail("bounds [" + std::to_string(claim->lower) + ", " + std::to_string(claim->upper) +
            "] do not follow from the witnesses' [" + std::to_string(out.lower) + ", " + std::to_string(out.upper) +
            "]");
    if (claim->diameter >= 0 && (claim->diameter < out.lower || claim->diameter > out.upper))
      cfail("diameter " + std::to_string(claim->diameter) + " outside the witnesses' [" + std::to_string(out.lower) +
            ", " + std::to_string(out.upper) + "]");
    if (claim->diameter < 0 && out.lower == out.upper)
      cfail("no diameter, but the witnesses' bounds meet at " + std::to_string(out.lower));
  }
  // The first failure reported is the first false row of its own: the witness rows in
  // row order, then the upper row (which fails too when a source it rests on does),
  // then components.csv.
  const std::size_t upper_at = upper_row->row;
  auto rank_of = [&](const BoundsFailure& f) { return f.file != kWitnessFile ? 2 : f.row == upper_at ? 1 : 0; };
  std::stable_sort(out.failures.begin(), out.failures.end(), [&](const BoundsFailure& a, const BoundsFailure& b) {
    return rank_of(a) != rank_of(b) ? rank_of(a) < rank_of(b) : a.row < b.row;
  });
  out.bfs_runs = c.runs();
  out.seconds = now_seconds() - t0;
  return out;
}

}  // namespace

std::vector<WitnessRow> parse_witness_rows(const CsvData& csv, const std::string& what) {
  const std::size_t comp = csv.column("component", what), kind = csv.column("kind", what),
                    state = csv.column("state", what), other = csv.column("other_state", what),
                    value = csv.column("value", what);
  std::vector<WitnessRow> out;
  for (std::size_t i = 0; i < csv.rows.size(); ++i) {
    const auto& r = csv.rows[i];
    const std::string where = what + " row " + std::to_string(i + 1);
    if (r.size() != csv.header.size())
      throw InputError(where + ": " + std::to_string(r.size()) + " fields, the header has " +
                       std::to_string(csv.header.size()));
    WitnessRow w;
    w.row = i + 1;
    w.component = to_count(r[comp], where + ": component");
    w.kind = r[kind];
    static const char* kKinds[] = {"lower", "upper", "source", "pair_upper", "pair_source"};
    if (std::none_of(std::begin(kKinds), std::end(kKinds), [&](const char* k) { return w.kind == k; }))
      throw InputError(where + ": unknown kind '" + w.kind + "' (lower, upper, source, pair_upper, pair_source)");
    w.state = r[state], w.other_state = r[other];
    if (!r[value].empty()) {
      const std::uint64_t v = to_count(r[value], where + ": value");
      if (v > 65535) throw InputError(where + ": value " + r[value] + " is too large");
      w.value = static_cast<int>(v);
    }
    out.push_back(std::move(w));
  }
  return out;
}

ComponentCheck check_component_bounds(const AnyRule& rule, const std::vector<WitnessRow>& rows,
                                      const ComponentClaim* claim, const std::atomic<int>* stop) {
  if (rows.empty()) throw std::invalid_argument("check_component_bounds: no rows");
  return std::visit(
      [&](const auto& r) {
        bfs::check_batchable(r);
        if (r.directed() && rule_max_move_order(rule) <= 0)
          throw InputError(std::string(r.name()) +
                           " is directed with moves that are not bijections: its components are weak, and "
                           "check-bounds checks distances within strong components only");
        return check_component(r, rows, claim, stop);
      },
      rule);
}

std::uint64_t check_bounds_bytes(std::uint64_t space, std::uint64_t component, std::uint64_t pair_sources) {
  return 5 * Bitset::bytes_for(space) + component * (4 + pair_sources);
}

}  // namespace stategraph
