// The disk variant's plan and folder: how a space is cut into segments that fit the
// memory given, what the search holds in memory and on disk, and the checks made before
// anything is allocated or written. The search itself is src/bfs/disk.cpp (its design
// and the proof that a resumed run finds the same layers are in the comment there).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "stategraph/bfs/bfs.hpp"

namespace stategraph {

struct DiskPlan {
  std::uint64_t ranks = 0;          // the space
  std::uint64_t segment_ranks = 0;  // ranks per segment (the last one may be smaller)
  std::uint64_t segments = 0;
  std::uint64_t outbox_bytes = 0;  // the budget of the cross-segment update buffers
  std::uint64_t memory_bytes = 0;  // what the search holds: 3 bitsets of a segment + buffers + a reserve
  std::uint64_t disk_bytes = 0;    // an upper bound of its folder's size at any moment (0: none known)
  std::string text;                // "memory ..., disk ..." for the log line before the run
};

// The bytes the process keeps beside the search's buffers (code, oneTBB, stacks); part of
// memory_bytes, so that a run's peak RSS stays under the memory it was given.
inline constexpr std::uint64_t kDiskReserveBytes = std::uint64_t{64} << 20;

// The segments of a space of `ranks` ranks for `settings.memory` bytes (MemAvailable when
// 0): the fewest segments whose buffers fit, each a whole number of blocks of m! ranks
// (ranks sharing their first Lehmer digits) when a segment is smaller than the space, or
// segments of settings.segment_ranks. InputError when even the smallest plan does not fit.
DiskPlan plan_disk(std::uint64_t ranks, int cells, const DiskSettings& settings);
DiskPlan plan_disk(const AnyRule& rule, const DiskSettings& settings);
// The thin variant's (src/bfs/thin.cpp): the visited bits of the whole space and buffers
// in memory; segments are its layers' buckets; its disk need is not known in advance.
DiskPlan plan_thin(const AnyRule& rule, const DiskSettings& settings);

// The manifest that commits each pass of a disk BFS (DIR/disk-bfs.sgdm).
inline constexpr const char* kDiskManifest = "disk-bfs.sgdm";
// The bytes of the manifest and its temporary copy in plan.disk_bytes: a header, 8 bytes a
// segment and 40 a level, for searches of up to 100,000 levels. The rest of the bound is
// the data files'.
std::uint64_t disk_manifest_allowance(std::uint64_t segments);
// True when `dir` holds a disk BFS's manifest (a run to --resume).
bool holds_disk_run(const std::filesystem::path& dir);

// Before anything is allocated or written: `settings.dir` must be given, creatable and
// writable, and its file system must have plan.disk_bytes free (InputError otherwise; a
// resumed run counts the files it already has).
void check_disk_folder(const DiskPlan& plan, const DiskSettings& settings);

// "memory: ..., disk: ..." for the log line before a disk run.
std::string disk_plan_text(const DiskPlan& plan);

}  // namespace stategraph
