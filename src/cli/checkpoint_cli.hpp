// `analyze --checkpoint DIR [--checkpoint-interval S]` and `--resume DIR`:
// the flags, their checks before any work, and the link to the BFS (BfsOptions).
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>

#include "stategraph/bfs/checkpoint.hpp"

namespace stategraph::cli {

struct CheckpointCliOptions {
  std::string checkpoint;  // --checkpoint DIR
  std::string resume;      // --resume DIR
  double interval = 60;    // --checkpoint-interval SECONDS (0: after every level)
};

void add_checkpoint_options(CLI::App* sub, CheckpointCliOptions& o);

class CheckpointSession {
 public:
  // Checks the flags (not with --all; interval >= 0) and reads the --resume checkpoint;
  // InputError for every problem, before any BFS work.
  CheckpointSession(const CheckpointCliOptions& o, bool all);
  bool active() const { return !dir_.empty(); }
  // The variant to ask for: with --resume and --variant auto, the checkpoint's own.
  std::string variant_for(const std::string& requested) const;
  // Checks the variant and the checkpoint against this search, then points the BFS
  // options at the checkpointer (and the loaded state when resuming).
  void attach(const AnyRule& rule, std::string_view variant, BfsOptions& bo);
  // After the results were committed: the checkpoint is of no further use.
  void finished();
  // For the interruption message: where the last checkpoint is, how to continue.
  std::string hint() const;

 private:
  std::filesystem::path dir_;
  double interval_ = 60;
  std::optional<LoadedCheckpoint> loaded_;
  std::unique_ptr<Checkpointer> writer_;
  int saved_depth_ = -1;
};

}  // namespace stategraph::cli
