// Components over the ranked space: repeated BFS over the bitset of unvisited ranks.
// Also the forward-backward strong components used by the tests, and analyze_graph,
// which puts components and diameters together (diameter methods: diameter.cpp).
#include "stategraph/analysis/graph.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <iostream>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>

#include "analysis/graph_internal.hpp"
#include "stategraph/bfs/engine.hpp"
#include "stategraph/bfs/memory.hpp"
#include "stategraph/rules/rule.hpp"

namespace stategraph {
namespace {

// A frontier above this many ranks is expanded in parallel.
constexpr std::size_t kParallelFrontier = 4096;

// Weak and strong components coincide on a directed rule whose moves are fixed
// permutations of the states (max_move_order() > 0: rotate, defined rules): every edge
// lies on a directed cycle (the proof is at the Rule concept), so each edge walked
// backwards can be replaced by the rest of its cycle and every weak component is
// strongly connected. The states reachable from v along successors are then exactly v's
// weak (= strong) component, and one forward BFS per component finds it.
// tests/graph_test.cpp checks weak == strong == forward on small sizes.
template <class R>
Connectivity resolve(const R& rule, Connectivity c) {
  if (c != Connectivity::kAuto) return c;
  if (!rule.directed()) return Connectivity::kForward;  // successors are all neighbours
  return rule.max_move_order() > 0 ? Connectivity::kForward : Connectivity::kWeak;
}

template <class R, class F>
void for_each_neighbour(const R& rule, Connectivity c, State s, F&& f) {
  rule.for_each_successor(s, f);
  if (c == Connectivity::kWeak) rule.for_each_predecessor(s, f);
}

// Repeated BFS over one visited bitset shared by all components.
template <class R>
class ComponentSearch {
 public:
  ComponentSearch(const R& rule, Connectivity c) : rule_(rule), conn_(c), n_(rule.size()), visited_(n_) {
    bfs_opts_.forward = true;
  }

  std::vector<ComponentInfo> run(const ComponentOptions& options) {
    stop_ = options.stop;
    bfs_opts_.stop = options.stop;  // the bitset levels (hybrid_levels) throw between two levels
    std::vector<ComponentInfo> out;
    std::vector<std::uint64_t> goals;
    for (State g : rule_.goals()) goals.push_back(rule_.rank(g));
    std::vector<std::uint64_t> ranks;
    std::uint64_t* vw = visited_.words();
    for (std::uint64_t w = 0; w < visited_.num_words(); ++w) {
      while (true) {
        const std::uint64_t free = ~vw[w] & bfs::valid_mask(visited_, w);
        if (!free) break;
        const std::uint64_t root = w * 64 + static_cast<unsigned>(std::countr_zero(free));
        ComponentInfo info;
        info.representative = root;
        std::vector<bool> before;
        for (auto g : goals) before.push_back(visited_.test(g));
        ranks.clear();
        const bool collect = (options.on_component || options.on_large_component) && options.collect_limit > 0;
        want_mask_ = collect && options.on_large_component;
        have_snapshot_ = false;
        search(root, info, collect ? &ranks : nullptr, options.collect_limit);
        for (std::size_t i = 0; i < goals.size(); ++i)
          if (!before[i] && visited_.test(goals[i])) info.has_goal = true;
        if (options.on_component) options.on_component(info, ranks);
        if (have_snapshot_) {
          // The component's ranks: visited now but not at the snapshot.
          std::uint64_t* sw = snapshot_.words();
          const std::uint64_t* v = visited_.words();
          tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, snapshot_.num_words(), 1u << 14), [&](const auto& r) {
            for (std::uint64_t i = r.begin(); i != r.end(); ++i) sw[i] = v[i] & ~sw[i];
          });
          options.on_large_component(out.size(), info, std::move(snapshot_));
          snapshot_ = Bitset();
          have_snapshot_ = false;
        }
        out.push_back(info);
      }
    }
    return out;
  }

