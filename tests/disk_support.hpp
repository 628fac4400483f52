// Runs of the disk variant inside the generic variant tests: a fresh folder under the
// system's temporary folder (removed afterwards) and segments that split the space at
// odd places, so that every run crosses segments.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>

#include "stategraph/bfs/bfs.hpp"

namespace stategraph::test {

// A folder that exists for the life of the object.
class TempFolder {
 public:
  explicit TempFolder(const std::string& tag) {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("stategraph-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// A sanitized build (CMake STATEGRAPH_SANITIZE) runs the heaviest disk comparisons on
// spaces of at most 8! states: the sanitizers make them 20-40 times slower, and what they
// look for (memory errors, undefined behaviour) does not need 9! states to show.
#ifdef STATEGRAPH_SANITIZED_TESTS
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

// About seven segments of an odd size (not a multiple of 64, nor of a factorial).
inline std::uint64_t odd_segment(std::uint64_t ranks) { return ranks / 7 + 13; }

// v.run(rule, o), with the disk variant's folder and segments filled in when v keeps its
// arrays on disk.
inline BfsResult run_variant(const VariantInfo& v, const AnyRule& rule, BfsOptions o) {
  if (!v.on_disk) return v.run(rule, o);
  TempFolder dir("disk-test");
  o.disk.dir = dir.path();
  if (!o.disk.segment_ranks) o.disk.segment_ranks = odd_segment(rule_size(rule));
  return v.run(rule, o);
}

}  // namespace stategraph::test
