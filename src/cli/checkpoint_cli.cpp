#include "checkpoint_cli.hpp"

#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace stategraph::cli {

void add_checkpoint_options(CLI::App* sub, CheckpointCliOptions& o) {
  sub->add_option("--checkpoint", o.checkpoint,
                  "Save the BFS state into this folder at level boundaries (atomically, with a checksum), "
                  "so a killed run can continue with --resume");
  sub->add_option("--resume", o.resume,
                  "Continue the run whose checkpoint is in this folder (same rule, size, variant and options); "
                  "keeps checkpointing there unless --checkpoint names another folder");
  sub->add_option("--checkpoint-interval", o.interval,
                  "Seconds between checkpoints, checked after each level (0: after every level); for the "
                  "disk variant, between committed passes")
      ->capture_default_str();
}

CheckpointSession::CheckpointSession(const CheckpointCliOptions& o, bool all) : interval_(o.interval) {
  if (o.checkpoint.empty() && o.resume.empty()) return;
  if (all) throw InputError("--checkpoint/--resume work with one --rule, not with --all");
  if (!(o.interval >= 0) || o.interval > 1e9)
    throw InputError("--checkpoint-interval must be between 0 and 1e9 seconds");
  dir_ = o.checkpoint.empty() ? std::filesystem::path(o.resume) : std::filesystem::path(o.checkpoint);
  if (!o.resume.empty()) loaded_ = load_checkpoint(o.resume);
  const auto file = dir_ / kCheckpointFile;
  std::error_code ec;
  if (o.resume.empty() && std::filesystem::exists(file, ec))
    throw InputError("--checkpoint " + dir_.string() + " already holds a checkpoint (" + file.string() +
                     "): continue it with --resume " + dir_.string() + ", or remove it");
  // The folder must be writable before hours of search depend on it.
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw std::runtime_error("cannot create checkpoint folder " + dir_.string() + ": " + ec.message());
  const auto probe = dir_ / (".probe-" + std::to_string(::getpid()));
  FILE* f = std::fopen(probe.c_str(), "w");
  if (!f)
    throw std::runtime_error("cannot write into checkpoint folder " + dir_.string() + ": " + std::strerror(errno));
  std::fclose(f);
  std::filesystem::remove(probe, ec);
}

std::string CheckpointSession::variant_for(const std::string& requested) const {
  if (loaded_ && requested == "auto") return loaded_->identity.variant;
  return requested;
}

void CheckpointSession::attach(const AnyRule& rule, std::string_view variant, BfsOptions& bo) {
  if (!active()) return;
  if (!variant_supports_checkpoints(variant))
    throw InputError("variant " + std::string(variant) + " cannot save checkpoints (use " +
                     variant_names([](const VariantInfo& v) { return v.checkpoints; }) + ")");
  CheckpointIdentity id = CheckpointIdentity::of(rule, variant, bo);
  if (loaded_) {
    if (const std::string why = loaded_->identity.mismatch(id); !why.empty())
      throw InputError("checkpoint " + loaded_->file.string() + " does not match this run: " + why);
    bo.resume = &*loaded_;
    saved_depth_ = static_cast<int>(loaded_->levels.size()) - 1;
  }
  writer_ = std::make_unique<Checkpointer>(dir_, std::move(id), interval_);
  long kill_after = 0;  // test hook: SIGKILL ourselves after the N-th save
  if (const char* hook = std::getenv("STATEGRAPH_TEST_KILL_AFTER_CHECKPOINT")) kill_after = std::atol(hook);
  writer_->after_save = [this, kill_after](int depth) {
    saved_depth_ = depth;
    if (kill_after > 0 && writer_->saves() == static_cast<std::uint64_t>(kill_after)) std::raise(SIGKILL);
  };
  bo.checkpoint = writer_.get();
}

void CheckpointSession::finished() {
  if (!active()) return;
  std::error_code ec;
  std::filesystem::remove(dir_ / kCheckpointFile, ec);
}

std::string CheckpointSession::hint() const {
  if (!active()) return "";
  if (saved_depth_ < 0) return " (no checkpoint saved yet)";
  return " (checkpoint of depth " + std::to_string(saved_depth_) + " in " + dir_.string() +
         ": continue with --resume " + dir_.string() + ")";
}

}  // namespace stategraph::cli