 private:
  // BFS from root over unvisited ranks; fills size and eccentricity.
  void search(std::uint64_t root, ComponentInfo& info, std::vector<std::uint64_t>* collect,
              std::uint64_t collect_limit) {
    frontier_.assign(1, root);
    visited_.set(root);
    std::uint64_t size = 1;
    int depth = 0;
    bool collecting = collect != nullptr;
    while (true) {
      throw_if_stopped(stop_);
      if (collecting) {
        if (size > collect_limit) {
          take_snapshot(*collect, frontier_.data(), frontier_.size(), nullptr);
          collecting = false, collect->clear(), collect->shrink_to_fit();
        } else {
          collect->insert(collect->end(), frontier_.begin(), frontier_.end());
        }
      }
      // A big frontier (and a space big enough for it to matter): bitset steps.
      if (conn_ == Connectivity::kForward && frontier_.size() > 65536 && frontier_.size() * 32 > n_) {
        bitset_tail(size, depth, collecting ? collect : nullptr, collect_limit);
        break;
      }
      expand();
      if (next_.empty()) break;
      ++depth;
      size += next_.size();
      frontier_.swap(next_);
    }
    info.size = size;
    info.eccentricity_of_representative = depth;
    if (frontier_.capacity() > (1u << 20)) frontier_ = {}, next_ = {};
  }

  void expand() {
    next_.clear();
    if (frontier_.size() < kParallelFrontier) {
      for (std::uint64_t r : frontier_)
        for_each_neighbour(rule_, conn_, rule_.unrank(r), [&](State t) {
          const std::uint64_t q = rule_.rank(t);
          if (!visited_.test(q)) visited_.set(q), next_.push_back(q);
        });
      return;
    }
    tbb::enumerable_thread_specific<std::vector<std::uint64_t>> local;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, frontier_.size(), 1024), [&](const auto& range) {
      auto& mine = local.local();
      for (std::size_t i = range.begin(); i != range.end(); ++i)
        for_each_neighbour(rule_, conn_, rule_.unrank(frontier_[i]), [&](State t) {
          const std::uint64_t q = rule_.rank(t);
          if (visited_.atomic_set(q)) mine.push_back(q);
        });
    });
    for (auto& v : local) next_.insert(next_.end(), v.begin(), v.end());
  }

  // Finishes the BFS with frontier/next bitsets and the shared parallel steps of the
  // BFS engine (top-down or bottom-up, chosen by the hybrid variant's cost model). Bottom-up scans every unvisited
  // rank, also those of later components; they find no parent in the frontier.
  void bitset_tail(std::uint64_t& size, int& depth, std::vector<std::uint64_t>* collect, std::uint64_t collect_limit) {
    if (frontier_bits_.size() == 0) frontier_bits_ = Bitset(n_), next_bits_ = Bitset(n_);
    bfs::parallel_clear(frontier_bits_);
    for (std::uint64_t r : frontier_) frontier_bits_.set(r);
    frontier_ = {};
    next_ = {};
    std::uint64_t count = 0;
    for (std::uint64_t w = 0; w < frontier_bits_.num_words(); ++w)
      count += static_cast<std::uint64_t>(std::popcount(frontier_bits_.words()[w]));
    const int depth0 = depth;
    const auto on_level = [&](int level, std::uint64_t found) {
      depth = depth0 + level;
      size += found;
      if (!collect) return;
      if (size > collect_limit) {
        take_snapshot(*collect, nullptr, 0, &frontier_bits_);
        collect->clear(), collect->shrink_to_fit(), collect = nullptr;
        return;
      }
      const std::uint64_t* fw = frontier_bits_.words();
      for (std::uint64_t w = 0; w < frontier_bits_.num_words(); ++w)
        for (std::uint64_t b = fw[w]; b; b &= b - 1)
          collect->push_back(w * 64 + static_cast<unsigned>(std::countr_zero(b)));
    };
    bfs::hybrid_levels(rule_, bfs_opts_, frontier_bits_, visited_, next_bits_, count, n_ - visited_.count(), on_level);
  }

  // The component outgrew the collect limit: remember visited minus the component's
  // ranks so far (collected ones, plus the current level as a vector or a bitset), so
  // that at its end visited & ~snapshot is exactly the component.
  void take_snapshot(const std::vector<std::uint64_t>& collected, const std::uint64_t* level, std::size_t level_size,
                     const Bitset* level_bits) {
    if (!want_mask_) return;
    snapshot_ = Bitset(n_);
    std::uint64_t* sw = snapshot_.words();
    const std::uint64_t* v = visited_.words();
    const std::uint64_t* lb = level_bits ? level_bits->words() : nullptr;
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, snapshot_.num_words(), 1u << 14), [&](const auto& r) {
      for (std::uint64_t i = r.begin(); i != r.end(); ++i) sw[i] = lb ? v[i] & ~lb[i] : v[i];
    });
    auto drop = [&](std::uint64_t q) { sw[q >> 6] &= ~(std::uint64_t{1} << (q & 63)); };
    for (std::uint64_t q : collected) drop(q);
    for (std::size_t i = 0; i < level_size; ++i) drop(level[i]);
    have_snapshot_ = true;
  }

  const R& rule_;
  Connectivity conn_;
  std::uint64_t n_;
  Bitset visited_;
  Bitset snapshot_;
  bool want_mask_ = false, have_snapshot_ = false;
  Bitset frontier_bits_, next_bits_;
  std::vector<std::uint64_t> frontier_, next_;
  BfsOptions bfs_opts_;
  const std::atomic<int>* stop_ = nullptr;
};

