// Internal: the entry points of the BFS variants, one per file in src/bfs/, gathered
// into variant_table() by registry.cpp.
//
// Adding a BFS variant:
// 1. Write `src/bfs/<name>.cpp` with `run_<name>` and `bytes_<name>` (a level-synchronous one gives
//    `run_levels` in `src/bfs/driver.hpp` a store, and gets resume and checkpoints).
// 2. Declare both in `src/bfs/variants.hpp`; add the file to `CMakeLists.txt`.
// 3. Add its row to `variant_table()` in `src/bfs/registry.cpp`: the CLI, `compare` and plots read it.
// 4. Run the suite: every variant is cross-checked against `reference` on the small grids.
#pragma once

#include "stategraph/bfs/bfs.hpp"

namespace stategraph::bfs {

BfsResult run_reference(const AnyRule& rule, const BfsOptions& options);
std::uint64_t bytes_reference(const AnyRule& rule, const BfsOptions& options);

BfsResult run_serial(const AnyRule& rule, const BfsOptions& options);
std::uint64_t bytes_serial(const AnyRule& rule, const BfsOptions& options);

BfsResult run_topdown(const AnyRule& rule, const BfsOptions& options);
std::uint64_t bytes_topdown(const AnyRule& rule, const BfsOptions& options);

BfsResult run_bottomup(const AnyRule& rule, const BfsOptions& options);
std::uint64_t bytes_bottomup(const AnyRule& rule, const BfsOptions& options);

BfsResult run_hybrid(const AnyRule& rule, const BfsOptions& options);
std::uint64_t bytes_hybrid(const AnyRule& rule, const BfsOptions& options);

BfsResult run_twobit(const AnyRule& rule, const BfsOptions& options);
std::uint64_t bytes_twobit(const AnyRule& rule, const BfsOptions& options);

BfsResult run_disk(const AnyRule& rule, const BfsOptions& options);
std::uint64_t bytes_disk(const AnyRule& rule, const BfsOptions& options);

BfsResult run_thin(const AnyRule& rule, const BfsOptions& options);
std::uint64_t bytes_thin(const AnyRule& rule, const BfsOptions& options);

}  // namespace stategraph::bfs
