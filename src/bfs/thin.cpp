// thin: a BFS for long, thin searches of a space too large for the in-memory variants.
// The visited bits of the whole space stay in memory (one bit per rank: 10.15 GiB at
// 14!), and every layer is a list of ranks in files in the --disk folder, so the memory
// does not grow with the layers and no pass reads or writes the visited bits:
//   thin-<d>-<b>.ranks   layer d's ranks in bucket b (ranks [b W, b W + W), W < 2^32),
//                        as 32-bit offsets into the bucket, in the order they were found
// Level d reads layer d bucket by bucket, in pieces of at most kPieceRanks, sorts each
// piece (ascending ranks: the rule's rank scanners keep their prefix, the visited words
// are touched in order), expands it in parallel with the BFS kernel's neighbour ranks
// (bfs/engine.hpp: StepRanks, the move scanners from the rank alone), claims each
// neighbour with an atomic test-and-set of its visited bit (batched and prefetched: the
// bits are far larger than any cache), and hands the new ranks, grouped by bucket per
// task, to the buckets of layer d + 1 (appended under the bucket's lock). A bucket of layer d is
// removed once it is expanded. A level's cost is its expansion plus four bytes per
// state written and read once: where the disk variant pays a read and a write of every
// visited bit of the space per pass (10.3 GiB at 14!), this pays nothing per level that
// does not grow with the layer, which is what a search of hundreds of narrow layers
// needs (primeswap 2x7's goal component: results/primeswap-2x7/).
//
// The price: the whole visited bitset in memory (the disk variant needs only a
// segment's), and no resume: a stopped or failed run removes its files (they hold no
// visited bits, so they are worth nothing alone). Layers are sets, and each rank is
// claimed once (the atomic set), so the layers are those of every other variant.
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <vector>

#include "disk_files.hpp"
#include "stategraph/bfs/disk.hpp"
#include "stategraph/bfs/engine.hpp"
#include "stategraph/bfs/memory.hpp"
#include "variants.hpp"

namespace stategraph::bfs {
namespace {
namespace fs = std::filesystem;

// Layer ranks read, sorted and expanded at a time: 64 MiB of offsets.
constexpr std::uint64_t kPieceRanks = std::uint64_t{1} << 24;
// States one task expands (its new ranks are sorted and appended once, at its end).
constexpr std::uint64_t kTaskStates = std::uint64_t{1} << 14;
// At most this many buckets (each layer's open files); a bucket spans fewer than 2^32 ranks.
constexpr std::uint64_t kMaxBuckets = 512;
constexpr std::uint64_t kMaxBucketRanks = std::uint64_t{1} << 32;
constexpr int kMaxThinDepth = 1 << 20;

struct ThinLayout {
  std::uint64_t bucket_ranks = 0, buckets = 0;
};

// 64 buckets, or DiskSettings::segment_ranks ranks per bucket (a test seam for odd
// splits), within [n / kMaxBuckets, 2^32).
ThinLayout thin_layout(std::uint64_t n, const DiskSettings& s) {
  std::uint64_t w = s.segment_ranks ? s.segment_ranks : (n + 63) / 64;
  w = std::clamp<std::uint64_t>(w, std::max<std::uint64_t>((n + kMaxBuckets - 1) / kMaxBuckets, 1), kMaxBucketRanks);
  return {w, (n + w - 1) / w};
}

// Memory beside the visited bits and the depth table: a piece, its sort's scratch, the
// tasks' new ranks, the buckets' state, and the reserve for code and stacks.
std::uint64_t thin_buffer_bytes(const ThinLayout& l) {
  return 3 * kPieceRanks * sizeof(std::uint32_t) + 4 * kTaskStates * kMaxMoves * sizeof(std::uint64_t) +
         l.buckets * 256 + kDiskReserveBytes;
}

std::string layer_name(int d, std::uint64_t b) {
  return "thin-" + std::to_string(d) + "-" + std::to_string(b) + ".ranks";
}

// One layer's bucket files, written by many tasks (each bucket under its own lock).
class LayerFiles {
 public:
  LayerFiles(const fs::path& dir, int depth, std::uint64_t buckets, WriteBudget& budget)
      : dir_(dir), depth_(depth), files_(buckets), locks_(buckets), sizes_(buckets, 0), budget_(budget) {}
  // Appends offsets to bucket b.
  void append(std::uint64_t b, const std::uint32_t* offsets, std::uint64_t count) {
    std::lock_guard<std::mutex> hold(locks_[b]);
    if (!files_[b]) files_[b].emplace(dir_ / layer_name(depth_, b), false, budget_);
    files_[b]->write(offsets, count * sizeof(std::uint32_t));
    sizes_[b] += count;
  }
  void close() {
    for (auto& f : files_)
      if (f) f->close(), f.reset();
  }
  std::uint64_t ranks(std::uint64_t b) const { return sizes_[b]; }
  std::uint64_t total() const {
    std::uint64_t t = 0;
    for (std::uint64_t s : sizes_) t += s;
    return t;
  }