// Serial BFS over ranks not yet `assigned`, along successors (forward) or predecessors;
// marks reached ranks with `mark` in `seen` and returns them.
template <class R>
std::vector<std::uint64_t> reach(const R& rule, std::uint64_t root, bool forward,
                                 const std::vector<std::uint8_t>& assigned, std::vector<std::uint8_t>& seen,
                                 std::uint8_t mark) {
  std::vector<std::uint64_t> out{root};
  seen[root] = mark;
  for (std::size_t i = 0; i < out.size(); ++i) {
    auto visit = [&](State t) {
      const std::uint64_t q = rule.rank(t);
      if (!assigned[q] && seen[q] != mark) seen[q] = mark, out.push_back(q);
    };
    if (forward)
      rule.for_each_successor(rule.unrank(out[i]), visit);
    else
      rule.for_each_predecessor(rule.unrank(out[i]), visit);
  }
  return out;
}

}  // namespace

std::vector<ComponentInfo> find_components(const AnyRule& rule, const ComponentOptions& options) {
  return std::visit(
      [&](const auto& r) {
        ComponentSearch search(r, resolve(r, options.connectivity));
        return search.run(options);
      },
      rule);
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> strong_components(const AnyRule& rule) {
  return std::visit(
      [&](const auto& r) {
        const std::uint64_t n = r.size();
        std::vector<std::uint8_t> assigned(n, 0), fwd(n, 0), bwd(n, 0);
        std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
        std::uint8_t mark = 0;
        for (std::uint64_t v = 0; v < n; ++v) {
          if (assigned[v]) continue;
          if (++mark == 0) {  // the marks wrapped: start the byte maps afresh
            std::fill(fwd.begin(), fwd.end(), 0);
            std::fill(bwd.begin(), bwd.end(), 0);
            mark = 1;
          }
          reach(r, v, true, assigned, fwd, mark);
          const auto back = reach(r, v, false, assigned, bwd, mark);
          std::uint64_t size = 0;
          for (auto q : back)
            if (fwd[q] == mark) assigned[q] = 1, ++size;
          out.emplace_back(v, size);
        }
        return out;
      },
      rule);
}

const char* component_method_name(ComponentMethod m) {
  switch (m) {
    case ComponentMethod::kNone:
      return "";
    case ComponentMethod::kSingle:
      return "single";
    case ComponentMethod::kCayley:
      return "cayley";
    case ComponentMethod::kBlankOrbits:
      return "blank-orbits";
    case ComponentMethod::kAllSources:
      return "all-sources";
    case ComponentMethod::kBounding:
      return "bounding";
    case ComponentMethod::kBoundingMasked:
      return "bounding-masked";
    case ComponentMethod::kMirror:
      return "mirror";
    case ComponentMethod::kEccentricity:
      return "eccentricity";
  }
  return "";
}

std::vector<Symmetry> rule_automorphisms(const AnyRule& rule) {
  return std::visit(
      [](const auto& r) -> std::vector<Symmetry> {
        if constexpr (requires { r.automorphisms(); })
          return r.automorphisms();
        else
          return {};
      },
      rule);
}

namespace {

void check_memory(const GraphOptions& o, std::uint64_t need, const std::string& what) {
  if (o.verbose && need >= (std::uint64_t{64} << 20))
    std::cerr << "  graph: " << what << " needs " << format_bytes(need) << "\n";
  if (o.memory_limit && need > o.memory_limit)
    throw InputError("the graph analysis's " + what + " needs " + format_bytes(need) + ", more than the limit " +
                     format_bytes(o.memory_limit) + " (--max-memory)");
}

void set_bounds(ComponentInfo& c, const DiameterBounds& b) {
  c.diameter_lower = b.lower, c.diameter_upper = b.upper;
  c.diameter = b.lower == b.upper ? b.lower : -1;
  c.method = b.method;
  c.bfs_runs = b.runs;
  c.image_sources = b.image_sources;
}

// Without a search: ecc(rep) <= diameter <= 2 ecc(rep) (undirected components).
void eccentricity_bounds(const AnyRule& rule, ComponentInfo& c) {
  if (rule_directed(rule)) return;
  c.diameter_lower = c.eccentricity_of_representative;
  c.diameter_upper = 2 * c.eccentricity_of_representative;
  if (c.diameter_lower == c.diameter_upper) c.diameter = c.diameter_lower;
  c.method = ComponentMethod::kEccentricity;
}

}  // namespace

GraphReport analyze_graph(const AnyRule& rule, const GraphOptions& options) {
  GraphReport report;
  const double t0 = now_seconds();
  const double deadline = options.budget_seconds > 0 ? t0 + options.budget_seconds : 0;
  const DiameterPlan plan = plan_diameter(rule, options);
  const std::uint64_t space = rule_size(rule);
  const bool undirected = !rule_directed(rule);
  const bool masked = plan.collect && options.bound_large && undirected;
  check_memory(options, (masked ? 4 : 3) * Bitset::bytes_for(space), "component labelling");
  const int max_degree = std::visit([](const auto& r) { return r.max_degree(); }, rule);

  auto keep_witness = [&](std::size_t index, const ComponentInfo& c, DiameterBounds& b) {
    if (c.size < options.witness_min_size && b.lower == b.upper) return;
    b.witness.component = index;
    report.witnesses.push_back(std::move(b.witness));
  };

  // Orbits of components under the automorphisms: a collected component's key is the
  // smallest rank of its images (the smallest representative among g.C over all g), so
  // two components share a key iff an automorphism maps one onto the other; the later
  // one copies the first one's bounds. Costs |C| x |G| rank computations, less than one
  // BFS per automorphism-free search would (and a component's images are found without
  // a map from ranks to components).
  const std::vector<Symmetry> autos =
      options.symmetry && plan.collect && undirected ? rule_automorphisms(rule) : std::vector<Symmetry>{};
  if (!autos.empty()) report.symmetries = autos.size();
  struct Seen {
    std::size_t index;
    ComponentInfo info;
  };
  std::unordered_map<std::uint64_t, Seen> orbit_first;
  auto orbit_key = [&](const std::vector<std::uint64_t>& ranks) {
    return std::visit(
        [&](const auto& r) {
          auto body = [&](const tbb::blocked_range<std::size_t>& range, std::uint64_t best) {
            if (options.stop && options.stop->load(std::memory_order_relaxed)) return best;  // thrown below
            for (std::size_t i = range.begin(); i != range.end(); ++i) {
              const State x = r.unrank(ranks[i]);
              for (const Symmetry& g : autos) best = std::min(best, r.rank(g.apply(x)));
            }
            return best;
          };
          const tbb::blocked_range<std::size_t> all(0, ranks.size(), 256);
          if (ranks.size() * autos.size() < 100000) return body(all, ~std::uint64_t{0});
          const std::uint64_t key = tbb::parallel_reduce(
              all, ~std::uint64_t{0}, body, [](std::uint64_t a, std::uint64_t b) { return std::min(a, b); });
          throw_if_stopped(options.stop);
          return key;
        },
        rule);
  };

  double small_seconds = 0;
  std::vector<std::pair<std::size_t, Bitset>> large;  // index, mask
  std::size_t index = 0;  // of the next component reported (on_component runs before it is stored)
  ComponentOptions co;
  co.stop = options.stop;
  co.collect_limit = plan.collect ? options.exact_limit : 0;
  co.on_component = [&](ComponentInfo& info, std::vector<std::uint64_t>& ranks) {
    const std::size_t i = index++;
    if (!plan.collect) return;
    if (info.size == 1) {
      info.diameter = info.diameter_lower = info.diameter_upper = 0;
      info.method = ComponentMethod::kSingle;
    } else if (!ranks.empty()) {
      const double t = now_seconds();
      std::uint64_t key = 0;
      if (!autos.empty()) {
        key = orbit_key(ranks);
        const auto it = orbit_first.find(key);
        if (it != orbit_first.end()) {
          const ComponentInfo& o = it->second.info;
          info.diameter = o.diameter, info.diameter_lower = o.diameter_lower, info.diameter_upper = o.diameter_upper;
          info.method = ComponentMethod::kMirror, info.mirror_of = static_cast<std::int64_t>(it->second.index);
          ++report.mirrored_components;
          report.mirrored_states += info.size;
          small_seconds += now_seconds() - t;
          return;
        }
      }
      check_memory(options, csr_bytes(ranks.size(), max_degree), "adjacency list");
      DiameterBounds b = bound_diameter(rule, std::move(ranks), options.all_sources_limit, options.budget_runs_small,
                                        deadline, options.engine, autos, options.stop);
      set_bounds(info, b);
      report.diameter_bfs_runs += b.runs;
      report.diameter_image_sources += b.image_sources;
      report.budget_stopped |= b.stopped;
      keep_witness(i, info, b);
      if (!autos.empty()) orbit_first.emplace(key, Seen{i, info});
      small_seconds += now_seconds() - t;
    } else if (!masked) {
      eccentricity_bounds(rule, info);
    }
  };
  if (masked)
    co.on_large_component = [&](std::size_t i, ComponentInfo&, Bitset&& mask) {
      large.emplace_back(i, std::move(mask));
    };
  const BfsResult* goal = options.goal_bfs;
  if (!plan.collect && goal && !goal->layers.empty() && goal->reached() == space) {
    // The goal's BFS reached every rank, so the space is one component with
    // representative rank 0. Its eccentricity equals the goal's (max_depth): for rotate
    // (and a defined rule with distinct pieces, the only one planned kCayley)
    // every vertex of a Cayley graph has the same out- and in-eccentricity (the longest
    // shortest word in the group; diameter.cpp); for sliding, rank 0 has its blank on
    // cell 0 and the goal on the last cell, one orbit of the 180-degree turn, and the
    // eccentricity depends only on that orbit (diameter.cpp).
    ComponentInfo whole;
    whole.size = space;
    whole.representative = 0;
    whole.eccentricity_of_representative = goal->max_depth();
    whole.has_goal = true;
    report.components = {whole};
  } else {
    report.components = find_components(rule, co);
  }
  const double t1 = now_seconds();
  report.components_seconds = t1 - t0 - small_seconds;
  report.small_seconds = small_seconds;

  // The large components: an image of an earlier one under an automorphism copies its
  // bounds; the others take the masked BoundingDiameters while the time budget lasts.
  for (std::size_t k = 0; k < large.size(); ++k) {
    throw_if_stopped(options.stop);
    auto& [i, mask] = large[k];
    ComponentInfo& c = report.components[i];
    bool mirrored = false;
    for (std::size_t j = 0; j < k && !mirrored; ++j) {
      const ComponentInfo& o = report.components[large[j].first];
      if (o.size != c.size) continue;
      std::visit(
          [&](const auto& r) {
            const State rep = r.unrank(c.representative);
            for (const Symmetry& g : autos)
              if (large[j].second.test(r.rank(g.apply(rep)))) {
                mirrored = true;
                break;
              }
          },
          rule);
      if (mirrored) {
        c.diameter = o.diameter, c.diameter_lower = o.diameter_lower, c.diameter_upper = o.diameter_upper;
        c.method = ComponentMethod::kMirror, c.mirror_of = static_cast<std::int64_t>(large[j].first);
        ++report.mirrored_components;
        report.mirrored_states += c.size;
      }
    }
    if (mirrored) continue;
    if (deadline > 0 && now_seconds() >= deadline) {
      eccentricity_bounds(rule, c);
      report.budget_stopped = true;
      continue;
    }
    check_memory(options, masked_bytes(space, c.size) + large.size() * Bitset::bytes_for(space),
                 "masked search of a component of " + std::to_string(c.size) + " states");
    DiameterBounds b =
        bound_diameter_masked(rule, mask, c.representative, options.budget_runs, deadline, options.verbose, autos,
                              options.stop);
    set_bounds(c, b);
    report.diameter_bfs_runs += b.runs;
    report.diameter_image_sources += b.image_sources;
    report.budget_stopped |= b.stopped;
    keep_witness(i, c, b);
  }
  large.clear();
  const double t2 = now_seconds();
  report.large_seconds = t2 - t1;

  finish_diameters(rule, options, plan, report);
  report.diameter_seconds = small_seconds + (now_seconds() - t1);
  // A rule that ranks one of two isomorphic parity classes names the map onto the other
  // (sliding: swapping tiles 1 and 2), which takes components one to one onto the other
  // class's, keeping sizes and distances.
  const std::string other_class = std::visit(
      [](const auto& r) -> std::string {
        if constexpr (requires { r.other_parity_class(); })
          return std::string(r.other_parity_class());
        else
          return {};
      },
      rule);
  if (options.whole_space && !other_class.empty()) {
    const std::size_t k = report.components.size();
    for (std::size_t i = 0; i < k; ++i) {
      ComponentInfo c = report.components[i];
      c.other_class = true, c.has_goal = false, c.mirror_of = static_cast<std::int64_t>(i);
      c.method = ComponentMethod::kMirror, c.bfs_runs = 0, c.image_sources = 0;
      report.components.push_back(c);
    }
    report.note = "all arrangements: components " + std::to_string(k) + ".." + std::to_string(2 * k - 1) +
                  " (the other parity class) are the images of 0.." + std::to_string(k - 1) + " under " + other_class;
  }
  for (auto& c : report.components) {
    if (c.diameter >= 0 && c.diameter_lower < 0) c.diameter_lower = c.diameter_upper = c.diameter;
    report.largest_component = std::max(report.largest_component, c.size);
    if (c.has_goal) report.goal_component_size += c.size;
  }
  report.diameter = 0, report.diameter_lower = 0, report.diameter_upper = 0;
  for (const auto& c : report.components) {
    if (c.diameter < 0)
      report.diameter = -1;
    else if (report.diameter >= 0)
      report.diameter = std::max(report.diameter, c.diameter);
    report.diameter_lower = std::max(report.diameter_lower, c.diameter_lower);
    if (c.diameter_upper < 0 || report.diameter_upper < 0)
      report.diameter_upper = -1;
    else
      report.diameter_upper = std::max(report.diameter_upper, c.diameter_upper);
  }
  if (report.diameter_lower < 0 || report.components.empty()) report.diameter_lower = -1;
  return report;
}

}  // namespace stategraph
