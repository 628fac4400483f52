// The variant table: one row per BFS variant, its entry points and its properties.
#include <algorithm>
#include <string>

#include "stategraph/bfs/disk.hpp"
#include "variants.hpp"

namespace stategraph {

const std::vector<VariantInfo>& variant_table() {
  using P = DirectionPolicy;
  // name, summary, run, bytes_needed, bits/rank, auto order, checkpoints, parallel, timed levels, MPI, MPI policy.
  // The auto order is fastest first (measured: README, BFS12/*); twobit is the smallest.
  static const std::vector<VariantInfo> table = {
      {"reference", "queue + hash map of state strings (textbook baseline, oracle)", bfs::run_reference,
       bfs::bytes_reference, 0, 0, false, false, false, false, P::kHybrid},
      {"serial", "one thread, visited bitset + vector of frontier ranks", bfs::run_serial, bfs::bytes_serial, 0, 0,
       false, false, true, false, P::kHybrid},
      {"topdown", "TBB, frontier bitset scanned in parallel, atomic fetch_or into visited/next (3 bits/rank)",
       bfs::run_topdown, bfs::bytes_topdown, 3, 2, true, true, true, true, P::kTopDown},
      {"bottomup", "TBB, every unvisited rank looks for a parent in the frontier, no atomics (3 bits/rank)",
       bfs::run_bottomup, bfs::bytes_bottomup, 3, 0, true, true, true, true, P::kBottomUp},
      {"hybrid", "TBB, direction-optimizing: top-down or bottom-up per level (Beamer et al.) (3 bits/rank)",
       bfs::run_hybrid, bfs::bytes_hybrid, 3, 1, true, true, true, true, P::kHybrid},
      {"twobit", "TBB, 2 bits per rank, whole array scanned per level, direction per level (2 bits/rank)",
       bfs::run_twobit, bfs::bytes_twobit, 2, 3, true, true, true, false, P::kHybrid},
      {"disk", "TBB, top-down over segments of the space that fit --max-memory, the rest in files in --disk DIR",
       bfs::run_disk, bfs::bytes_disk, 0, 4, false, true, true, false, P::kTopDown, true, plan_disk, true},
      {"thin", "TBB, top-down, visited bits of the whole space in memory, each layer a list of ranks in --disk DIR "
               "(long thin searches)",
       bfs::run_thin, bfs::bytes_thin, 0, 0, false, true, true, false, P::kTopDown, true, plan_thin, false},
  };
  return table;
}

std::vector<std::string> variant_names_by_kind() {
  std::vector<const VariantInfo*> order;
  for (const auto& v : variant_table()) order.push_back(&v);
  auto kind = [](const VariantInfo* v) { return v->parallel ? 0 : v->timed_levels ? 1 : 2; };
  std::stable_sort(order.begin(), order.end(), [&](const auto* a, const auto* b) { return kind(a) < kind(b); });
  std::vector<std::string> out;
  for (const auto* v : order) out.emplace_back(v->name);
  return out;
}

const VariantInfo* lookup_variant(std::string_view name) {
  for (const auto& v : variant_table())
    if (v.name == name) return &v;
  return nullptr;
}

const VariantInfo& find_variant(std::string_view name) {
  if (const VariantInfo* v = lookup_variant(name)) return *v;
  throw InputError("unknown BFS variant '" + shown_input(name) +
                   "' (known: " + variant_names([](const VariantInfo&) { return true; }) + ")");
}

}  // namespace stategraph
