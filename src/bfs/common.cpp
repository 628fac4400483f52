#include <stdexcept>
#include <string>

#include "stategraph/bfs/bfs.hpp"

namespace stategraph {

std::string_view direction_name(Direction d) {
  switch (d) {
    case Direction::kTopDown:
      return "topdown";
    case Direction::kBottomUp:
      return "bottomup";
    case Direction::kScan:
      return "scan";
  }
  return "?";
}

std::uint64_t BfsResult::reached() const {
  std::uint64_t total = 0;
  for (auto c : layers) total += c;
  return total;
}

LevelRecorder::LevelRecorder(const BfsOptions& options, BfsResult& result, int max_depth)
    : options_(options), result_(result), start_(Clock::now()), last_(start_), max_depth_(max_depth) {}

bool LevelRecorder::record(std::uint64_t states, Direction direction) {
  return record(states, direction, std::chrono::duration<double>(Clock::now() - last_).count(), 0, 0);
}

bool LevelRecorder::record(std::uint64_t states, Direction direction, double seconds, std::uint64_t bytes_read,
                           std::uint64_t bytes_written) {
  last_ = Clock::now();
  if (states == 0) return false;
  const int depth = static_cast<int>(result_.layers.size());
  if (depth > max_depth_) throw std::runtime_error("BFS deeper than " + std::to_string(max_depth_) + " levels");
  LevelStat stat{depth, states, direction, seconds, bytes_read, bytes_written};
  total_ += states;
  result_.layers.push_back(states);
  result_.levels.push_back(stat);
  if (options_.on_level) options_.on_level(stat, total_);
  return true;
}

void LevelRecorder::resume(const std::vector<LevelStat>& levels, double seconds) {
  for (const LevelStat& l : levels) {
    total_ += l.states;
    result_.layers.push_back(l.states);
    result_.levels.push_back(l);
  }
  before_ = seconds;
  last_ = Clock::now();
}

double LevelRecorder::elapsed() const { return before_ + std::chrono::duration<double>(Clock::now() - start_).count(); }

void LevelRecorder::finish() { result_.seconds = elapsed(); }

}  // namespace stategraph
