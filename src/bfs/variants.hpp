// Internal: the entry points of the BFS variants, one per file in src/bfs/, gathered
// into variant_table() by registry.cpp.
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

}  // namespace stategraph::bfs
