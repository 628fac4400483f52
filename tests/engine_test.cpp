// The BFS engine's block steps and the variant table. A space cut into blocks whose
// remote ranks are routed by hand (what stategraph-mpi does over MPI) must find the
// same layers as the single-machine variants; every table row must be usable by the
// code that reads the table instead of testing names.
#include "stategraph/bfs/engine.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "stategraph/bfs/checkpoint.hpp"
#include "stategraph/bfs/memory.hpp"

namespace stategraph {
namespace {

struct Block {
  std::uint64_t base;
  Bitset visited, frontier, next;
};

// Layers of a search over blocks of `block` ranks; the levels cycle through top-down
// (remote ranks claimed at their owner afterwards), bottom-up asking the owners of
// remote parents, and bottom-up over the gathered frontier (no remote sink).
template <class R>
std::vector<std::uint64_t> blocked_layers(const R& rule, std::uint64_t block) {
  const std::uint64_t n = rule.size();
  std::vector<Block> blocks;
  for (std::uint64_t base = 0; base < n; base += block) {
    const std::uint64_t size = std::min(n, base + block) - base;
    blocks.push_back({base, Bitset(size), Bitset(size), Bitset(size)});
  }
  auto owner = [&](std::uint64_t r) -> Block& { return blocks[r / block]; };
  const BfsOptions o;
  std::uint64_t count = 0;
  for (State g : rule.goals()) {
    Block& b = owner(rule.rank(g));
    const std::uint64_t l = rule.rank(g) - b.base;
    if (!b.visited.test(l)) b.visited.set(l), b.frontier.set(l), ++count;
  }
  std::vector<std::uint64_t> layers;
  for (int depth = 0; count > 0; ++depth) {
    layers.push_back(count);
    std::mutex m;
    std::vector<std::uint64_t> remote;                           // top-down: ranks for their owners
    std::vector<std::pair<std::uint64_t, std::uint64_t>> asked;  // bottom-up: (child rank, remote parent)
    Bitset gathered(n);
    for (const Block& b : blocks)
      for (std::uint64_t l = 0; l < b.frontier.size(); ++l)
        if (b.frontier.test(l)) gathered.set(b.base + l);
    std::uint64_t found = 0;
    for (Block& b : blocks) {
      bfs::parallel_clear(b.next);
      const std::uint64_t words = b.visited.num_words();
      if (depth % 3 == 0) {
        found += bfs::topdown_step(rule, o, b.base, b.frontier, b.visited, b.next, 0, words, [&] {
          return [&](std::uint64_t q) {
            EXPECT_TRUE(q < b.base || q >= b.base + b.visited.size()) << q;
            std::lock_guard lock(m);
            remote.push_back(q);
          };
        });
      } else if (depth % 3 == 1) {
        found += bfs::bottomup_step(rule, o, b.base, b.frontier, b.visited, b.next, 0, words, [&] {
          return [&](std::uint64_t l, std::uint64_t q) {
            std::lock_guard lock(m);
            asked.emplace_back(b.base + l, q);
          };
        });
      } else {
        found += bfs::bottomup_step(rule, o, b.base, gathered, b.visited, b.next, 0, words);
      }
    }
    for (std::uint64_t q : remote) found += bfs::claim(owner(q).visited, owner(q).next.words(), q - owner(q).base);
    for (auto [child, q] : asked)
      if (owner(q).frontier.test(q - owner(q).base))
        found += bfs::claim(owner(child).visited, owner(child).next.words(), child - owner(child).base);
    for (Block& b : blocks) std::swap(b.frontier, b.next);
    count = found;
  }
  return layers;
}

TEST(Engine, BlocksWithRemoteRanksFindTheSingleMachineLayers) {
  // sliding uses incremental successor ranks and block moves, the others rank from
  // scratch; block sizes that do not divide the space leave a short last block.
  const std::vector<std::pair<AnyRule, std::uint64_t>> cases = {
      {make_rule("sliding", 3, 3), 64 * 1000},
      {make_rule("sliding", 2, 4), 64 * 64},
      {make_rule("rotate", 2, 4), 64 * 150},
      {make_rule("primeswap", 2, 4), 64 * 7},
      {make_rule("cardswap", 2, 4, RuleOptions{"A***/ **B"}), 64 * 2},
      // sliding's block moves whose target block is remote; blocks not word-aligned
      {make_rule("sliding", 2, 5), 64 * 1001},
      {make_rule("sliding", 2, 4), 1000},
      {make_rule("sliding", 3, 2), 100},
  };
  for (const auto& [rule, block] : cases) {
    const std::string label = std::string(rule_name(rule)) + " " + rule_grid(rule).label();
    const BfsResult single = find_variant("hybrid").run(rule, BfsOptions{});
    const auto layers = std::visit([&](const auto& r) { return blocked_layers(r, block); }, rule);
    EXPECT_EQ(layers, single.layers) << label;
    EXPECT_GT(rule_size(rule), block) << label << ": the case must have more than one block";
  }
}

// At one thread a top-down step claims with plain writes. oneTBB's workers that were busy
// under a higher limit stay in the arena for a while after the limit drops to 1; if one
// of them took a task of such a step, two plain writers would share a word and lose a
// claim (a state counted twice, one layer too large). A CLI run sets its limit once, but
// `compare` and the tests change it between runs: each 1-thread run here follows a 4-thread
// one at once, and must find the reference's layers.
TEST(Engine, OneThreadRightAfterFourLosesNoClaim) {
  const AnyRule rule = make_rule("rotate", 3, 3);
  const BfsResult ref = find_variant("reference").run(rule, BfsOptions{});
  for (const char* v : {"topdown", "hybrid"}) {
    for (int i = 0; i < 25; ++i) {
      {
        tbb::global_control four(tbb::global_control::max_allowed_parallelism, 4);
        ASSERT_EQ(find_variant(v).run(rule, BfsOptions{}).layers, ref.layers) << v << " at 4 threads, run " << i;
      }
      tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
      ASSERT_EQ(find_variant(v).run(rule, BfsOptions{}).layers, ref.layers) << v << " at 1 thread, run " << i;
    }
  }
}

TEST(VariantTable, EveryRowIsComplete) {
  std::set<std::string_view> names;
  for (const VariantInfo& v : variant_table()) {
    EXPECT_TRUE(names.insert(v.name).second) << v.name << " listed twice";
    EXPECT_FALSE(v.summary.empty()) << v.name;
    EXPECT_NE(v.run, nullptr) << v.name;
    EXPECT_NE(v.bytes_needed, nullptr) << v.name;
    EXPECT_EQ(&find_variant(v.name), &v);
    EXPECT_EQ(variant_supports_checkpoints(v.name), v.checkpoints) << v.name;
    // Untimed levels (the oracle) are never chosen by auto, nor by stategraph-mpi.
    if (!v.timed_levels) EXPECT_TRUE(v.auto_order == 0 && !v.has_mpi) << v.name;
  }
  EXPECT_FALSE(variant_supports_checkpoints("no-such-variant"));
  EXPECT_EQ(lookup_variant("no-such-variant"), nullptr);
}

TEST(VariantTable, BitsPerRankMatchTheBuffers) {
  const AnyRule rule = make_rule("sliding", 3, 3);
  const double n = static_cast<double>(rule_size(rule));
  for (const VariantInfo& v : variant_table()) {
    if (v.bits_per_rank == 0) continue;
    const double bytes = static_cast<double>(v.bytes_needed(rule, BfsOptions{}));
    EXPECT_NEAR(bytes, v.bits_per_rank * n / 8, v.bits_per_rank * 8) << v.name;  // rounded up to whole words
  }
}

TEST(VariantTable, AutoOrderIsOneToKAndEndsWithTheSmallest) {
  const std::vector<const VariantInfo*> candidates = auto_variants();
  ASSERT_FALSE(candidates.empty());
  for (std::size_t i = 0; i < candidates.size(); ++i) EXPECT_EQ(candidates[i]->auto_order, static_cast<int>(i) + 1);
  // choose_variant names the last in-memory candidate as the smallest ("needs at least",
  // "try --variant"); the disk variants come after every in-memory one.
  const VariantInfo* smallest = nullptr;
  for (const VariantInfo* v : candidates) {
    if (v->on_disk) continue;
    smallest = v;
  }
  ASSERT_NE(smallest, nullptr);
  bool disk_seen = false;
  for (const VariantInfo* v : candidates) {
    if (v->on_disk) {
      disk_seen = true;
      continue;
    }
    EXPECT_FALSE(disk_seen) << v->name << " after a disk variant";
    EXPECT_GT(v->bits_per_rank, 0) << v->name;
    EXPECT_GE(v->bits_per_rank, smallest->bits_per_rank) << v->name;
  }
}

TEST(VariantTable, CompareDefaultListsEveryVariantOnceUntimedLast) {
  const std::vector<std::string> names = variant_names_by_kind();
  ASSERT_EQ(names.size(), variant_table().size());
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  bool untimed = false, serial = false;
  for (const std::string& name : names) {
    const VariantInfo& v = find_variant(name);
    if (!v.timed_levels)
      untimed = true;
    else
      EXPECT_FALSE(untimed) << name << " after an untimed variant";
    if (!v.parallel)
      serial = true;
    else
      EXPECT_FALSE(serial) << name << " after a one-thread variant";
  }
}

// The disk variant reuses its bitsets for a smaller last segment: the same buffer, the
// words kept, and no growth past what was allocated.
TEST(Bitset, ReshapeKeepsTheBufferAndRefusesToGrow) {
  Bitset b(1000);
  b.set(5), b.set(700);
  const std::uint64_t* words = b.words();
  b.reshape(130);
  EXPECT_EQ(b.size(), 130u);
  EXPECT_EQ(b.num_words(), 3u);
  EXPECT_EQ(b.words(), words);
  EXPECT_TRUE(b.test(5));
  EXPECT_EQ(b.count(), 1u);
  b.reshape(1000);
  EXPECT_TRUE(b.test(700));
  EXPECT_EQ(b.capacity_words(), 16u);
  EXPECT_THROW(b.reshape(1025), std::length_error);
}

}  // namespace
}  // namespace stategraph