 private:
  fs::path dir_;
  int depth_;
  std::vector<std::optional<OutFile>> files_;
  std::vector<std::mutex> locks_;
  std::vector<std::uint64_t> sizes_;
  WriteBudget& budget_;
};

template <class R>
class ThinSearch {
 public:
  ThinSearch(const R& rule, const BfsOptions& options)
      : rule_(rule),
        options_(options),
        n_(rule.size()),
        layout_(thin_layout(n_, options.disk)),
        dir_(options.disk.dir),
        visited_(n_) {
    budget_.limit = options.disk.write_limit;
    check_batchable(rule);
  }

  BfsResult run() {
    BfsResult result;
    result.disk_io = true;
    if (options_.want_depths) result.depth.assign(n_, kUnreached);
    fs::create_directories(dir_);
    try {
      search(result);
    } catch (...) {
      remove_layers();
      throw;
    }
    remove_layers();
    result.peak_bytes = Bitset::bytes_for(n_) + thin_buffer_bytes(layout_) + (options_.want_depths ? n_ : 0);
    return result;
  }

 private:
  void search(BfsResult& result) {
    // No depth table: as deep as the search goes (primeswap 2x7's goal component is
    // deeper than a depth byte holds).
    LevelRecorder recorder(options_, result, options_.want_depths ? kMaxDepth : kMaxThinDepth);
    auto current = std::make_unique<LayerFiles>(dir_, 0, layout_.buckets, budget_);
    std::vector<std::uint64_t> sources;
    for (State g : bfs_sources(rule_, options_)) {
      const std::uint64_t r = rule_.rank(g);
      if (!visited_.test(r)) visited_.set(r), sources.push_back(r);
    }
    std::sort(sources.begin(), sources.end());
    for (std::uint64_t r : sources) {
      const std::uint32_t off = static_cast<std::uint32_t>(r % layout_.bucket_ranks);
      current->append(r / layout_.bucket_ranks, &off, 1);
      if (options_.want_depths) result.depth[r] = 0;
    }
    current->close();
    std::uint64_t written = sources.size() * sizeof(std::uint32_t), read = 0;
    std::uint64_t count = sources.size();
    double seconds = recorder.elapsed();
    for (int depth = 0;; ++depth) {
      if (!recorder.record(count, Direction::kTopDown, seconds, read, written)) break;
      throw_if_stopped(options_, depth);
      const double start = recorder.elapsed();
      if (options_.progress) options_.progress->start_level(depth + 1, count);
      auto next = std::make_unique<LayerFiles>(dir_, depth + 1, layout_.buckets, budget_);
      read = 0, written = 0;
      const std::uint64_t before = budget_.written;
      first_.clear();
      disk_peak_ = std::max(disk_peak_, count * sizeof(std::uint32_t));
      for (std::uint64_t b = 0; b < layout_.buckets; ++b) {
        if (!current->ranks(b)) continue;
        read += expand_bucket(depth, b, current->ranks(b), *next, result);
        disk_peak_ = std::max(disk_peak_, (count + next->total()) * sizeof(std::uint32_t));
      }
      next->close();
      result.last_layer = first_;  // layer depth's: the deepest once the next one is empty
      written = budget_.written - before;
      count = next->total();
      current = std::move(next);
      seconds = recorder.elapsed() - start;
    }
    result.disk_peak_bytes = disk_peak_;
    recorder.finish();
  }

