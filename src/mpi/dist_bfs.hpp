// Distributed level-synchronous BFS over MPI: the rank space [0, n) is cut into P
// contiguous blocks of whole words, process p owns the visited / frontier / next bits of
// its block and runs the block steps of stategraph/bfs/engine.hpp on it; remote ranks
// travel by MPI_Alltoallv (schemes in dist_bfs.cpp). Directions are the hybrid's
// choose_direction on global counts, so every layer is the single-process hybrid's.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "stategraph/bfs/bfs.hpp"
#include "stategraph/rules/rule.hpp"

namespace stategraph::mpi {

struct Partition {
  std::uint64_t n = 0;      // ranks in the space
  std::uint64_t block = 0;  // ranks per block (multiple of 64)
  int procs = 1, me = 0;
  std::uint64_t base(int p) const;   // first rank of p's block
  std::uint64_t local(int p) const;  // ranks p owns (0 for trailing empty blocks)
  int owner(std::uint64_t r) const { return static_cast<int>(r / block); }
};
// Blocks of ceil(words / P) words; InputError when a block would exceed 2^32 ranks
// (block offsets travel as 32-bit values) or the MPI counts would exceed int.
Partition make_partition(std::uint64_t n, int procs, int me);

// Per-level communication statistics, over all processes.
struct CommLevel {
  int depth = 0;             // the layer this step found
  std::uint64_t states = 0;  // its size
  Direction direction = Direction::kTopDown;
  int rounds = 0;                  // exchange rounds (1 for a bottom-up gather level)
  std::uint64_t bytes_sent = 0;    // payload bytes sent to other processes (sum)
  std::uint64_t remote_ranks = 0;  // distinct remote neighbours sent (sum over rounds)
  std::uint64_t list32_bytes = 0;  // what plain sorted 32-bit offsets would have cost
  std::uint64_t bitmap_bytes = 0;  // what one block bitmap per destination would cost
  double compute_seconds = 0;      // max over processes of the time outside MPI calls
  double comm_seconds = 0;         // max over processes of the time in MPI calls (incl. waits)
  double seconds = 0;              // wall time of the step
};

struct DistOptions {
  DirectionPolicy policy = DirectionPolicy::kHybrid;  // the variant's (VariantInfo::mpi_policy)
  std::uint64_t exchange_bytes = 0;                   // budget of one round's send batch (0: a quarter block bitset)
  bool gather_bottomup = false;  // bottom-up by MPI_Allgatherv of the frontier (n bits per process)
  std::optional<State> watch;    // a state whose depth to report (cardswap's start)
  int fail_at_depth = -1;        // test hook: this process throws bad_alloc at that depth
  // Called on every process after each step (rank 0 usually logs).
  std::function<void(const CommLevel&, std::uint64_t total)> on_level;
};

struct DistResult {
  BfsResult bfs;                     // layers, levels, seconds; peak_bytes = this process's big buffers
  std::vector<CommLevel> comm;       // one per step (the last one found nothing)
  std::optional<int> watch_depth;    // -1: unreachable
  std::uint64_t round_states = 0;    // frontier states per top-down round
  std::uint64_t peak_bytes_max = 0;  // max over processes of peak_bytes
};

// The bytes a process needs for its big buffers (three block bitsets, the exchange
// buffers, and the gathered frontier when bottom-up gathers).
std::uint64_t bytes_per_process(const AnyRule& rule, const Partition& part, const DistOptions& o);

// Runs the search on every process of comm (collective). Throws on failure; the
// caller aborts the job (a process cannot leave the collectives alone).
DistResult distributed_bfs(const AnyRule& rule, const Partition& part, const DistOptions& o, MPI_Comm comm);

}  // namespace stategraph::mpi
