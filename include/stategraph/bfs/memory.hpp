// Memory limits: byte counts written with K/M/G/T suffixes (powers of 1024), the
// memory this machine can give (MemAvailable from /proc/meminfo), and the choice of
// the fastest BFS variant whose buffers fit.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "stategraph/bfs/bfs.hpp"

namespace stategraph {

// "4096", "512K", "1.5G", "2GiB", "3gb" -> bytes (K = 1024). InputError when malformed,
// zero or beyond 2^63.
std::uint64_t parse_bytes(std::string_view text);
// "1.50 GiB" style, for messages.
std::string format_bytes(std::uint64_t bytes);
// MemAvailable in bytes, or 0 when /proc/meminfo cannot be read.
std::uint64_t available_memory();

// The variants `--variant auto` considers, in their table order (VariantInfo::auto_order).
std::vector<const VariantInfo*> auto_variants();

// Resolves a variant name ("auto" = the first of auto_variants() that fits) and checks its
// need against `limit` bytes; throws InputError naming need and limit when it does
// not fit. `limit_source` says where the limit came from ("--max-memory", ...).
const VariantInfo& choose_variant(std::string_view name, const AnyRule& rule, const BfsOptions& options,
                                  std::uint64_t limit, std::string_view limit_source);

}  // namespace stategraph
