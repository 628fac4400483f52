#include <string>

#include "variants.hpp"

namespace stategraph {

const std::vector<VariantInfo>& variant_table() {
  static const std::vector<VariantInfo> table = {
      {"reference", "queue + hash map of state strings (textbook baseline, oracle)", bfs::run_reference,
       bfs::bytes_reference},
      {"serial", "one thread, visited bitset + vector of frontier ranks", bfs::run_serial, bfs::bytes_serial},
  };
  return table;
}

const VariantInfo& find_variant(std::string_view name) {
  std::string known;
  for (const auto& v : variant_table()) {
    if (v.name == name) return v;
    known += (known.empty() ? "" : ", ") + std::string(v.name);
  }
  throw InputError("unknown BFS variant '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace stategraph