  // Expands layer `depth`'s bucket b (`ranks` offsets) into `next`, then removes its
  // file; the bytes read. Its lowest ranks join first_ while it holds fewer than
  // DiskSettings::antipodes (buckets come in rank order).
  std::uint64_t expand_bucket(int depth, std::uint64_t b, std::uint64_t ranks, LayerFiles& next, BfsResult& result) {
    const fs::path path = dir_ / layer_name(depth, b);
    InFile in(path);
    const std::uint64_t base = b * layout_.bucket_ranks;
    const auto next_depth = static_cast<std::uint8_t>(std::min(depth + 1, kMaxDepth));
    const std::uint64_t keep = options_.disk.antipodes > first_.size() ? options_.disk.antipodes - first_.size() : 0;
    std::vector<std::uint64_t> lowest;  // the bucket's lowest `keep`, from each piece's
    piece_.resize(std::min(kPieceRanks, ranks));
    for (std::uint64_t left = ranks; left > 0;) {
      const std::uint64_t got = std::min(left, kPieceRanks);
      if (!in.read(piece_.data(), got * sizeof(std::uint32_t)))
        throw std::runtime_error("disk BFS file " + path.string() + " ends before its " + std::to_string(ranks) +
                                 " ranks");
      left -= got;
      tbb::parallel_sort(piece_.begin(), piece_.begin() + static_cast<std::ptrdiff_t>(got));
      for (std::uint64_t i = 0; i < std::min(got, keep); ++i) lowest.push_back(base + piece_[i]);
      const std::uint64_t tasks = (got + kTaskStates - 1) / kTaskStates;
      tbb::parallel_for(std::uint64_t{0}, tasks, [&](std::uint64_t t) {
        if (stop_requested(options_)) return;
        const std::uint64_t lo = t * kTaskStates, hi = std::min(got, lo + kTaskStates);
        expand_task(base, lo, hi, next_depth, next, result);
      });
      throw_if_stopped(options_, depth);
      if (options_.progress) options_.progress->add(got);
    }
    std::sort(lowest.begin(), lowest.end());
    lowest.resize(std::min<std::uint64_t>(lowest.size(), keep));
    first_.insert(first_.end(), lowest.begin(), lowest.end());
    const std::uint64_t bytes = in.bytes_read();
    std::error_code ec;
    fs::remove(path, ec);
    return bytes;
  }

