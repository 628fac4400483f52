// Table files (solve --table): header checks, sizes, checksum, then a few look-ups.
#include <unistd.h>

#include <fstream>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/stategraph_fuzz_table_" + std::to_string(::getpid()) + ".sgdt";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const stategraph::TableFileInfo info = stategraph::read_table_info(path);
    const stategraph::AnyRule rule = stategraph::make_solve_rule(info.rule, info.rows, info.cols);
    const stategraph::DepthTable table = stategraph::load_depth_table(path, rule);
    const stategraph::State goal = std::visit([](const auto& r) { return r.goals()[0]; }, rule);
    stategraph::depth_of(rule, table, goal);
  } catch (const stategraph::InputError& e) {
    fuzz::check_message(e);
  }
  return 0;
}
