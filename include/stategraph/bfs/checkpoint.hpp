// BFS checkpoints: the state of a level-synchronous search at a level boundary, saved
// so that a killed run can continue (`analyze --checkpoint DIR`, `--resume DIR`).
//
// What a checkpoint holds: an identity (rule, grid, space size, variant, the BFS
// options that change the result, a hash of the start set), the levels found so far
// (depth, states, direction, seconds), the search time so far, and the variant's
// buffers: visited + frontier bitsets for topdown/bottomup/hybrid, the 2-bit cell array
// for twobit, and the depth table when the run keeps one. Everything else (unvisited
// count, the hybrid's growth factor) follows from the levels.
//
// File DIR/checkpoint.sgck: the binary header of io/files.hpp (magic "SGCHKPT\0",
// format version 2, 256 header bytes, XXH3 checksum), written by AtomicFile, so DIR
// holds the previous complete checkpoint or the new one, never a partial file:
//   32  char[16] rule, NUL-padded    48  u32 rows               52  u32 cols
//   56  u64 space size (ranks)       64  char[16] variant       80  u32 flags (1 depths, 2 forward)
//   84  u32 levels                   88  u64 start-set hash     96  f64 seconds so far
//   104 u64 buffers (<= 8)           112 u64[8] buffer bytes    176..255 zero
// data: per level {u32 depth, u32 direction, u64 states, f64 seconds}, then the buffers.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "stategraph/bfs/bfs.hpp"

namespace stategraph {

struct CheckpointIdentity {
  std::string rule;
  int rows = 0, cols = 0;
  std::uint64_t space = 0;
  std::string variant;
  bool want_depths = false;
  bool forward = false;
  std::uint64_t sources_hash = 0;  // hash of the start set's ranks (cardswap's goals depend on --start)

  static CheckpointIdentity of(const AnyRule& rule, std::string_view variant, const BfsOptions& options);
  // Empty when `other` describes the same search, else which field differs (both values).
  std::string mismatch(const CheckpointIdentity& other) const;
};

// Whether the named variant can save and resume (VariantInfo::checkpoints); false for
// a name that is no variant (a checkpoint file may name anything).
bool variant_supports_checkpoints(std::string_view variant);

inline constexpr const char* kCheckpointFile = "checkpoint.sgck";

struct CheckpointBuffer {
  const void* data;
  std::uint64_t bytes;
};

// Saves checkpoints of one search into a folder, at most one per `interval` seconds
// (0: after every level).
class Checkpointer {
 public:
  Checkpointer(std::filesystem::path dir, CheckpointIdentity identity, double interval_seconds);

  const std::filesystem::path& file() const { return file_; }
  const CheckpointIdentity& identity() const { return identity_; }
  // True when `interval` seconds have passed since the last save (or the start).
  bool due() const;
  // Writes a checkpoint (temporary file, fsync, rename, fsync of the folder); throws
  // std::runtime_error naming the file and the system's reason, leaving the previous
  // checkpoint in place.
  void save(const std::vector<LevelStat>& levels, double seconds, const std::vector<CheckpointBuffer>& buffers);
  std::uint64_t saves() const { return saves_; }
  // Called after each successful save with the depth saved (tests use it to kill a run).
  std::function<void(int depth)> after_save;

 private:
  std::filesystem::path dir_, file_;
  CheckpointIdentity identity_;
  double interval_;
  std::chrono::steady_clock::time_point last_;
  std::uint64_t saves_ = 0;
};

// A checkpoint file read back: memory-mapped, header and checksum checked.
struct LoadedCheckpoint {
  std::filesystem::path file;
  CheckpointIdentity identity;
  std::vector<LevelStat> levels;
  double seconds = 0;
  std::vector<CheckpointBuffer> buffers;  // point into the mapping
  std::shared_ptr<const void> mapping;

  // Checks that the variant's layout matches (buffer count and sizes, the levels'
  // totals against `space`); InputError naming the file otherwise.
  void check_layout(const std::vector<std::uint64_t>& buffer_bytes) const;
  std::uint64_t reached() const;
};

// Reads DIR/checkpoint.sgck (or `path` itself when it is a file). InputError with the
// file and the reason when it is missing, not a checkpoint, of another version,
// inconsistent, truncated, or fails its checksum.
LoadedCheckpoint load_checkpoint(const std::filesystem::path& path);

// The same checks on bytes in memory (`name` for messages). The fuzz target passes
// check_checksum = false so that its mutations reach the checks behind the checksum.
LoadedCheckpoint parse_checkpoint(const void* data, std::uint64_t bytes, const std::string& name,
                                  bool check_checksum = true);

}  // namespace stategraph
