#include <string>

#include "variants.hpp"

namespace stategraph {

const std::vector<VariantInfo>& variant_table() {
  static const std::vector<VariantInfo> table = {
      {"reference", "queue + hash map of state strings (textbook baseline, oracle)", bfs::run_reference,
       bfs::bytes_reference},
      {"serial", "one thread, visited bitset + vector of frontier ranks", bfs::run_serial, bfs::bytes_serial},
      {"topdown", "TBB, frontier bitset scanned in parallel, atomic fetch_or into visited/next (3 bits/rank)",
       bfs::run_topdown, bfs::bytes_topdown},
      {"bottomup", "TBB, every unvisited rank looks for a parent in the frontier, no atomics (3 bits/rank)",
       bfs::run_bottomup, bfs::bytes_bottomup},
      {"hybrid", "TBB, direction-optimizing: top-down or bottom-up per level (Beamer et al.) (3 bits/rank)",
       bfs::run_hybrid, bfs::bytes_hybrid},
      {"twobit", "TBB, 2 bits per rank, whole array scanned per level, direction per level (2 bits/rank)",
       bfs::run_twobit, bfs::bytes_twobit},
  };
  return table;
}

const VariantInfo& find_variant(std::string_view name) {
  std::string known;
  for (const auto& v : variant_table()) {
    if (v.name == name) return v;
    known += (known.empty() ? "" : ", ") + std::string(v.name);
  }
  throw InputError("unknown BFS variant '" + shown_input(name) + "' (known: " + known + ")");
}

}  // namespace stategraph
