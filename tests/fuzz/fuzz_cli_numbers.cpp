// The CLI's own number parsers: --max-memory byte counts, table encodings, grid sizes,
// rule and variant names.
#include <cstring>

#include "fuzz_common.hpp"
#include "stategraph/bfs/memory.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const std::uint64_t b = stategraph::parse_bytes(text);
    if (b == 0) fuzz::finding("parse_bytes accepted 0");
  } catch (const stategraph::InputError& e) {
    fuzz::check_message(e);
  }
  try {
    stategraph::parse_encoding(text);
  } catch (const stategraph::InputError& e) {
    fuzz::check_message(e);
  }
  try {
    stategraph::find_variant(text);
  } catch (const stategraph::InputError& e) {
    fuzz::check_message(e);
  }
  if (size >= 8) {
    int rows, cols;
    std::memcpy(&rows, data, 4);
    std::memcpy(&cols, data + 4, 4);
    try {
      const stategraph::Grid g(rows, cols);
      if (g.cells() > stategraph::kMaxCells || g.rows < 2 || g.cols < 2) fuzz::finding("Grid accepted a bad size");
    } catch (const stategraph::InputError& e) {
      fuzz::check_message(e);
    }
  }
  return 0;
}
