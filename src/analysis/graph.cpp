// Components over the ranked space: repeated BFS over the bitset of unvisited ranks.
// Also the forward-backward strong components used by the tests, and analyze_graph,
// which puts components and diameters together (diameter methods: diameter.cpp).
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <stdexcept>

#include "analysis/graph_internal.hpp"
#include "stategraph/bfs/engine.hpp"
#include "stategraph/analysis/graph.hpp"

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
        const bool collect = options.on_component && options.collect_limit > 0;
        search(root, info, collect ? &ranks : nullptr, options.collect_limit);
        for (std::size_t i = 0; i < goals.size(); ++i)
          if (!before[i] && visited_.test(goals[i])) info.has_goal = true;
        if (options.on_component) options.on_component(info, ranks);
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
      if (collecting) {
        if (size > collect_limit) collecting = false, collect->clear(), collect->shrink_to_fit();
        else collect->insert(collect->end(), frontier_.begin(), frontier_.end());
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
  void bitset_tail(std::uint64_t& size, int& depth, std::vector<std::uint64_t>* collect,
                   std::uint64_t collect_limit) {
    if (frontier_bits_.size() == 0) frontier_bits_ = Bitset(n_), next_bits_ = Bitset(n_);
    bfs::parallel_clear(frontier_bits_);
    for (std::uint64_t r : frontier_) frontier_bits_.set(r);
    frontier_ = {};
    next_ = {};
    std::uint64_t unvisited = n_ - visited_.count();
    std::uint64_t count = 0, previous = 0;
    for (std::uint64_t w = 0; w < frontier_bits_.num_words(); ++w)
      count += static_cast<std::uint64_t>(std::popcount(frontier_bits_.words()[w]));
    while (unvisited > 0) {
      const bool bottomup = bfs::choose_direction(count, previous, unvisited) == Direction::kBottomUp;
      if (!bottomup) bfs::parallel_clear(next_bits_);
      previous = count;
      count = bottomup ? bfs::bottomup_step(rule_, bfs_opts_, frontier_bits_, visited_, next_bits_)
                       : bfs::topdown_step(rule_, bfs_opts_, frontier_bits_, visited_, next_bits_);
      if (count == 0) break;
      unvisited -= count;
      ++depth;
      size += count;
      std::swap(frontier_bits_, next_bits_);
      if (collect) {
        if (size > collect_limit) {
          collect->clear(), collect->shrink_to_fit(), collect = nullptr;
        } else {
          const std::uint64_t* fw = frontier_bits_.words();
          for (std::uint64_t w = 0; w < frontier_bits_.num_words(); ++w)
            for (std::uint64_t b = fw[w]; b; b &= b - 1) collect->push_back(w * 64 + static_cast<unsigned>(std::countr_zero(b)));
        }
      }
    }
  }

  const R& rule_;
  Connectivity conn_;
  std::uint64_t n_;
  Bitset visited_;
  Bitset frontier_bits_, next_bits_;
  std::vector<std::uint64_t> frontier_, next_;
  BfsOptions bfs_opts_;
};

// Serial BFS over ranks not yet `assigned`, along successors (forward) or predecessors;
// marks reached ranks with `mark` in `seen` and returns them.
template <class R>
std::vector<std::uint64_t> reach(const R& rule, std::uint64_t root, bool forward, const std::vector<std::uint8_t>& assigned,
                                 std::vector<std::uint8_t>& seen, std::uint8_t mark) {
  std::vector<std::uint64_t> out{root};
  seen[root] = mark;
  for (std::size_t i = 0; i < out.size(); ++i) {
    auto visit = [&](State t) {
      const std::uint64_t q = rule.rank(t);
      if (!assigned[q] && seen[q] != mark) seen[q] = mark, out.push_back(q);
    };
    if (forward) rule.for_each_successor(rule.unrank(out[i]), visit);
    else rule.for_each_predecessor(rule.unrank(out[i]), visit);
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

GraphReport analyze_graph(const AnyRule& rule, const GraphOptions& options) {
  using Clock = std::chrono::steady_clock;
  GraphReport report;
  const auto t0 = Clock::now();
  const DiameterPlan plan = plan_diameter(rule, options);
  double exact_seconds = 0;
  ComponentOptions co;
  co.collect_limit = plan.collect ? options.exact_limit : 0;
  co.on_component = [&](ComponentInfo& info, std::vector<std::uint64_t>& ranks) {
    if (!plan.collect) return;
    if (info.size == 1) {
      info.diameter = 0;
    } else if (!ranks.empty()) {
      const auto t = Clock::now();
      info.diameter = exact_diameter(rule, std::move(ranks), options.all_sources_limit, report.diameter_bfs_runs,
                                     options.engine);
      exact_seconds += std::chrono::duration<double>(Clock::now() - t).count();
    }
  };
  const BfsResult* goal = options.goal_bfs;
  if (!plan.collect && goal && !goal->layers.empty() && goal->reached() == rule_size(rule)) {
    // The goal's BFS reached every rank, so the space is one component with
    // representative rank 0. Its eccentricity equals the goal's (max_depth): for rotate
    // (and a defined rule with distinct pieces, the only one planned kCayley)
    // every vertex of a Cayley graph has the same out- and in-eccentricity (the longest
    // shortest word in the group; diameter.cpp); for sliding, rank 0 has its blank on
    // cell 0 and the goal on the last cell, one orbit of the 180-degree turn, and the
    // eccentricity depends only on that orbit (diameter.cpp).
    ComponentInfo whole;
    whole.size = rule_size(rule);
    whole.representative = 0;
    whole.eccentricity_of_representative = goal->max_depth();
    whole.has_goal = true;
    report.components = {whole};
  } else {
    report.components = find_components(rule, co);
  }
  report.components_seconds = std::chrono::duration<double>(Clock::now() - t0).count() - exact_seconds;
  report.diameter_seconds = exact_seconds;
  finish_diameters(rule, options, plan, report);
  for (const auto& c : report.components) {
    report.largest_component = std::max(report.largest_component, c.size);
    if (c.has_goal) report.goal_component_size += c.size;
  }
  report.diameter = 0;
  for (const auto& c : report.components) {
    if (c.diameter < 0) {
      report.diameter = -1;
      break;
    }
    report.diameter = std::max(report.diameter, c.diameter);
  }
  return report;
}

}  // namespace stategraph
