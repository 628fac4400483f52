// The disk variant (src/bfs/disk.cpp) against the reference: every rule's small grids and
// definition files, segments that split the space at odd places, directed searches both
// ways, searches from a start, 1 and 2 threads; a search stopped in any pass and resumed;
// a full disk in mid-run; the plan's arithmetic. The kill -9 test is in
// cli_reliability_test.sh (a real SIGKILL needs a process of its own).
#include "stategraph/bfs/disk.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>
#include <vector>

#include "defs_common.hpp"
#include "disk_support.hpp"
#include "stategraph/analysis/graph.hpp"
#include "stategraph/bfs/memory.hpp"

namespace stategraph {
namespace {

namespace fs = std::filesystem;
using defs_test::defined;
using defs_test::kMultiset;
using test::TempFolder;

BfsResult run_disk(const AnyRule& rule, BfsOptions o, const fs::path& dir, std::uint64_t segment) {
  o.disk.dir = dir;
  o.disk.segment_ranks = segment;
  return find_variant("disk").run(rule, o);
}

// Visited bits rewritten whole after every pass, or (nearly) never: new bits go to
// delta files unless a pass sets more than can be listed.
constexpr double kWholeBits = 0.0, kDeltasAlways = 1e9;

std::vector<AnyRule> small_rules() {
  std::vector<AnyRule> rules;
  std::vector<std::pair<int, int>> grids{{2, 3}, {2, 4}};
  if (!test::kSanitized) grids.emplace_back(3, 3);
  for (const auto& [rows, cols] : grids) {
    for (const char* name : {"sliding", "rotate", "primeswap", "adjswap"}) rules.push_back(make_rule(name, rows, cols));
    RuleOptions both;
    both.directions = "both";
    rules.push_back(make_rule("rotate", rows, cols, both));
  }
  rules.push_back(make_rule("cardswap"));
  if (test::kSanitized) rules.push_back(make_rule("sliding", 3, 3));  // one 9-cell space (181,440 states)
  rules.push_back(defined(test::kSanitized ? "rotate-2x4-columns.tws" : "rotate-3x3.tws"));
  rules.push_back(defined("pancake-8.tws"));
  rules.push_back(DefinedRule(parse_definition(kMultiset, "m.tws", DefinedMetric::kGiven)));
  return rules;
}

std::string label_of(const AnyRule& rule) { return std::string(rule_name(rule)) + " " + rule_grid(rule).label(); }

TEST(DiskBfs, EqualsTheReferenceOnEveryRuleWithSegmentsSplitAtOddPlaces) {
  for (const AnyRule& rule : small_rules()) {
    const std::uint64_t n = rule_size(rule);
    BfsOptions with_depths;
    with_depths.want_depths = true;
    const BfsResult ref = find_variant("reference").run(rule, with_depths);
    const std::vector<std::uint64_t> far = antipodes(ref, 100);  // the first 100 by rank
    // One segment, about 3 and 7 of odd sizes, and (the smallest spaces) 20 of 37 ranks.
    std::vector<std::uint64_t> segments{n, n / 3 + 1, test::odd_segment(n)};
    if (n <= 720) segments.push_back(37);
    for (std::uint64_t seg : segments) {
      TempFolder dir("disk");
      const BfsResult got = run_disk(rule, BfsOptions{}, dir.path(), seg);
      EXPECT_EQ(got.layers, ref.layers) << label_of(rule) << " segments of " << seg;
      EXPECT_TRUE(got.disk_io);
      EXPECT_EQ(got.last_layer, far) << label_of(rule) << " segments of " << seg;
      ASSERT_EQ(got.levels.size(), got.layers.size());
      for (std::size_t d = 0; d < got.levels.size(); ++d) EXPECT_EQ(got.levels[d].states, got.layers[d]);
      // A finished run leaves nothing behind.
      EXPECT_TRUE(fs::is_empty(dir.path())) << label_of(rule) << " segments of " << seg;
    }
    // The visited bits rewritten after every pass, and kept as deltas on top of the first.
    for (double fraction : {kWholeBits, kDeltasAlways}) {
      TempFolder dir("disk");
      BfsOptions o;
      o.disk.delta_fraction = fraction;
      EXPECT_EQ(run_disk(rule, o, dir.path(), test::odd_segment(n)).layers, ref.layers)
          << label_of(rule) << " delta fraction " << fraction;
    }
  }
}

// Sparse passes append their new bits to delta files instead of rewriting the visited
// bits: a long search of narrow layers (primeswap 2x5, 175 of them) writes less than half
// of what it writes with the bits rewritten each pass, and reads less too.
TEST(DiskBfs, SparsePassesWriteDeltasNotTheVisitedBits) {
  const AnyRule rule = make_rule("primeswap", 2, test::kSanitized ? 4 : 5);
  const BfsResult ref = find_variant("reference").run(rule, BfsOptions{});
  std::uint64_t written[2] = {0, 0}, read[2] = {0, 0};
  for (int k : {0, 1}) {
    TempFolder dir("disk");
    BfsOptions o;
    o.disk.delta_fraction = k ? 1.0 / 16 : kWholeBits;  // segments of 64 KiB: deltas of up to 4 KiB
    const BfsResult got = run_disk(rule, o, dir.path(), test::odd_segment(rule_size(rule)));
    EXPECT_EQ(got.layers, ref.layers) << k;
    for (const LevelStat& l : got.levels) written[k] += l.bytes_written, read[k] += l.bytes_read;
  }
  EXPECT_LT(written[1] * 2, written[0]);
  EXPECT_LT(read[1], read[0]);
}

TEST(DiskBfs, DirectedBothWaysFromAStartAndAtOneAndTwoThreads) {
  const auto [rows, cols] = test::kSanitized ? std::pair{2, 4} : std::pair{3, 3};
  const AnyRule rotate = make_rule("rotate", rows, cols);
  const AnyRule sliding = make_rule("sliding", rows, cols);
  for (const AnyRule& rule : {rotate, sliding}) {
    for (bool forward : {false, true}) {
      BfsOptions o;
      o.forward = forward;
      // A start that is not the goal: the reference's state at rank n / 2.
      const State start = std::visit([&](const auto& r) { return r.unrank(r.size() / 2); }, rule);
      o.sources = {start};
      const BfsResult ref = find_variant("reference").run(rule, o);
      for (int threads : {1, 2}) {
        tbb::global_control c(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
        TempFolder dir("disk");
        EXPECT_EQ(run_disk(rule, o, dir.path(), test::odd_segment(rule_size(rule))).layers, ref.layers)
            << label_of(rule) << " forward " << forward << " threads " << threads;
      }
    }
  }
}

// An outbox of 1024 ranks: rounds sized by the last round's rate overflow it, and the
// round is sent again in rounds sized by the rule's degree. The same layers.
TEST(DiskBfs, RoundsThatOverflowTheirOutboxAreSentAgain) {
  std::uint64_t resent = 0;
  for (const AnyRule& rule : {make_rule("rotate", 3, 3), make_rule("sliding", 3, 3), make_rule("primeswap", 3, 3),
                              defined("pancake-8.tws")}) {
    const BfsResult ref = find_variant("reference").run(rule, BfsOptions{});
    for (std::uint64_t seg : {test::odd_segment(rule_size(rule)), rule_size(rule) / 3 + 1}) {
      TempFolder dir("disk");
      BfsOptions o;
      o.disk.outbox_bytes = 16 * 1024;
      const BfsResult got = run_disk(rule, o, dir.path(), seg);
      EXPECT_EQ(got.layers, ref.layers) << label_of(rule) << " segments of " << seg;
      resent += got.disk_rounds_resent;
    }
  }
  EXPECT_GT(resent, 0u);  // the path was taken
}

// Far claims (DiskSettings::far_claim_distance) claimed after the round, bucketed by region,
// instead of at once: a distance of 1 sends every claim but a rank's own through the
// outbox, 50 some (and with an outbox of 1024 ranks that overflows, so that a top-down
// round is sent again with its claims repeated); 2 threads, and 1. Every rule's small
// grids, dense and sparse top-down steps (claims in next directly or through visited).
TEST(DiskBfs, FarClaimsInRankOrderEqualTheReference) {
  std::uint64_t far_claims = 0, resent = 0;
  struct Case {
    std::uint64_t distance, outbox;
    int threads;
  };
  for (const AnyRule& rule : small_rules()) {
    const BfsResult ref = find_variant("reference").run(rule, BfsOptions{});
    for (const Case& c : {Case{1, 0, 2}, Case{50, 16 * 1024, 2}, Case{50, 0, 1}}) {
      tbb::global_control g(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(c.threads));
      TempFolder dir("disk");
      BfsOptions o;
      o.disk.far_claim_distance = c.distance;
      o.disk.outbox_bytes = c.outbox;
      const BfsResult got = run_disk(rule, o, dir.path(), test::odd_segment(rule_size(rule)));
      EXPECT_EQ(got.layers, ref.layers) << label_of(rule) << " far from " << c.distance << " outbox " << c.outbox
                                        << " threads " << c.threads;
      far_claims += got.disk_far_claims;
      resent += got.disk_rounds_resent;
    }
  }
  EXPECT_GT(far_claims, 0u);  // the path was taken
  EXPECT_GT(resent, 0u);      // and the overflow path with it
}

// Segments of whole (n-c)! blocks: a bottom-up level's remote neighbours come from the
// moves of the first c cells only, where states are unranked (rank scanners off), on a
// directed rule both ways, a state-dependent one (primeswap), a definition file and a
// multiset one (which ranks all its moves); 8 cells (one 9-cell rule unsanitized).
TEST(DiskBfs, RemoteNeighboursOfTheLeadingCellsOnlyEqualTheReference) {
  RuleOptions both;
  both.directions = "both";
  std::vector<AnyRule> rules{make_rule("rotate", 2, 4), make_rule("rotate", 2, 4, both), make_rule("primeswap", 2, 4),
                             make_rule("adjswap", 2, 4), defined("pancake-8.tws"),
                             AnyRule(DefinedRule(parse_definition(kMultiset, "m.tws", DefinedMetric::kGiven)))};
  if (!test::kSanitized) rules.push_back(make_rule("rotate", 3, 3));
  for (const AnyRule& rule : rules) {
    const int n = std::visit([](const auto& r) { return r.cells(); }, rule);
    for (bool forward : {false, true}) {
      BfsOptions o;
      o.forward = forward;
      o.rank_scan = false;
      const BfsResult ref = find_variant("reference").run(rule, o);
      for (int c : {1, 2}) {
        TempFolder dir("disk");
        const std::uint64_t seg = 2 * kFactorial[static_cast<std::size_t>(n - c)];
        EXPECT_EQ(run_disk(rule, o, dir.path(), seg).layers, ref.layers)
            << label_of(rule) << " forward " << forward << " segments of " << seg;
      }
    }
  }
}

// The plan's memory: the bitsets of a segment, the outbox and the fixed buffers, under
// the memory given, at every size from 64 MiB to 24 GiB; the outbox is whole slots.
// The largest size of a folder's data files (not the manifest), sampled by a thread of its own every 100 µs
// while it lives.
class FolderWatch {
 public:
  explicit FolderWatch(fs::path dir) : dir_(std::move(dir)), thread_([this] {
    while (!done_.load()) {
      std::uint64_t total = 0;
      std::error_code ec;
      for (const auto& e : fs::directory_iterator(dir_, ec)) {
        if (e.path().filename().string().rfind(kDiskManifest, 0) == 0) continue;  // the manifest and its temporaries
        const auto size = e.file_size(ec);
        if (!ec) total += size;
      }
      peak_ = std::max(peak_.load(), total);
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }) {}
  ~FolderWatch() { stop(); }
  std::uint64_t stop() {
    done_.store(true);
    if (thread_.joinable()) thread_.join();
    return peak_.load();
  }

 private:
  fs::path dir_;
  std::atomic<bool> done_{false};
  std::atomic<std::uint64_t> peak_{0};
  std::thread thread_;
};

// The plan's disk figure is a bound: with outboxes of 1024 ranks (hundreds of rounds a
// pass, so that a generation's update files for a segment would pass its bitmap and are
// merged into one), commits after every pass or only when a pass writes much, and a run
// stopped and resumed, the folder never holds more than the plan printed (its own count
// of its files, and the folder as a watching thread saw it), and the layers are the
// reference's. (Small spaces: the bound of the data files, without the manifest's allowance.)
TEST(DiskBfs, TheFolderStaysUnderThePlansBound) {
  std::uint64_t merges = 0;
  const std::vector<AnyRule> rules = test::kSanitized
                                         ? std::vector<AnyRule>{make_rule("primeswap", 2, 4), make_rule("rotate", 2, 4)}
                                         : std::vector<AnyRule>{make_rule("primeswap", 3, 3), make_rule("rotate", 3, 3),
                                                                make_rule("sliding", 3, 3), defined("pancake-8.tws")};
  for (const AnyRule& rule : rules) {
    const BfsResult ref = find_variant("reference").run(rule, BfsOptions{});
    for (std::uint64_t seg : {test::odd_segment(rule_size(rule)), rule_size(rule) / 3 + 1})
    for (double commit : {0.0, 1e9})
    for (bool stopped : {false, true}) {
      TempFolder dir("disk");
      BfsOptions o;
      o.disk.outbox_bytes = 16 * 1024;
      o.disk.commit_seconds = commit;
      std::atomic<int> stop{0};
      if (stopped) {
        o.stop = &stop;
        o.on_level = [&](const LevelStat& l, std::uint64_t) {
          if (l.depth == static_cast<int>(ref.layers.size()) / 2) stop.store(15);
        };
      }
      DiskSettings s = o.disk;
      s.segment_ranks = seg;
      const DiskPlan plan = plan_disk(rule, s);
      const std::uint64_t bound = plan.disk_bytes - disk_manifest_allowance(plan.segments);  // the data files
      const std::string what = label_of(rule) + " segments of " + std::to_string(seg) + " commit " +
                               std::to_string(commit) + (stopped ? " stopped" : "");
      FolderWatch watch(dir.path());
      BfsResult got;
      if (stopped) {
        EXPECT_THROW(run_disk(rule, o, dir.path(), seg), BfsInterrupted) << what;
        BfsOptions r;
        r.disk.resume = true;
        r.disk.outbox_bytes = o.disk.outbox_bytes;
        got = run_disk(rule, r, dir.path(), seg);
      } else {
        got = run_disk(rule, o, dir.path(), seg);
      }
      const std::uint64_t seen = watch.stop();
      EXPECT_EQ(got.layers, ref.layers) << what;
      EXPECT_LE(got.disk_peak_bytes, bound) << what;
      EXPECT_LE(seen, bound) << what;
      EXPECT_GT(seen, 0u) << what;
      merges += got.disk_update_merges;
    }
  }
  EXPECT_GT(merges, 0u);  // the merge path was taken
}

TEST(DiskPlan, MemoryStaysUnderTheSettingAtEverySize) {
  const std::uint64_t f14 = 87178291200ULL;
  for (std::uint64_t mib = 80; mib <= 24 * 1024; mib = mib * 3 / 2) {
    DiskSettings s;
    s.memory = mib << 20;
    const DiskPlan p = plan_disk(f14, 14, s);
    EXPECT_LE(p.memory_bytes, s.memory) << mib << " MiB";
    EXPECT_EQ(p.outbox_bytes % 16, 0u);
    EXPECT_GE(p.memory_bytes, 3 * (p.segment_ranks / 8) + p.outbox_bytes);
  }
}

// Stopped at every pass boundary and inside passes, then resumed from the folder: the
// same layers, and the levels before the stop are kept.
TEST(DiskBfs, StoppedInAnyPassResumesToTheSameLayers) {
  const AnyRule rule = make_rule("rotate", 3, 3);
  const std::uint64_t seg = test::odd_segment(rule_size(rule));
  const BfsResult ref = find_variant("reference").run(rule, BfsOptions{});
  for (int stop_after : {0, 3, 7, 12, 15}) {
    for (double commit : {0.0, 60.0})  // a commit after every pass, or none but the first
    for (double fraction : {kWholeBits, DiskSettings{}.delta_fraction, kDeltasAlways}) {
      TempFolder dir("disk");
      std::atomic<int> stop{0};
      BfsOptions o;
      o.stop = &stop;
      o.disk.commit_seconds = commit;
      o.disk.delta_fraction = fraction;
      o.on_level = [&](const LevelStat& l, std::uint64_t) {
        if (l.depth == stop_after) stop.store(15);
      };
      EXPECT_THROW(run_disk(rule, o, dir.path(), seg), BfsInterrupted) << stop_after;
      EXPECT_TRUE(holds_disk_run(dir.path()));
      BfsOptions r;
      r.disk.resume = true;
      r.disk.delta_fraction = fraction;
      const BfsResult resumed = run_disk(rule, r, dir.path(), seg);
      EXPECT_EQ(resumed.layers, ref.layers) << stop_after << " " << commit << " " << fraction;
      EXPECT_TRUE(fs::is_empty(dir.path()));
    }
  }
}

TEST(DiskBfs, AFullDiskFailsWithAClearErrorAndLosesNothing) {
  const AnyRule rule = make_rule("sliding", 3, 3);
  const std::uint64_t seg = test::odd_segment(rule_size(rule));
  const BfsResult ref = find_variant("reference").run(rule, BfsOptions{});
  for (std::uint64_t limit : {std::uint64_t{100}, std::uint64_t{200000}, std::uint64_t{600000}})
  for (double fraction : {kWholeBits, kDeltasAlways}) {
    TempFolder dir("disk");
    BfsOptions o;
    o.disk.write_limit = limit;
    o.disk.commit_seconds = 0;
    o.disk.delta_fraction = fraction;
    try {
      run_disk(rule, o, dir.path(), seg);
      ADD_FAILURE() << "no error with a write limit of " << limit;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("No space left on device"), std::string::npos) << e.what();
    }
    // The last committed pass is intact: the run continues from it.
    BfsOptions r;
    r.disk.resume = true;
    r.disk.delta_fraction = fraction;
    EXPECT_EQ(run_disk(rule, r, dir.path(), seg).layers, ref.layers) << limit << " " << fraction;
  }
}

TEST(DiskBfs, RefusesAFolderWithARunAResumeOfAnotherSpaceAndADepthTable) {
  const AnyRule rule = make_rule("rotate", 3, 3);
  const std::uint64_t seg = test::odd_segment(rule_size(rule));
  TempFolder dir("disk");
  std::atomic<int> stop{0};
  BfsOptions o;
  o.stop = &stop;
  o.on_level = [&](const LevelStat& l, std::uint64_t) {
    if (l.depth == 4) stop.store(2);
  };
  EXPECT_THROW(run_disk(rule, o, dir.path(), seg), BfsInterrupted);
  EXPECT_THROW(run_disk(rule, BfsOptions{}, dir.path(), seg), InputError);  // a run is there
  BfsOptions r;
  r.disk.resume = true;
  EXPECT_THROW(run_disk(make_rule("adjswap", 3, 3), r, dir.path(), seg), InputError);  // another rule
  r.forward = true;
  EXPECT_THROW(run_disk(rule, r, dir.path(), seg), InputError);  // another direction
  BfsOptions depths;
  depths.want_depths = true;
  TempFolder other("disk");
  EXPECT_THROW(run_disk(rule, depths, other.path(), seg), InputError);
  BfsOptions none;
  EXPECT_THROW(find_variant("disk").run(rule, none), InputError);  // no folder
}

TEST(DiskPlan, SegmentsAreWholeFactorialBlocksThatFitTheMemory) {
  DiskSettings s;
  s.memory = std::uint64_t{12} << 30;
  const std::uint64_t f14 = 87178291200ULL, f13 = 6227020800ULL;
  const DiskPlan p = plan_disk(f14, 14, s);
  EXPECT_EQ(p.segment_ranks % f13, 0u);
  EXPECT_EQ(p.segments, (f14 + p.segment_ranks - 1) / p.segment_ranks);
  EXPECT_GT(p.segments, 1u);
  EXPECT_LE(p.memory_bytes, s.memory);
  // One segment when the whole space fits, no update buffers then.
  s.memory = std::uint64_t{1} << 30;
  const DiskPlan small = plan_disk(362880, 9, s);
  EXPECT_EQ(small.segments, 1u);
  EXPECT_EQ(small.outbox_bytes, 0u);
  // Too little memory for any plan.
  s.memory = std::uint64_t{1} << 20;
  EXPECT_THROW(plan_disk(f14, 14, s), InputError);
  // Given segments: their count follows.
  s.memory = 0;
  s.segment_ranks = 1000;
  EXPECT_EQ(plan_disk(362880, 9, s).segments, 363u);
}

TEST(DiskPlan, AutoTakesItOnlyWhenNothingFitsInMemory) {
  const AnyRule rule = make_rule("rotate", 3, 4);  // 12! ranks: 114 MiB in two bits
  BfsOptions o;
  const std::uint64_t roomy = std::uint64_t{2} << 30, tight = std::uint64_t{100} << 20;
  EXPECT_FALSE(choose_variant("auto", rule, o, roomy, "test").on_disk);
  EXPECT_THROW(choose_variant("auto", rule, o, tight, "test"), InputError);  // no --disk
  o.disk.dir = "/nonexistent-but-not-touched";
  o.disk.memory = tight;
  EXPECT_FALSE(choose_variant("auto", rule, o, roomy, "test").on_disk);
  const VariantInfo& v = choose_variant("auto", rule, o, tight, "test");
  EXPECT_TRUE(v.on_disk);
  EXPECT_LE(v.bytes_needed(rule, o), tight);
  EXPECT_GT(plan_disk(rule, o.disk).segments, 1u);
}


// ---- thin (src/bfs/thin.cpp): the visited bits in memory, the layers as rank lists -----

BfsResult run_thin(const AnyRule& rule, BfsOptions o, const fs::path& dir, std::uint64_t bucket) {
  o.disk.dir = dir;
  o.disk.segment_ranks = bucket;
  return find_variant("thin").run(rule, o);
}

TEST(ThinBfs, EqualsTheReferenceOnEveryRuleWithBucketsSplitAtOddPlaces) {
  for (const AnyRule& rule : small_rules()) {
    const std::uint64_t n = rule_size(rule);
    BfsOptions with_depths;
    with_depths.want_depths = true;
    const BfsResult ref = find_variant("reference").run(rule, with_depths);
    const std::vector<std::uint64_t> far = antipodes(ref, 100);
    std::vector<std::uint64_t> buckets{n, n / 3 + 1, test::odd_segment(n)};
    if (n <= 720) buckets.push_back(37);
    for (std::uint64_t bucket : buckets) {
      for (bool depths : {false, true}) {
        TempFolder dir("thin");
        BfsOptions o;
        o.want_depths = depths;
        const BfsResult got = run_thin(rule, o, dir.path(), bucket);
        EXPECT_EQ(got.layers, ref.layers) << label_of(rule) << " buckets of " << bucket;
        EXPECT_EQ(got.last_layer, far) << label_of(rule) << " buckets of " << bucket;
        if (depths) EXPECT_EQ(got.depth, ref.depth) << label_of(rule) << " buckets of " << bucket;
        EXPECT_TRUE(got.disk_io);
        ASSERT_EQ(got.levels.size(), got.layers.size());
        std::uint64_t written = 0, read = 0;
        for (const LevelStat& l : got.levels) written += l.bytes_written, read += l.bytes_read;
        // Every state is written once and read once, as a 4-byte offset; a level counts
        // the layer it writes and the one it expands (the last layer's expansion, which
        // finds nothing, is no level).
        EXPECT_EQ(written, 4 * ref.reached()) << label_of(rule);
        EXPECT_EQ(read, 4 * (ref.reached() - ref.layers.back())) << label_of(rule);
        EXPECT_TRUE(fs::is_empty(dir.path())) << label_of(rule) << " buckets of " << bucket;
      }
    }
  }
}

TEST(ThinBfs, DirectedBothWaysFromAStartAndAtOneAndTwoThreads) {
  const auto [rows, cols] = test::kSanitized ? std::pair{2, 4} : std::pair{3, 3};
  for (const AnyRule& rule : {make_rule("rotate", rows, cols), make_rule("primeswap", rows, cols)}) {
    for (bool forward : {false, true}) {
      BfsOptions o;
      o.forward = forward;
      o.want_depths = true;
      const State start = std::visit([&](const auto& r) { return r.unrank(r.size() / 2); }, rule);
      o.sources = {start};
      const BfsResult ref = find_variant("reference").run(rule, o);
      for (int threads : {1, 2}) {
        tbb::global_control c(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
        TempFolder dir("thin");
        const BfsResult got = run_thin(rule, o, dir.path(), test::odd_segment(rule_size(rule)));
        EXPECT_EQ(got.layers, ref.layers) << label_of(rule) << " forward " << forward << " threads " << threads;
        EXPECT_EQ(got.depth, ref.depth) << label_of(rule) << " forward " << forward << " threads " << threads;
      }
    }
  }
}

// Levels past a depth byte's 254: refused where a depth table (or a checkpoint's levels)
// must hold them, recorded where the variant allows more (thin without a depth table:
// primeswap 2x7's goal component is deeper than 254).
TEST(ThinBfs, LevelsPastADepthByteAreRecordedWhereAllowed) {
  for (int max_depth : {kMaxDepth, 1 << 20}) {
    BfsResult result;
    BfsOptions o;
    LevelRecorder recorder(o, result, max_depth);
    bool threw = false;
    try {
      for (int d = 0; d < 300; ++d) recorder.record(1, Direction::kTopDown);
    } catch (const std::runtime_error&) {
      threw = true;
    }
    EXPECT_EQ(threw, max_depth == kMaxDepth) << max_depth;
    EXPECT_EQ(result.layers.size(), max_depth == kMaxDepth ? std::size_t{kMaxDepth + 1} : std::size_t{300});
  }
}

// A stop, a full disk and a missing folder: a clear exception and no file left behind
// (the thin variant does not resume: its files hold no visited bits).
TEST(ThinBfs, AStopOrAFullDiskLeavesNoFilesAndMissingFolderIsRefused) {
  const AnyRule rule = make_rule("rotate", 3, 3);
  const std::uint64_t bucket = test::odd_segment(rule_size(rule));
  for (int stop_after : {0, 5, 12}) {
    TempFolder dir("thin");
    std::atomic<int> stop{0};
    BfsOptions o;
    o.stop = &stop;
    o.on_level = [&](const LevelStat& l, std::uint64_t) {
      if (l.depth == stop_after) stop.store(15);
    };
    EXPECT_THROW(run_thin(rule, o, dir.path(), bucket), BfsInterrupted) << stop_after;
    EXPECT_TRUE(fs::is_empty(dir.path())) << stop_after;
  }
  for (std::uint64_t limit : {std::uint64_t{10}, std::uint64_t{200000}}) {
    TempFolder dir("thin");
    BfsOptions o;
    o.disk.write_limit = limit;
    try {
      run_thin(rule, o, dir.path(), bucket);
      ADD_FAILURE() << "no error with a write limit of " << limit;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("No space left on device"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(fs::is_empty(dir.path())) << limit;
  }
  EXPECT_THROW(find_variant("thin").run(rule, BfsOptions{}), InputError);  // no folder
  // Its plan: the visited bits of the whole space (10.15 GiB at 14!) and buffers.
  DiskSettings s;
  const DiskPlan p = plan_thin(make_rule("primeswap", 2, 7), s);
  EXPECT_GE(p.memory_bytes, 87178291200ULL / 8);
  EXPECT_LE(p.memory_bytes, std::uint64_t{11} << 30);
  EXPECT_EQ(p.segments, 64u);
}

}  // namespace
}  // namespace stategraph
