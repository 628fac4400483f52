// The 64-bit multiply-rotate hash that guards table files (solve/table.cpp) and BFS
// checkpoints (bfs/checkpoint.cpp): 64-bit little-endian words, four independent lanes
// (so hundreds of MiB hash at memory speed), tail bytes zero-padded, the total length
// mixed into the digest. Not cryptographic: it detects corruption, not tampering.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

namespace stategraph {

class Hasher {
 public:
  // Equal digests for equal byte sequences fed in the same pieces; a piece whose size is
  // not a multiple of 32 ends a lane cycle (callers feed the same layout every time).
  void update(const void* data, std::uint64_t n) {
    const auto* p = static_cast<const std::uint8_t*>(data);
    std::uint64_t i = 0;
    for (; i + 32 <= n; i += 32) {
      for (int k = 0; k < 4; ++k) {
        std::uint64_t w;
        std::memcpy(&w, p + i + 8 * k, 8);
        lane_[k] = round(lane_[k], w);
      }
    }
    for (; i < n; i += 8) {
      std::uint64_t w = 0;
      std::memcpy(&w, p + i, std::min<std::uint64_t>(8, n - i));
      lane_[0] = round(lane_[0], w);
    }
    total_ += n;
  }
  std::uint64_t digest() const {
    std::uint64_t h = total_ * kP1;
    for (std::uint64_t l : lane_) h = round(h ^ std::rotl(l, 17), l);
    h ^= h >> 33;
    h *= kP2;
    return h ^ (h >> 29);
  }

 private:
  static constexpr std::uint64_t kP1 = 0x9E3779B185EBCA87ull, kP2 = 0xC2B2AE3D27D4EB4Full;
  static std::uint64_t round(std::uint64_t acc, std::uint64_t w) { return std::rotl(acc + w * kP2, 31) * kP1; }
  std::uint64_t lane_[4] = {1, 2, 3, 4};
  std::uint64_t total_ = 0;
};

}  // namespace stategraph