  // Expands piece_[lo, hi) (offsets in the bucket at `base`, ascending): neighbours in
  // batches, their visited words prefetched, then claimed; the new ones to `next`.
  void expand_task(std::uint64_t base, std::uint64_t lo, std::uint64_t hi, std::uint8_t next_depth, LayerFiles& next,
                   BfsResult& result) {
    StepRanks<R> step(rule_, options_, 0, false);
    std::vector<std::uint64_t> found;
    std::uint64_t batch[kBatch + kMaxMoves];
    int size = 0;
    std::uint64_t* words = visited_.words();
    auto claim_batch = [&] {
      for (int k = 0; k < size; ++k) prefetch_write(words + (batch[k] >> 6));
      for (int k = 0; k < size; ++k)
        if (visited_.atomic_set(batch[k])) found.push_back(batch[k]);
      size = 0;
    };
    for (std::uint64_t i = lo; i < hi; ++i) {
      step(base + piece_[i], [&](std::uint64_t q) { batch[size++] = q; });
      if (size >= kBatch) claim_batch();
    }
    claim_batch();
    if (found.empty()) return;
    if (options_.want_depths)
      for (std::uint64_t q : found) result.depth[q] = next_depth;
    // The new ranks by bucket (a counting scatter: a task's neighbours fall into few
    // buckets, and the next level sorts its pieces anyway), one append per bucket.
    const std::uint64_t w = layout_.bucket_ranks;
    std::uint64_t lo_b = found[0] / w, hi_b = lo_b;
    for (std::uint64_t q : found) lo_b = std::min(lo_b, q / w), hi_b = std::max(hi_b, q / w);
    std::vector<std::uint64_t> start(hi_b - lo_b + 2, 0);
    for (std::uint64_t q : found) ++start[q / w - lo_b + 1];
    for (std::size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
    std::vector<std::uint32_t> offsets(found.size());
    std::vector<std::uint64_t> at(start.begin(), start.end() - 1);
    for (std::uint64_t q : found) offsets[at[q / w - lo_b]++] = static_cast<std::uint32_t>(q % w);
    for (std::uint64_t b = lo_b; b <= hi_b; ++b)
      if (const std::uint64_t k = start[b - lo_b + 1] - start[b - lo_b])
        next.append(b, offsets.data() + start[b - lo_b], k);
  }

  void remove_layers() {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir_, ec)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("thin-", 0) == 0 && name.size() > 6 && name.ends_with(".ranks")) fs::remove(e.path(), ec);
    }
  }

  const R& rule_;
  const BfsOptions& options_;
  const std::uint64_t n_;
  const ThinLayout layout_;
  const fs::path dir_;
  Bitset visited_;
  WriteBudget budget_;
  std::vector<std::uint32_t> piece_;
  std::vector<std::uint64_t> first_;  // the lowest ranks of the layer being expanded
  std::uint64_t disk_peak_ = 0;
};

}  // namespace

BfsResult run_thin(const AnyRule& rule, const BfsOptions& options) {
  if (options.disk.dir.empty()) throw InputError("variant thin needs --disk DIR, a folder for its layer files");
  if (options.checkpoint || options.resume)
    throw InputError("variant thin keeps no checkpoints (its layers are files in --disk DIR; a stopped run starts again)");
  return std::visit([&](const auto& r) { return ThinSearch<std::decay_t<decltype(r)>>(r, options).run(); }, rule);
}

std::uint64_t bytes_thin(const AnyRule& rule, const BfsOptions& options) {
  const std::uint64_t n = rule_size(rule);
  return Bitset::bytes_for(n) + thin_buffer_bytes(thin_layout(n, options.disk)) + (options.want_depths ? n : 0);
}

}  // namespace stategraph::bfs

namespace stategraph {

DiskPlan plan_thin(const AnyRule& rule, const DiskSettings& settings) {
  DiskPlan p;
  p.ranks = rule_size(rule);
  const bfs::ThinLayout l = bfs::thin_layout(p.ranks, settings);
  p.segment_ranks = l.bucket_ranks;
  p.segments = l.buckets;
  p.memory_bytes = Bitset::bytes_for(p.ranks) + bfs::thin_buffer_bytes(l);
  p.disk_bytes = 0;  // two consecutive layers, 4 bytes a state: not known before the search
  p.text = "memory " + format_bytes(p.memory_bytes) + " (the visited bits of all " + std::to_string(p.ranks) +
           " ranks and buffers), disk 4 bytes per state of two consecutive layers, in " + std::to_string(l.buckets) +
           " bucket" + (l.buckets == 1 ? "" : "s") + " of " + std::to_string(l.bucket_ranks) + " ranks";
  return p;
}

}  // namespace stategraph
