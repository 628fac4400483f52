// Checkpoints and the stop flag: a search killed after any checkpoint and
// resumed from the file ends with exactly the uninterrupted result (layers, depth table,
// directions); a damaged or foreign checkpoint is refused with InputError; a stop
// request makes every variant throw BfsInterrupted at a level boundary.
#include "stategraph/bfs/checkpoint.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "disk_support.hpp"

namespace stategraph {
namespace {

struct Killed {};  // thrown from the after_save hook: the run "dies" right after a save

class CheckpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("sg_ckpt_" + std::to_string(::getpid()) + "_" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Runs `variant` with a checkpoint after every level and "kills" it after save `k`
  // (1-based); returns false when the search ended before that save.
  bool run_and_kill(const AnyRule& rule, std::string_view variant, BfsOptions o, int k) {
    Checkpointer cp(dir_, CheckpointIdentity::of(rule, variant, o), 0);
    cp.after_save = [&](int) {
      if (cp.saves() == static_cast<std::uint64_t>(k)) throw Killed{};
    };
    o.checkpoint = &cp;
    try {
      find_variant(variant).run(rule, o);
    } catch (const Killed&) {
      return true;
    }
    return false;
  }
  std::filesystem::path dir_;
};

std::vector<Direction> directions(const BfsResult& r) {
  std::vector<Direction> out;
  for (const auto& l : r.levels) out.push_back(l.direction);
  return out;
}

TEST_F(CheckpointTest, ResumeAfterAnyLevelGivesTheUninterruptedResult) {
  // Small spaces (every save is fsync'ed); sliding 2x5 and rotate 3x3 are killed and
  // resumed end to end by tests/cli_reliability_test.sh.
  const std::vector<AnyRule> rules = {make_rule("sliding", 2, 4), make_rule("rotate", 2, 4),
                                      make_rule("primeswap", 2, 4),
                                      make_rule("cardswap", 2, 4, RuleOptions{"A***/ **B"})};
  for (const AnyRule& rule : rules) {
    for (bool depths : {false, true}) {
      BfsOptions o;
      o.want_depths = depths;
      const BfsResult ref = find_variant("reference").run(rule, o);
      for (const VariantInfo& v : variant_table()) {
        if (!v.checkpoints) continue;
        const std::string_view variant = v.name;
        const std::string label = std::string(rule_name(rule)) + " " + rule_grid(rule).label() + " " +
                                  std::string(variant) + (depths ? " with depths" : "");
        const BfsResult whole = find_variant(variant).run(rule, o);
        ASSERT_EQ(whole.layers, ref.layers) << label;
        const int levels = static_cast<int>(whole.layers.size());
        // One checkpointing run, "killed" after its last useful save; a copy of the file
        // after each save stands for a kill at that level.
        Checkpointer cp(dir_, CheckpointIdentity::of(rule, variant, o), 0);
        cp.after_save = [&](int depth) {
          std::filesystem::copy_file(cp.file(), dir_ / ("after-" + std::to_string(depth)),
                                     std::filesystem::copy_options::overwrite_existing);
          if (depth == levels - 2) throw Killed{};
        };
        BfsOptions with_cp = o;
        with_cp.checkpoint = &cp;
        EXPECT_THROW(find_variant(variant).run(rule, with_cp), Killed) << label;
        EXPECT_EQ(cp.saves(), static_cast<std::uint64_t>(levels - 1)) << label;
        for (int k : {0, 1, levels / 2, levels - 2}) {
          SCOPED_TRACE(label + ", killed after depth " + std::to_string(k));
          const LoadedCheckpoint c = load_checkpoint(dir_ / ("after-" + std::to_string(k)));
          EXPECT_EQ(static_cast<int>(c.levels.size()), k + 1);
          EXPECT_EQ(c.identity.mismatch(CheckpointIdentity::of(rule, variant, o)), "");
          BfsOptions r = o;
          r.resume = &c;
          std::vector<int> reported;
          r.on_level = [&](const LevelStat& l, std::uint64_t) { reported.push_back(l.depth); };
          const BfsResult resumed = find_variant(variant).run(rule, r);
          EXPECT_EQ(resumed.layers, whole.layers);
          EXPECT_EQ(resumed.depth, whole.depth);
          EXPECT_EQ(directions(resumed), directions(whole));
          ASSERT_FALSE(reported.empty());
          EXPECT_EQ(reported.front(), k + 1) << "levels before the checkpoint are not reported again";
          if (depths) EXPECT_EQ(verify_bfs(rule, resumed), "");
        }
      }
    }
  }
}

TEST_F(CheckpointTest, IntervalLimitsTheSaves) {
  const AnyRule rule = make_rule("sliding", 2, 4);
  BfsOptions o;
  Checkpointer cp(dir_, CheckpointIdentity::of(rule, "hybrid", o), 1e6);
  o.checkpoint = &cp;
  find_variant("hybrid").run(rule, o);
  EXPECT_EQ(cp.saves(), 0u);
  EXPECT_FALSE(std::filesystem::exists(dir_ / kCheckpointFile));
}

void expect_refused(const std::filesystem::path& p, const std::string& fragment) {
  try {
    load_checkpoint(p);
    ADD_FAILURE() << "checkpoint accepted, expected: " << fragment;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
}

void patch(const std::filesystem::path& p, std::streamoff at, char value) {
  std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(at);
  f.write(&value, 1);
}

TEST_F(CheckpointTest, DamagedOrForeignCheckpointsAreRefused) {
  const AnyRule rule = make_rule("sliding", 2, 4);
  BfsOptions o;
  ASSERT_TRUE(run_and_kill(rule, "hybrid", o, 10));
  const auto file = dir_ / kCheckpointFile;
  const auto good = dir_ / "good.sgck";
  std::filesystem::copy_file(file, good);
  for (const auto& entry : std::filesystem::directory_iterator(dir_))
    EXPECT_EQ(entry.path().extension(), ".sgck") << "left behind: " << entry.path();

  const LoadedCheckpoint c = load_checkpoint(good);
  // Another rule, size, variant, option or start set: the identity says which.
  EXPECT_NE(c.identity.mismatch(CheckpointIdentity::of(make_rule("rotate", 2, 4), "hybrid", o)).find("rotate 2x4"),
            std::string::npos);
  EXPECT_NE(c.identity.mismatch(CheckpointIdentity::of(make_rule("sliding", 3, 3), "hybrid", o)).find("sliding 3x3"),
            std::string::npos);
  EXPECT_NE(c.identity.mismatch(CheckpointIdentity::of(rule, "twobit", o)).find("variant hybrid"), std::string::npos);
  BfsOptions depths = o;
  depths.want_depths = true;
  EXPECT_NE(c.identity.mismatch(CheckpointIdentity::of(rule, "hybrid", depths)).find("depth table"), std::string::npos);
  BfsOptions other_start = o;
  other_start.sources = {std::get<Sliding>(rule).unrank(12345)};
  EXPECT_NE(c.identity.mismatch(CheckpointIdentity::of(rule, "hybrid", other_start)).find("start set"),
            std::string::npos);
  // A file of the right identity but another variant's layout (twobit) is refused by the variant.
  BfsOptions r = o;
  r.resume = &c;
  EXPECT_THROW(find_variant("twobit").run(rule, r), InputError);

  const auto bytes = static_cast<std::streamoff>(std::filesystem::file_size(good));
  auto fresh = [&] { std::filesystem::copy_file(good, file, std::filesystem::copy_options::overwrite_existing); };
  fresh();
  patch(file, bytes - 100, 0x5a);  // a data byte
  expect_refused(dir_, "checksum mismatch");
  fresh();
  patch(file, 96, 0x11);  // the seconds field of the header
  expect_refused(file, "checksum mismatch");
  fresh();
  std::filesystem::resize_file(file, static_cast<std::uintmax_t>(bytes - 8));
  expect_refused(file, "truncated");
  fresh();
  std::filesystem::resize_file(file, 100);
  expect_refused(file, "truncated");
  fresh();
  patch(file, 0, 'X');
  expect_refused(file, "bad magic");
  fresh();
  patch(file, 8, 7);  // version
  expect_refused(file, "version 7");
  fresh();
  patch(file, 84, 0);  // the level count (10) becomes 0
  expect_refused(file, "inconsistent");
  std::ofstream(dir_ / "empty.sgck").close();
  expect_refused(dir_ / "empty.sgck", "truncated");
  expect_refused(dir_ / "missing", "cannot open");
}

// A checkpoint written by the stategraph of format version 1 (own header, own
// checksum) is refused by its version, in one line.
TEST_F(CheckpointTest, OlderFormatIsRefused) {
  const auto old = std::filesystem::path(STATEGRAPH_SOURCE_DIR) / "tests/data/sliding_2x3_v1.sgck";
  expect_refused(old, "format version 1, this build reads version 2: written by an older stategraph");
  std::filesystem::copy_file(old, dir_ / kCheckpointFile);
  expect_refused(dir_, "start the run again");
}

TEST(StopFlag, EveryVariantStopsAtALevelBoundary) {
  const AnyRule rule = make_rule("rotate", 3, 3);
  for (const auto& v : variant_table()) {
    // The reference reports its levels at the end: it must stop on a flag set before.
    std::atomic<int> stop{v.name == "reference" ? 15 : 0};
    BfsOptions o;
    o.stop = &stop;
    int last = -1;
    o.on_level = [&](const LevelStat& l, std::uint64_t) {
      last = l.depth;
      if (l.depth == 7) stop.store(15);
    };
    try {
      test::run_variant(v, rule, o);
      ADD_FAILURE() << v.name << " did not stop";
    } catch (const BfsInterrupted& e) {
      EXPECT_EQ(e.signal(), 15) << v.name;
      if (v.name != "reference") {
        EXPECT_EQ(e.depth(), 7) << v.name;
        EXPECT_EQ(last, 7) << v.name;
      }
    }
  }
}

TEST(StopFlag, AStopFromAnotherThreadEndsALongLevel) {
  // rotate 3x4 would take ~40 s; the stop, 50 ms in, must end it within the level.
  const AnyRule rule = make_rule("rotate", 3, 4);
  for (std::string_view variant : {"hybrid", "twobit"}) {
    std::atomic<int> stop{0};
    BfsOptions o;
    o.stop = &stop;
    const auto start = std::chrono::steady_clock::now();
    std::thread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      stop.store(2);
    });
    EXPECT_THROW(find_variant(variant).run(rule, o), BfsInterrupted) << variant;
    stopper.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 10.0) << variant;
  }
}

}  // namespace
}  // namespace stategraph
