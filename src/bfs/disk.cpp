// disk: a BFS whose memory is a setting. The space is cut into segments of consecutive
// ranks, each a whole number of blocks of m! ranks that share their first Lehmer digits
// (disk.hpp: plan_disk), and only one segment is in memory at a time, as the three
// bitsets of topdown (visited, frontier, next) over its ranks. Everything else is in
// files in the --disk folder:
//   vis-<i>-<p>.bits     segment i's visited bits as pass p left them (a pass writes a new
//                        file, so the committed one is never overwritten)
//   visd-<i>-<p>.set     the bits that pass p newly set in segment i (layer p's late claims
//                        and layer p + 1's), on top of its vis file: a pass that sets few
//                        bits appends them here instead of rewriting the visited bits, until
//                        the segment's deltas would pass DiskSettings::delta_fraction of
//                        them (a primeswap 2x5 search of 175 narrow layers in 7 segments
//                        writes 31 MB instead of 80 MB; 2x6, 4 segments: 4.2 GB, not 14.7)
//   front-<d>-<i>.set    the ranks of layer d that the pass d - 1 claimed inside segment i
//   upd-<d>-<j>-<i>.set  neighbours in segment j of layer d - 1's states of segment i,
//                        which segment i could not claim (j's bits were on disk); i =
//                        the number of segments S for the sources of pass 0, and S + 1
//                        for the one bitmap that generation d's files for j were merged
//                        into when they would have passed its size (send_updates)
//   disk-bfs.sgdm        the manifest: identity, the levels so far, each segment's
//                        visited file; committed atomically after a pass, at most one
//                        commit per DiskSettings::commit_seconds (--checkpoint-interval)
// A set file is a sequence of frames {u8 tag, u64 payload bytes, payload}, each payload
// one set of segment offsets in offset_codec.hpp's encodings (varint deltas or bitmap).
//
// Pass d, segment by segment (one with neither a front file nor update files is skipped,
// unread): read its visited bits; its frontier = front-<d>-<i> plus every offset of the
// upd-<d>-<i>-* files not yet visited (those are claimed now: layer d is complete only
// here, one pass after the pass that found most of it); expand the frontier top-down
// with engine.hpp's topdown_step (the rule's rank scanners and block moves inside the
// segment), claiming neighbours inside the segment and handing the others to the outbox,
// one array of ranks that a round fills (Outbox: rounds are cut so that their states
// times the last round's rate of remote neighbours fit, and a round that overflows anyway
// is sent again in rounds sized by the rule's degree); a round's ranks are radix-sorted,
// deduplicated and appended to upd-<d+1>-<j>-<i>, one frame per target, streamed through
// one buffer (FrameWriter): the memory is the segment's three bitsets, the outbox and
// a few MiB, nothing that grows with the layers. Updates for a segment j > i (later in
// the same pass) are claimed when j is loaded, into its next layer, and removed at once;
// only those for j < i wait for the next pass. Then the claims go to front-<d+1>-<i>,
// and the new visited bits to a delta file, or the whole bits to the pass's own file. A
// file read by a pass that is not the committed one is removed as soon as it is read
// (a delta stays until a committed visited file replaces it). After the last segment, when a
// commit is due (DiskSettings::commit_seconds passed, or the pass wrote more than a
// little: kUncommittedFraction), every file is synced (syncfs) and the manifest names the
// new files: pass d is committed, and every file the manifest does not name is removed.
// The folder holds the committed state, the generation being written and, when it is not
// the committed one, the rest of the small one being read: plan_disk's bound (disk_bound).
//
// Why a resumed run finds the same layers: the committed state after pass d is exactly
// {visited = layers 0..d plus the front files' ranks of layer d + 1, the front and update
// files of generation d + 1}, the visited bits being each segment's vis-<i>-<p> (or none)
// and the visd-<i>-<q> with p < q <= d; later passes never write or remove a file it names
// (they write files of later generations and visited and delta files of later passes;
// a delta is never appended to), so a kill at any moment leaves it intact, and a resume
// deletes the rest and runs pass d + 1 again. The
// updates a pass sends forward (upd-<d+2>-<j>-<i>, i < j, written and read inside pass
// d + 1) are of a generation that no committed state names: stale after a kill, redone
// with the pass. Layers are sets, so the same layers follow, whatever order the claims took.
#include "stategraph/bfs/disk.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "stategraph/bfs/checkpoint.hpp"
#include "stategraph/bfs/engine.hpp"
#include "stategraph/bfs/memory.hpp"
#include "stategraph/bfs/offset_codec.hpp"
#include "stategraph/io/files.hpp"
#include "disk_files.hpp"
#include "variants.hpp"

namespace stategraph {
namespace fs = std::filesystem;

// ---- The plan ----------------------------------------------------------------------

namespace {

std::uint64_t factorial_at_most(std::uint64_t limit, int cells) {
  std::uint64_t f = 1, best = 1;
  for (int m = 1; m < cells; ++m) {
    if (f > limit / static_cast<std::uint64_t>(m)) break;
    f *= static_cast<std::uint64_t>(m);
    if (f <= limit) best = f;
  }
  return best;
}

// Bytes held for one segment of s ranks: visited, frontier and next.
std::uint64_t segment_bytes(std::uint64_t s) { return 3 * Bitset::bytes_for(s); }
constexpr std::uint64_t kFrameBufferBytes = std::uint64_t{1} << 20;  // the frame writer's buffer
constexpr std::uint64_t kMaxOutboxBytes = std::uint64_t{2} << 30;
// A top-down claim at 2^22 ranks (512 KiB of bits) or more from its state goes through
// the outbox and is made after the round, bucketed by region: pancake-14's flips f11..f14
// land anywhere in 5 MB to 3.1 GB of a segment's bits, DRAM and TLB misses that took 63%
// of a pass's step when they were claimed at once (results/pancake-14/README.md). The
// nearer claims hit the caches, and with the far ones out, stretches of the frontier
// 1 MiB of bits apart never claim in the same word: topdown_step claims them plainly,
// not with locked instructions.
constexpr std::uint64_t kFarClaimDistance = std::uint64_t{1} << 22;

// A bitmap frame of a segment of `local` ranks (a header and whole words), and one of each
// segment of the plan: the most a front file, or a generation's update files for a
// segment, hold.
std::uint64_t disk_bitmap_frame_bytes(std::uint64_t local) { return 9 + 8 * bfs::offset_words(local); }
std::uint64_t disk_bitmap_bytes(const DiskPlan& p) {
  if (!p.segments) return 0;
  const std::uint64_t last = p.ranks - (p.segments - 1) * p.segment_ranks;
  return (p.segments - 1) * disk_bitmap_frame_bytes(p.segment_ranks) + disk_bitmap_frame_bytes(last);
}

// A pass whose new front and update files hold more than this fraction of a bitmap of the
// space is committed, whatever DiskSettings::commit_seconds says (see disk_bound).
constexpr double kUncommittedFraction = 1.0 / 64;

// The folder at its fullest, B being a bitmap of the space (every segment's bitmap frame)
// and b one of a segment. Each term is a cap the search keeps (see the comment at the top):
// - visited files: the committed version of every segment and a newer one (2 B), and while
//   a segment's newest is written, the one it replaces (b);
// - delta files: within delta_fraction of their segment's bits, those on top of the
//   committed visited file and those on top of a newer one (2 delta_fraction B; a fraction
//   above 1/2, which the CLI refuses, is not bounded so);
// - front files: one frame of a segment each, so a generation holds at most B;
// - update files: a generation's files for a segment never pass its bitmap frame
//   (send_updates merges them into one), so a generation holds at most B; a merge holds
//   the files it merges and the new bitmap at once (b, never while a visited file is written);
// - generations: the committed one (the pass after a commit reads it and keeps it), the
//   one being written, and the one being read when that is not the committed one: only a
//   pass that wrote at most kUncommittedFraction of B is left uncommitted, so that one is
//   small (one segment: its front file is removed once read, before the pass writes).
//   Front and update files: 2 B + 2 B + kUncommittedFraction B;
// - the manifest and its temporary: disk_manifest_allowance.
// Measured against the folder's largest size in tests/disk_test.cpp (DiskBfs.TheFolderStaysUnderThePlansBound).
std::uint64_t disk_bound(const DiskPlan& p, const DiskSettings& settings) {
  const auto big = static_cast<double>(disk_bitmap_bytes(p));
  const double deltas = 2 * std::min(settings.delta_fraction, 0.5) * big;
  const double bound = 2 * big + deltas + (4 + kUncommittedFraction) * big;
  return static_cast<std::uint64_t>(bound) + disk_bitmap_frame_bytes(p.segment_ranks) +
         disk_manifest_allowance(p.segments);
}

}  // namespace

DiskPlan plan_disk(std::uint64_t ranks, int cells, const DiskSettings& settings) {
  DiskPlan p;
  p.ranks = ranks;
  const std::uint64_t memory = settings.memory ? settings.memory : available_memory();
  const std::uint64_t fixed = kDiskReserveBytes + kIoBufferBytes + kFrameBufferBytes;
  constexpr std::uint64_t kMinOutbox = std::uint64_t{1} << 20;
  if (settings.segment_ranks) {
    p.segment_ranks = std::min(settings.segment_ranks, ranks);
  } else {
    if (memory < fixed + 4 * kMinOutbox)
      throw InputError("the disk variant needs at least " + format_bytes(fixed + 4 * kMinOutbox) + " of memory (" +
                       format_bytes(memory) + " given)");
    const std::uint64_t usable = memory - fixed;
    const std::uint64_t outbox = std::clamp<std::uint64_t>(usable / 8, kMinOutbox, kMaxOutboxBytes);
    const std::uint64_t room = usable - outbox;
    const std::uint64_t s_max = room / 24 * 64;  // 3 bits per rank, whole words
    if (s_max >= ranks) {
      p.segment_ranks = ranks;
    } else {
      const std::uint64_t block = factorial_at_most(s_max, cells);
      p.segment_ranks = std::max<std::uint64_t>(s_max / block * block, 64);
    }
  }
  if (p.segment_ranks == 0) p.segment_ranks = 1;
  p.segments = (ranks + p.segment_ranks - 1) / p.segment_ranks;
  if (p.segments > 1000000)
    throw InputError("the disk variant would cut the space into " + std::to_string(p.segments) +
                     " segments (more than 1,000,000): give it more memory or larger segments");
  // The outbox, an array of ranks that every round of remote neighbours fills and its
  // sort's scratch (8 + 8 bytes a slot): what is left of the memory beside the segment, at
  // least 1 MiB, at most 2 GiB and 16 bytes per rank of a segment (more would never be
  // filled: rounds are cut to fit it); with one segment nothing crosses.
  const std::uint64_t seg = segment_bytes(p.segment_ranks);
  if (p.segments > 1) {
    const std::uint64_t left = memory > fixed + seg ? memory - fixed - seg : 0;
    p.outbox_bytes =
        std::max(kMinOutbox, std::min({left, kMaxOutboxBytes, 16 * std::max<std::uint64_t>(p.segment_ranks, 1 << 16)}));
    p.outbox_bytes &= ~std::uint64_t{15};
    if (settings.outbox_bytes) p.outbox_bytes = settings.outbox_bytes;
  }
  p.memory_bytes = fixed + seg + p.outbox_bytes;
  p.disk_bytes = disk_bound(p, settings);
  return p;
}

DiskPlan plan_disk(const AnyRule& rule, const DiskSettings& settings) {
  DiskPlan p = std::visit([&](const auto& r) { return plan_disk(r.size(), r.cells(), settings); }, rule);
  p.text = disk_plan_text(p);
  return p;
}

std::uint64_t disk_manifest_allowance(std::uint64_t segments) {
  return 2 * (4096 + 8 * segments + 40 * std::uint64_t{100000});
}

bool holds_disk_run(const fs::path& dir) {
  std::error_code ec;
  return !dir.empty() && fs::is_regular_file(dir / kDiskManifest, ec);
}

namespace {
// Bytes of our files already in `dir` (a resumed run's).
std::uint64_t our_files_bytes(const fs::path& dir);
}  // namespace

void check_disk_folder(const DiskPlan& plan, const DiskSettings& settings) {
  if (settings.dir.empty())
    throw InputError("the disk variant needs --disk DIR, a folder for its files (about " +
                     format_bytes(plan.disk_bytes) + " at most)");
  std::error_code ec;
  if (fs::exists(settings.dir, ec) && !fs::is_directory(settings.dir, ec))
    throw InputError("--disk " + settings.dir.string() + " is not a folder");
  fs::create_directories(settings.dir, ec);
  if (ec) throw InputError("cannot create --disk folder " + settings.dir.string() + ": " + ec.message());
  const fs::path probe = settings.dir / (".probe-" + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw InputError(file_error("write into", "--disk folder", settings.dir, errno));
  ::close(fd);
  fs::remove(probe, ec);
  struct statvfs st {};
  if (::statvfs(settings.dir.c_str(), &st) == 0) {
    const std::uint64_t free_bytes = static_cast<std::uint64_t>(st.f_bavail) * st.f_frsize;
    const std::uint64_t have = settings.resume ? our_files_bytes(settings.dir) : 0;
    const std::uint64_t need = plan.disk_bytes > have ? plan.disk_bytes - have : 0;
    if (free_bytes < need)
      throw InputError("--disk " + settings.dir.string() + ": its file system has " + format_bytes(free_bytes) +
                       " free, the disk variant may need " + format_bytes(need) + " there");
  }
}

std::string disk_plan_text(const DiskPlan& p) {
  return "memory " + format_bytes(p.memory_bytes) + " (" + std::to_string(p.segments) + " segment" +
         (p.segments == 1 ? "" : "s") + " of " + std::to_string(p.segment_ranks) + " ranks, 3 bits each, " +
         format_bytes(p.outbox_bytes) + " of update buffers), disk at most " + format_bytes(p.disk_bytes);
}

// ---- Files -------------------------------------------------------------------------

namespace {

std::string vis_name(std::uint64_t i, std::int64_t p) {
  return "vis-" + std::to_string(i) + "-" + std::to_string(p) + ".bits";
}
std::string visd_name(std::uint64_t i, std::int64_t p) {
  return "visd-" + std::to_string(i) + "-" + std::to_string(p) + ".set";
}
std::string front_name(int d, std::uint64_t i) {
  return "front-" + std::to_string(d) + "-" + std::to_string(i) + ".set";
}
std::string upd_name(int d, std::uint64_t to, std::uint64_t from) {
  return "upd-" + std::to_string(d) + "-" + std::to_string(to) + "-" + std::to_string(from) + ".set";
}

// What a file name of ours says, parsed; kind 0 when it is not ours.
struct OurFile {
  int kind = 0;  // 1 vis, 2 front, 3 upd, 4 a temporary manifest, 5 visd
  unsigned long long a = 0, b = 0, c = 0;
};
OurFile parse_name(const std::string& name) {
  OurFile f;
  int used = 0;
  if (std::sscanf(name.c_str(), "vis-%llu-%llu.bits%n", &f.a, &f.b, &used) == 2 &&
      used == static_cast<int>(name.size()))
    f.kind = 1;
  else if (std::sscanf(name.c_str(), "front-%llu-%llu.set%n", &f.a, &f.b, &used) == 2 &&
           used == static_cast<int>(name.size()))
    f.kind = 2;
  else if (std::sscanf(name.c_str(), "upd-%llu-%llu-%llu.set%n", &f.a, &f.b, &f.c, &used) == 3 &&
           used == static_cast<int>(name.size()))
    f.kind = 3;
  else if (std::sscanf(name.c_str(), "visd-%llu-%llu.set%n", &f.a, &f.b, &used) == 2 &&
           used == static_cast<int>(name.size()))
    f.kind = 5;
  else if (name.rfind(std::string(kDiskManifest) + ".tmp.", 0) == 0)
    f.kind = 4;
  return f;
}

std::uint64_t our_files_bytes(const fs::path& dir) {
  std::uint64_t total = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (parse_name(e.path().filename().string()).kind) total += e.file_size(ec);
  return total;
}

// Reads a whole bitset file (exactly b's words) into b.
std::uint64_t read_bits(const fs::path& path, Bitset& b) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(file_error("open", "disk BFS file", path, errno));
  auto* p = reinterpret_cast<std::uint8_t*>(b.words());
  std::uint64_t left = b.num_words() * 8;
  while (left > 0) {
    const ssize_t got = ::read(fd, p, static_cast<std::size_t>(std::min<std::uint64_t>(left, std::uint64_t{1} << 26)));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      const int err = got < 0 ? errno : 0;
      ::close(fd);
      if (err) throw std::runtime_error(file_error("read", "disk BFS file", path, err));
      throw std::runtime_error("disk BFS file " + path.string() + " is shorter than its segment");
    }
    p += got, left -= static_cast<std::uint64_t>(got);
  }
  ::close(fd);
  if (b.num_words() && (b.words()[b.num_words() - 1] & ~bfs::valid_mask(b, b.num_words() - 1)))
    throw std::runtime_error("disk BFS file " + path.string() + ": bits set past its segment");
  return b.num_words() * 8;
}

// Appends the whole file `from` (just written, in the page cache) to `out`: a delta
// file's copy of the front file's frame, instead of encoding the claims again from next.
// Returns the bytes read.
std::uint64_t append_file(OutFile& out, const fs::path& from) {
  const int fd = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(file_error("open", "disk BFS file", from, errno));
  const auto buffer = std::make_unique_for_overwrite<std::uint8_t[]>(kIoBufferBytes);
  std::uint64_t total = 0;
  for (;;) {
    const ssize_t got = ::read(fd, buffer.get(), kIoBufferBytes);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int err = errno;
      ::close(fd);
      throw std::runtime_error(file_error("read", "disk BFS file", from, err));
    }
    if (got == 0) break;
    out.write(buffer.get(), static_cast<std::uint64_t>(got));
    total += static_cast<std::uint64_t>(got);
  }
  ::close(fd);
  return total;
}

// Writes frames of sorted, distinct segment offsets, streamed through one buffer of
// kFrameBufferBytes: no list or bitmap of a set is ever built beside it.
class FrameWriter {
 public:
  FrameWriter() : buffer_(kFrameBufferBytes) {}
  // One frame (tag, payload bytes, payload) in a block of `local` ranks holding the
  // offsets that each(f) passes to f in ascending order (each is called twice: once to
  // size the varint encoding), in offset_codec.hpp's cheaper encoding. Nothing for none.
  template <class Each>
  void write(OutFile& out, std::uint64_t local, Each&& each) {
    std::uint64_t count = 0, varint = 0, prev = 0;
    each([&](std::uint64_t x) {
      std::uint64_t d = x - prev;
      prev = x, ++count;
      do ++varint, d >>= 7;
      while (d);
    });
    if (!count) return;
    const std::uint64_t words = bfs::offset_words(local);
    out_ = &out, used_ = 0;
    if (varint <= 8 * words) {
      header(bfs::kOffsetsVarint, varint);
      prev = 0;
      each([&](std::uint64_t x) {
        std::uint64_t v = x - prev;
        prev = x;
        if (used_ + 10 > buffer_.size()) flush();
        while (v >= 0x80) buffer_[used_++] = static_cast<std::uint8_t>(v | 0x80), v >>= 7;
        buffer_[used_++] = static_cast<std::uint8_t>(v);
      });
    } else {  // the bitmap, word by word
      header(bfs::kOffsetsBitmap, 8 * words);
      std::uint64_t w = 0, acc = 0;
      each([&](std::uint64_t x) {
        for (; w < (x >> 6); ++w) put_word(acc), acc = 0;
        acc |= std::uint64_t{1} << (x & 63);
      });
      for (; w < words; ++w) put_word(acc), acc = 0;
    }
    flush();
  }
  // The same for the offsets [begin, end) of a sorted array, minus `base`.
  void write(OutFile& out, std::uint64_t local, const std::uint64_t* begin, const std::uint64_t* end,
             std::uint64_t base = 0) {
    write(out, local, [&](auto&& f) {
      for (const std::uint64_t* p = begin; p != end; ++p) f(*p - base);
    });
  }

 private:
  void header(std::uint8_t tag, std::uint64_t payload) {
    buffer_[0] = tag;
    std::memcpy(buffer_.data() + 1, &payload, 8);
    used_ = 9;
  }
  void put_word(std::uint64_t m) {
    if (used_ + 8 > buffer_.size()) flush();
    std::memcpy(buffer_.data() + used_, &m, 8);
    used_ += 8;
  }
  void flush() {
    if (used_) out_->write(buffer_.data(), used_);
    used_ = 0;
  }
  std::vector<std::uint8_t> buffer_;
  OutFile* out_ = nullptr;
  std::uint64_t used_ = 0;
};

// The bytes of the frame FrameWriter::write makes of the ranks [first, last) (sorted,
// distinct, in the block of `local` ranks at `base`).
std::uint64_t frame_bytes(std::uint64_t local, const std::uint64_t* first, const std::uint64_t* last,
                          std::uint64_t base) {
  const std::uint64_t bitmap = 8 * bfs::offset_words(local);
  std::uint64_t varint = 0, prev = 0;
  for (const std::uint64_t* p = first; p != last && varint <= bitmap; ++p) {
    const std::uint64_t d = *p - base - prev;
    prev = *p - base;
    varint += d < 128 ? 1u : 1u + static_cast<unsigned>((std::bit_width(d) - 1) / 7);
  }
  return first == last ? 0 : 9 + std::min(varint, bitmap);
}

// One frame of the offsets whose bits are set in words[0, W) of a block of `local` ranks,
// as FrameWriter::write makes it (varint deltas or the bitmap, the cheaper), encoded in
// parallel: each chunk of kChunkWords words counts its offsets and their varint bytes,
// the chunks' first deltas follow from their predecessors' last offsets, and groups of
// chunks are encoded side by side into a buffer of kIoBufferBytes, written in order.
// (A sparse level of a 24.9 G-rank segment spent 16% of its time in the serial scan.)
void write_bits_frame(OutFile& out, const std::uint64_t* words, std::uint64_t W, std::uint64_t local) {
  constexpr std::uint64_t kChunkWords = std::uint64_t{1} << 15;  // 2 M ranks: at most 2 MiB of varints
  static_assert(kChunkWords * 64 + 10 <= kIoBufferBytes);
  auto vlen = [](std::uint64_t d) { return d < 128 ? 1u : 1u + static_cast<unsigned>((std::bit_width(d) - 1) / 7); };
  struct Chunk {
    std::uint64_t count = 0, first = 0, last = 0, inner = 0;  // inner: varint bytes after the first
    std::uint64_t prev = 0, bytes = 0;                        // the delta base of `first`; all its bytes
  };
  const std::uint64_t chunks = (W + kChunkWords - 1) / kChunkWords;
  std::vector<Chunk> c(chunks);
  tbb::parallel_for(std::uint64_t{0}, chunks, [&](std::uint64_t k) {
    Chunk& ch = c[k];
    std::uint64_t prev = 0;
    for (std::uint64_t w = k * kChunkWords, end = std::min(W, w + kChunkWords); w < end; ++w)
      for (std::uint64_t bits = words[w]; bits; bits &= bits - 1) {
        const std::uint64_t x = w * 64 + static_cast<unsigned>(std::countr_zero(bits));
        if (ch.count++ == 0)
          ch.first = x;
        else
          ch.inner += vlen(x - prev);
        prev = x;
      }
    ch.last = prev;
  });
  std::uint64_t count = 0, varint = 0, last = 0;
  for (Chunk& ch : c) {
    if (!ch.count) continue;
    ch.prev = last;
    ch.bytes = vlen(ch.first - last) + ch.inner;
    count += ch.count, varint += ch.bytes, last = ch.last;
  }
  if (!count) return;
  const std::uint64_t words_total = bfs::offset_words(local);
  std::uint8_t header[9];
  if (varint > 8 * words_total) {  // the bitmap
    header[0] = bfs::kOffsetsBitmap;
    const std::uint64_t payload = 8 * words_total;
    std::memcpy(header + 1, &payload, 8);
    out.write(header, 9), out.write(words, payload);
    return;
  }
  header[0] = bfs::kOffsetsVarint;
  std::memcpy(header + 1, &varint, 8);
  out.write(header, 9);
  const auto buffer = std::make_unique_for_overwrite<std::uint8_t[]>(kIoBufferBytes);
  std::vector<std::uint64_t> at(chunks + 1);
  for (std::uint64_t k = 0; k < chunks;) {  // a group of chunks that fits the buffer
    std::uint64_t end = k, used = 0;
    while (end < chunks && used + c[end].bytes <= kIoBufferBytes) at[end] = used, used += c[end++].bytes;
    tbb::parallel_for(k, end, [&](std::uint64_t j) {
      const Chunk& ch = c[j];
      if (!ch.count) return;
      std::uint8_t* p = buffer.get() + at[j];
      std::uint64_t prev = ch.prev;
      for (std::uint64_t w = j * kChunkWords, stop = std::min(W, w + kChunkWords); w < stop; ++w)
        for (std::uint64_t bits = words[w]; bits; bits &= bits - 1) {
          const std::uint64_t x = w * 64 + static_cast<unsigned>(std::countr_zero(bits));
          std::uint64_t v = x - prev;
          prev = x;
          while (v >= 0x80) *p++ = static_cast<std::uint8_t>(v | 0x80), v >>= 7;
          *p++ = static_cast<std::uint8_t>(v);
        }
    });
    out.write(buffer.get(), used);
    k = end;
  }
}

// Sorts a[0, n) (values below 2^bits) into ascending order with a scratch array of n:
// a least-significant-digit radix sort, by digits of at most 11 bits, each pass a
// parallel histogram of P chunks and a parallel scatter. Returns the array that holds the
// result (a or tmp). perf on rotate 3x4 in four segments: tbb::parallel_sort was 28% of
// the run, this sort 16%.
std::uint64_t* radix_sort(std::uint64_t* a, std::uint64_t* tmp, std::uint64_t n, int bits) {
  if (n < (std::uint64_t{1} << 16)) {
    std::sort(a, a + n);
    return a;
  }
  const int passes = std::max(1, (bits + 10) / 11);
  const int width = (bits + passes - 1) / passes;
  const std::size_t buckets = std::size_t{1} << width;
  const std::uint64_t chunks = std::min<std::uint64_t>(64, n >> 15);
  std::vector<std::uint64_t> count(chunks * buckets);
  auto chunk_begin = [&](std::uint64_t c) { return n * c / chunks; };
  for (int pass = 0, shift = 0; pass < passes; ++pass, shift += width) {
    const std::uint64_t mask = buckets - 1;
    tbb::parallel_for(std::uint64_t{0}, chunks, [&](std::uint64_t c) {
      std::uint64_t* h = count.data() + c * buckets;
      std::fill(h, h + buckets, std::uint64_t{0});
      for (std::uint64_t k = chunk_begin(c), e = chunk_begin(c + 1); k < e; ++k) ++h[(a[k] >> shift) & mask];
    });
    // Offsets: digit-major, chunk-minor, so that equal digits keep the chunks' order.
    std::uint64_t at = 0;
    bool one_digit = false;
    for (std::size_t dgt = 0; dgt < buckets; ++dgt) {
      const std::uint64_t before = at;
      for (std::uint64_t c = 0; c < chunks; ++c) {
        const std::uint64_t k = count[c * buckets + dgt];
        count[c * buckets + dgt] = at;
        at += k;
      }
      if (at - before == n) one_digit = true;  // every key has this digit: the pass moves nothing
    }
    if (one_digit) continue;
    tbb::parallel_for(std::uint64_t{0}, chunks, [&](std::uint64_t c) {
      std::uint64_t* o = count.data() + c * buckets;
      for (std::uint64_t k = chunk_begin(c), e = chunk_begin(c + 1); k < e; ++k)
        tmp[o[(a[k] >> shift) & mask]++] = a[k];
    });
    std::swap(a, tmp);
  }
  return a;
}

// Orders a[0, n) by bits [shift, shift + width) of (a[k] - base) into tmp, in one
// parallel pass (a histogram per chunk, then a scatter); returns the first index of each
// of the 2^width buckets and n (bucket b holds tmp[at[b], at[b + 1])).
std::vector<std::uint64_t> bucket_by_high_bits(const std::uint64_t* a, std::uint64_t* tmp, std::uint64_t n,
                                               std::uint64_t base, int shift, int width) {
  const std::size_t buckets = std::size_t{1} << width;
  const std::uint64_t chunks = std::clamp<std::uint64_t>(n >> 15, 1, 64);
  std::vector<std::uint64_t> count(chunks * buckets, 0);
  auto chunk_begin = [&](std::uint64_t c) { return n * c / chunks; };
  auto digit = [&](std::uint64_t x) { return static_cast<std::size_t>(((x - base) >> shift) & (buckets - 1)); };
  tbb::parallel_for(std::uint64_t{0}, chunks, [&](std::uint64_t c) {
    std::uint64_t* h = count.data() + c * buckets;
    for (std::uint64_t k = chunk_begin(c), e = chunk_begin(c + 1); k < e; ++k) ++h[digit(a[k])];
  });
  std::vector<std::uint64_t> at(buckets + 1);
  std::uint64_t sum = 0;
  for (std::size_t dgt = 0; dgt < buckets; ++dgt) {
    at[dgt] = sum;
    for (std::uint64_t c = 0; c < chunks; ++c) {
      const std::uint64_t k = count[c * buckets + dgt];
      count[c * buckets + dgt] = sum;
      sum += k;
    }
  }
  at[buckets] = sum;
  tbb::parallel_for(std::uint64_t{0}, chunks, [&](std::uint64_t c) {
    std::uint64_t* o = count.data() + c * buckets;
    for (std::uint64_t k = chunk_begin(c), e = chunk_begin(c + 1); k < e; ++k) tmp[o[digit(a[k])]++] = a[k];
  });
  return at;
}

// The neighbours of one round of a segment's expansion that are not claimed at once: one
// array of ranks and the sorts' scratch, allocated once (their pages are touched only as
// far as a round fills them), that the tasks fill through sinks of kChunk ranks each.
// Ranks in other segments (remote) grow from the array's start; ranks in the segment's
// own range [home_lo, home_hi) (far claims, DiskSettings::far_claim_distance) from its
// end. A round that holds more than the array is flagged (overflowed()) and sent again in
// smaller ones.
class Outbox {
 public:
  static constexpr int kChunk = 512;
  // bytes: both arrays; space: the ranks of the space (the radix sort's key width).
  Outbox(std::uint64_t bytes, std::uint64_t space)
      : slots_(std::max<std::uint64_t>(bytes / 16, 1)), bits_(std::bit_width(space)) {}
  std::uint64_t slots() const { return slots_; }
  // A task's sink: buffers kChunk ranks of each kind on the stack, appends them to the
  // array in one reservation (and the rest when the task ends).
  class Sink {
   public:
    explicit Sink(Outbox& o) : o_(o) {}
    Sink(const Sink&) = delete;
    Sink& operator=(const Sink&) = delete;
    ~Sink() { flush(0), flush(1); }
    void operator()(std::uint64_t q) {
      const int home = q - o_.home_lo_ < o_.home_size_;
      buf_[home][n_[home]++] = q;
      if (n_[home] == kChunk) flush(home);
    }

   private:
    void flush(int home) {
      const auto n = static_cast<std::uint64_t>(n_[home]);
      if (!n) return;
      n_[home] = 0;
      // A reservation of the total first: the two ends never cross.
      if (o_.reserved_.fetch_add(n, std::memory_order_relaxed) + n > o_.slots_) {
        o_.overflow_.store(true, std::memory_order_relaxed);
        return;
      }
      const std::uint64_t at = (home ? o_.home_used_ : o_.used_).fetch_add(n, std::memory_order_relaxed);
      std::uint64_t* to = home ? o_.data_.get() + o_.slots_ - at - n : o_.data_.get() + at;
      std::memcpy(to, buf_[home].data(), static_cast<std::size_t>(n) * 8);
    }
    Outbox& o_;
    std::array<std::array<std::uint64_t, kChunk>, 2> buf_;
    std::array<int, 2> n_{0, 0};
  };
  // Before a round: empty (allocating the arrays the first time; uninitialised, so
  // untouched pages cost nothing), with the home range [home_lo, home_hi).
  void start(std::uint64_t home_lo = 0, std::uint64_t home_hi = 0) {
    if (!data_) data_.reset(new std::uint64_t[slots_]), scratch_.reset(new std::uint64_t[slots_]);
    used_.store(0), home_used_.store(0), reserved_.store(0), overflow_.store(false);
    home_lo_ = home_lo, home_size_ = home_hi - home_lo;
  }
  // After a round (every sink gone): whether it held more ranks than the array (they are
  // lost: the round must be sent again in smaller ones), and how many it held.
  bool overflowed() const { return overflow_.load(); }
  std::uint64_t used() const { return used_.load() + home_used_.load(); }
  // After a round that did not overflow: its remote ranks, sorted and distinct.
  std::pair<const std::uint64_t*, const std::uint64_t*> sorted() {
    if (overflow_.load()) throw std::logic_error("disk BFS: a round overflowed its outbox");
    std::uint64_t* b = radix_sort(data_.get(), scratch_.get(), used_.load(), bits_);
    return {b, std::unique(b, b + used_.load())};
  }
  // After a round that did not overflow: its home ranks (offsets from home_lo), bucketed
  // by their high bits into buckets of whole words of about 2^shift ranks at most; each
  // bucket as [first, last) of bucket(), in ascending order of bucket. Repeats stay.
  struct Buckets {
    const std::uint64_t* ranks = nullptr;
    std::vector<std::uint64_t> at;  // bucket k: ranks[at[k], at[k + 1])
  };
  Buckets home_buckets(int shift) {
    if (overflow_.load()) throw std::logic_error("disk BFS: a round overflowed its outbox");
    const std::uint64_t n = home_used_.load();
    const std::uint64_t* a = data_.get() + slots_ - n;
    shift = std::max(shift, 6);  // whole words
    const int width = std::clamp(static_cast<int>(std::bit_width(home_size_ ? home_size_ - 1 : 0)) - shift, 0, 12);
    Buckets out;
    std::uint64_t* tmp = scratch_.get() + slots_ - n;  // beside the remote part's scratch
    if (width == 0) {
      std::memcpy(tmp, a, static_cast<std::size_t>(n) * 8);
      out.at = {0, n};
    } else {
      out.at = bucket_by_high_bits(a, tmp, n, home_lo_, shift, width);
    }
    out.ranks = tmp;
    return out;
  }

 private:
  std::uint64_t slots_;
  int bits_;
  std::unique_ptr<std::uint64_t[]> data_, scratch_;
  std::atomic<std::uint64_t> used_{0}, home_used_{0}, reserved_{0};
  std::atomic<bool> overflow_{false};
  std::uint64_t home_lo_ = 0, home_size_ = 0;
};

// Calls word(w, m) for each word of a bitmap frame's payload, or one(l) for each offset
// of a varint frame's, for the frame whose tag and payload size were just read.
template <class Word, class One>
void frame_payload(InFile& in, std::uint8_t tag, std::uint64_t payload, std::uint64_t local, Word&& word, One&& one) {
  const std::string name = "disk BFS file " + in.path().string();
  if (tag == bfs::kOffsetsBitmap) {
    const std::uint64_t words = bfs::offset_words(local);
    if (payload != 8 * words) throw std::runtime_error(name + ": a bitmap of the wrong size");
    for (std::uint64_t w = 0; w < words; ++w) {
      std::uint64_t m;
      in.read(&m, 8);
      if (m) word(w, m);
    }
  } else if (tag == bfs::kOffsetsVarint) {
    bfs::for_each_varint_offset([&] { return in.byte(); }, payload, local, one, name, 64);
  } else {
    throw std::runtime_error(name + ": an unknown frame");
  }
}

// The same for every frame of the file, frame after frame, until it ends.
template <class Word, class One>
void for_each_frame(InFile& in, std::uint64_t local, Word&& word, One&& one) {
  for (;;) {
    std::uint8_t tag;
    if (!in.read(&tag, 1)) return;
    std::uint64_t payload;
    in.read(&payload, 8);
    frame_payload(in, tag, payload, local, word, one);
  }
}

// Reads a front file (one frame) into `frontier`, which it overwrites: a bitmap frame
// straight into its words, a varint one onto a cleared set. Returns how many ranks.
std::uint64_t read_front(InFile& in, Bitset& frontier) {
  std::uint8_t tag = 0;
  std::uint64_t payload = 0, count = 0;
  if (!in.read(&tag, 1)) return bfs::parallel_clear(frontier), 0;
  in.read(&payload, 8);
  std::uint64_t* fw = frontier.words();
  if (tag == bfs::kOffsetsBitmap && payload == 8 * frontier.num_words()) {
    in.read(fw, payload);
    count = tbb::parallel_reduce(
        tbb::blocked_range<std::uint64_t>(0, frontier.num_words(), std::uint64_t{1} << 16), std::uint64_t{0},
        [&](const auto& r, std::uint64_t c) {
          for (std::uint64_t w = r.begin(); w != r.end(); ++w) c += static_cast<std::uint64_t>(std::popcount(fw[w]));
          return c;
        },
        std::plus<>());
  } else {
    bfs::parallel_clear(frontier);
    frame_payload(
        in, tag, payload, frontier.size(),
        [&](std::uint64_t w, std::uint64_t m) {
          count += static_cast<std::uint64_t>(std::popcount(m & ~fw[w]));
          fw[w] |= m;
        },
        [&](std::uint64_t l) { fw[l >> 6] |= std::uint64_t{1} << (l & 63), ++count; });
  }
  std::uint8_t extra;
  if (in.read(&extra, 1)) throw std::runtime_error("disk BFS file " + in.path().string() + ": more than one frame");
  return count;
}

// ---- The manifest ------------------------------------------------------------------

struct ManifestHeader {
  std::uint8_t common[kCommonHeaderBytes];
  char rule[16];
  std::uint32_t rows, cols;
  std::uint64_t space;
  std::uint32_t flags;  // 2: forward
  std::uint32_t levels;
  std::uint64_t sources_hash;
  std::uint64_t segment_ranks;
  std::uint64_t segments;
  std::uint64_t pass;                     // the next pass to run
  std::uint64_t front_states;             // ranks of layer `pass` in its front files
  double seconds;                         // search time so far
  std::uint64_t last_read, last_written;  // the last pass's traffic (the next layer's row)
  double last_seconds;                    // the last pass's time
  std::uint64_t done;                     // 1: the search is complete
  std::uint64_t last_direction;           // the last pass's Direction
  std::uint8_t reserved[256 - 32 - 16 - 8 - 8 - 8 - 8 - 8 - 8 - 8 - 8 - 8 - 16 - 8 - 8 - 8];
};
static_assert(sizeof(ManifestHeader) == 256);
constexpr BinaryFormat kManifestFormat{{'S', 'G', 'D', 'I', 'S', 'K', '\0', '\0'},
                                       1,
                                       sizeof(ManifestHeader),
                                       "disk BFS manifest",
                                       "start the run again without --resume"};
constexpr std::size_t kLevelRecord = 40;

struct Manifest {
  CheckpointIdentity id;
  std::uint64_t segment_ranks = 0, segments = 0;
  int pass = 0;
  std::uint64_t front_states = 0;
  double seconds = 0, last_seconds = 0;
  std::uint64_t last_read = 0, last_written = 0;
  bool done = false;
  Direction last_direction = Direction::kTopDown;
  std::vector<LevelStat> levels;
  std::vector<std::int64_t> vis;  // per segment: the pass of its vis-i-<p> file, -1 none yet (all clear)
};

void put16(char (&field)[16], const std::string& s) {
  std::memset(field, 0, sizeof field);
  std::memcpy(field, s.data(), std::min<std::size_t>(s.size(), sizeof field - 1));
}

void save_manifest(const fs::path& dir, const Manifest& m) {
  ManifestHeader h{};
  put16(h.rule, m.id.rule);
  h.rows = static_cast<std::uint32_t>(m.id.rows);
  h.cols = static_cast<std::uint32_t>(m.id.cols);
  h.space = m.id.space;
  h.flags = m.id.forward ? 2u : 0u;
  h.levels = static_cast<std::uint32_t>(m.levels.size());
  h.sources_hash = m.id.sources_hash;
  h.segment_ranks = m.segment_ranks;
  h.segments = m.segments;
  h.pass = static_cast<std::uint64_t>(m.pass);
  h.front_states = m.front_states;
  h.seconds = m.seconds;
  h.last_read = m.last_read;
  h.last_written = m.last_written;
  h.last_seconds = m.last_seconds;
  h.done = m.done ? 1 : 0;
  h.last_direction = static_cast<std::uint64_t>(m.last_direction);
  std::vector<std::uint8_t> levels(m.levels.size() * kLevelRecord);
  for (std::size_t i = 0; i < m.levels.size(); ++i) {
    const LevelStat& l = m.levels[i];
    std::uint8_t* p = levels.data() + i * kLevelRecord;
    const auto depth = static_cast<std::uint32_t>(l.depth), dir = static_cast<std::uint32_t>(l.direction);
    std::memcpy(p, &depth, 4), std::memcpy(p + 4, &dir, 4), std::memcpy(p + 8, &l.states, 8);
    std::memcpy(p + 16, &l.seconds, 8), std::memcpy(p + 24, &l.bytes_read, 8), std::memcpy(p + 32, &l.bytes_written, 8);
  }
  const ByteSpan data[] = {{levels.data(), levels.size()}, {m.vis.data(), m.vis.size() * 8}};
  write_binary_file(dir / kDiskManifest, kManifestFormat, &h, data);
}

Manifest load_manifest(const fs::path& dir) {
  const fs::path path = dir / kDiskManifest;
  const MappedFile file = MappedFile::open(path, "disk BFS manifest");
  const BinaryView view = parse_binary(file.data(), file.size(), kManifestFormat, path.string());
  if (!view.checksum_ok(kManifestFormat))
    throw InputError("disk BFS manifest " + path.string() + ": checksum mismatch (damaged file)");
  ManifestHeader h;
  std::memcpy(&h, view.header, sizeof h);
  Manifest m;
  m.id.rule = std::string(h.rule, strnlen(h.rule, sizeof h.rule));
  m.id.rows = static_cast<int>(h.rows);
  m.id.cols = static_cast<int>(h.cols);
  m.id.space = h.space;
  m.id.variant = "disk";
  m.id.forward = (h.flags & 2u) != 0;
  m.id.sources_hash = h.sources_hash;
  m.segment_ranks = h.segment_ranks;
  m.segments = h.segments;
  m.pass = static_cast<int>(h.pass);
  m.front_states = h.front_states;
  m.seconds = h.seconds;
  m.last_read = h.last_read, m.last_written = h.last_written, m.last_seconds = h.last_seconds;
  m.done = h.done != 0;
  m.last_direction = h.last_direction == 1 ? Direction::kBottomUp : Direction::kTopDown;
  if (m.segment_ranks == 0 || m.segments != (m.id.space + m.segment_ranks - 1) / m.segment_ranks ||
      view.data_bytes != h.levels * kLevelRecord + 8 * m.segments || h.pass > kMaxDepth + 1)
    throw InputError("disk BFS manifest " + path.string() + ": inconsistent fields");
  for (std::uint32_t i = 0; i < h.levels; ++i) {
    const std::uint8_t* p = view.data + i * kLevelRecord;
    LevelStat l;
    std::uint32_t depth, dir;
    std::memcpy(&depth, p, 4), std::memcpy(&dir, p + 4, 4), std::memcpy(&l.states, p + 8, 8);
    std::memcpy(&l.seconds, p + 16, 8), std::memcpy(&l.bytes_read, p + 24, 8), std::memcpy(&l.bytes_written, p + 32, 8);
    l.depth = static_cast<int>(depth);
    l.direction = dir == 1 ? Direction::kBottomUp : Direction::kTopDown;
    m.levels.push_back(l);
  }
  m.vis.resize(m.segments);
  std::memcpy(m.vis.data(), view.data + h.levels * kLevelRecord, 8 * m.segments);
  for (std::int64_t v : m.vis)
    if (v < -1 || v >= static_cast<std::int64_t>(h.pass))
      throw InputError("disk BFS manifest " + path.string() + ": inconsistent fields");
  return m;
}

// ---- The search --------------------------------------------------------------------

// A bottom-up level of a segment also scans its whole frontier for remote neighbours:
// about this fraction of a top-down expansion per frontier state (rotate 2x6 in three
// segments, ranks from states: 26.4 s with the hybrid's rule unchanged, 22.6 s all
// top-down, 23.4 s with 0.5; rotate 3x4 in four segments, rank scanners: 17.0 s with 0,
// 15.8 s with 0.5).
constexpr double kRemoteScanCost = 0.5;
// Debug builds (the sanitizers' too) count each segment's visited bits as well as keeping
// the count, and stop when the two differ.
#ifdef NDEBUG
constexpr bool kCheckCounts = false;
#else
constexpr bool kCheckCounts = true;
#endif
// Layer d's late claims (ranks of the update files claimed at the start of pass d) in a
// segment, listed in memory for its delta file, 8 bytes each in the plan's reserve; a pass
// with more writes the segment's visited bits whole.
constexpr std::uint64_t kListedClaims = std::uint64_t{1} << 20;

template <class R>
class DiskSearch {
 public:
  DiskSearch(const R& rule, const BfsOptions& options, const DiskPlan& plan)
      : rule_(rule), options_(options), plan_(plan), dir_(options.disk.dir), n_(rule.size()) {
    budget_.limit = options.disk.write_limit;
  }

  BfsResult run();

 private:
  std::uint64_t base(std::uint64_t i) const { return i * plan_.segment_ranks; }
  std::uint64_t local(std::uint64_t i) const { return std::min(plan_.segment_ranks, n_ - base(i)); }
  fs::path at(const std::string& name) const { return dir_ / name; }

  void start_fresh();
  void resume();
  void remove_stale();
  void expand(std::uint64_t i, int d, std::uint64_t& claimed_next);
  void resize(std::uint64_t bits);
  void note_disk(std::int64_t delta) {
    disk_now_ = static_cast<std::uint64_t>(std::max<std::int64_t>(0, static_cast<std::int64_t>(disk_now_) + delta));
    disk_peak_ = std::max(disk_peak_, disk_now_);
  }
  std::uint64_t file_size(const fs::path& p) const {
    std::error_code ec;
    const auto s = fs::file_size(p, ec);
    return ec ? 0 : s;
  }
  void remove_file(const fs::path& p) {
    const std::uint64_t s = file_size(p);
    std::error_code ec;
    if (fs::remove(p, ec)) note_disk(-static_cast<std::int64_t>(s));
  }

  const R& rule_;
  const BfsOptions& options_;
  DiskPlan plan_;
  fs::path dir_;
  std::uint64_t n_;
  Manifest m_;
  Bitset visited_, frontier_, next_;
  std::uint64_t read_ = 0, written_ = 0;  // this pass's traffic
  std::uint64_t disk_now_ = 0, disk_peak_ = 0;
  // The update files each segment receives in the generation being read (by source).
  std::vector<std::vector<std::uint64_t>> inbound_;
  // Per segment j, the update files of the next generation there are now (upd-<d+1>-<j>-<i>,
  // by source i; merged(): the one bitmap they were merged into), their bytes, and whether
  // they are that bitmap. Those from segments before j in this pass are claimed when j is
  // loaded, then removed; the rest (all of them if j is not loaded) are read by the next
  // pass. Their bytes never pass update_cap(j) (send_updates).
  std::vector<std::vector<std::uint64_t>> next_from_;
  std::vector<std::uint64_t> next_bytes_;
  std::vector<std::uint8_t> next_merged_;
  std::uint64_t merged() const { return plan_.segments + 1; }  // the merged file's source (pass 0's is segments)
  std::uint64_t update_cap(std::uint64_t j) const { return disk_bitmap_frame_bytes(local(j)); }
  std::uint64_t merges_ = 0;             // update files merged into a bitmap (they would have passed the cap)
  std::uint64_t front_next_bytes_ = 0;  // the front files written in this pass
  void send_updates(std::uint64_t i, int d, std::uint64_t j, const std::uint64_t* first, const std::uint64_t* last,
                    std::unique_ptr<OutFile>& file);
  std::vector<std::uint8_t> has_front_, has_front_next_;
  std::vector<std::int64_t> cur_vis_;  // per segment: the pass of its newest visited file (committed or not)
  std::vector<std::int64_t> vis_count_;  // per segment: its visited bits after its last pass (-1: not counted)
  // Per segment: the passes of the delta files on top of it (visd-i-q, q > cur_vis_[i],
  // ascending), and their bytes.
  std::vector<std::vector<std::int64_t>> deltas_;
  std::vector<std::uint64_t> delta_bytes_;
  // The offsets a segment's update files newly claimed in this pass (layer d's late
  // states), for its delta file; when more than kListedClaims, its visited bits are
  // rewritten instead.
  std::vector<std::uint64_t> late_;
  bool late_overflow_ = false;
  // The last pass's figures (the next layer's row), and the claims of the next layer,
  // between commits.
  double last_seconds_ = 0;
  std::uint64_t last_read_ = 0, last_written_ = 0, front_states_ = 0;
  Direction last_direction_ = Direction::kTopDown;
  std::chrono::steady_clock::time_point last_commit_;
  const BfsResult* levels_ = nullptr;  // the levels recorded so far (the direction choices read them)
  std::uint64_t applied_ = 0;          // ranks of layer `pass` claimed from update files
  std::uint64_t expanded_ = 0;         // segments expanded in this pass (the kill hook)
  WriteBudget budget_;
  // The cross-segment updates of a round (plan_.outbox_bytes) and the frame writer.
  std::unique_ptr<Outbox> outbox_;  // made once the segments are known (a resume takes the folder's)
  FrameWriter frames_;
  std::uint64_t resent_ = 0;                // rounds sent again after their outbox overflowed
  std::uint64_t far_claims_ = 0;            // distinct far neighbours claimed in rank order
  std::vector<std::uint64_t> layer_ranks_;  // the first ranks of the layer being expanded
  // The fewest leading cells c such that a segment is a union of blocks of (n-c)! ranks
  // (only moves of those cells leave it), 0 when that is nearly every cell.
  int fixed_cells_ = 0;
  Direction pass_direction_ = Direction::kTopDown;
  std::uint64_t topdown_segments_ = 0, bottomup_segments_ = 0;  // this pass's choices
};

// Test hook: STATEGRAPH_TEST_DISK_KILL=P:S raises SIGKILL in pass P once S segments are
// expanded (S = 0: right after pass P - 1 is committed), to test kills in mid-pass.
bool kill_hook(int pass, std::uint64_t expanded) {
  static const std::pair<long, long> at = [] {
    long p = -1, s = -1;
    if (const char* v = std::getenv("STATEGRAPH_TEST_DISK_KILL")) std::sscanf(v, "%ld:%ld", &p, &s);
    return std::pair{p, s};
  }();
  return at.first == pass && at.second == static_cast<long>(expanded);
}

// The bitsets, allocated once at the plan's segment size (a smaller last segment reuses
// them: allocating them again cost page faults and zeroing on every switch).
template <class R>
void DiskSearch<R>::resize(std::uint64_t bits) {
  if (visited_.size() == bits) return;
  if ((bits + 63) / 64 > visited_.capacity_words()) {
    const std::uint64_t size = std::max(bits, plan_.segment_ranks);
    visited_ = Bitset(), frontier_ = Bitset(), next_ = Bitset();  // free before allocating
    visited_ = Bitset(size), frontier_ = Bitset(size), next_ = Bitset(size);
  }
  visited_.reshape(bits), frontier_.reshape(bits), next_.reshape(bits);
}

template <class R>
void DiskSearch<R>::start_fresh() {
  if (holds_disk_run(dir_))
    throw InputError("--disk " + dir_.string() + " holds an unfinished disk BFS (" + kDiskManifest +
                     "): continue it with --resume " + dir_.string() + ", or remove it");
  remove_stale();  // files of a run killed before its first commit
  m_ = Manifest{};
  m_.id = CheckpointIdentity::of(AnyRule(rule_), "disk", options_);
  m_.segment_ranks = plan_.segment_ranks;
  m_.segments = plan_.segments;
  m_.vis.assign(plan_.segments, -1);
  // The sources are the updates of pass 0, from the pseudo-segment `segments`.
  std::map<std::uint64_t, std::vector<std::uint64_t>> by_segment;
  for (State g : bfs_sources(rule_, options_)) {
    const std::uint64_t r = rule_.rank(g);
    by_segment[r / plan_.segment_ranks].push_back(r % plan_.segment_ranks);
  }
  for (auto& [seg, offsets] : by_segment) {
    std::sort(offsets.begin(), offsets.end());
    offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
    OutFile out(at(upd_name(0, seg, plan_.segments)), false, budget_);
    frames_.write(out, local(seg), offsets.data(), offsets.data() + offsets.size());
    out.close();
    note_disk(static_cast<std::int64_t>(out.written()));
  }
  sync_folder_fs(dir_);
  save_manifest(dir_, m_);
}

template <class R>
void DiskSearch<R>::resume() {
  if (!holds_disk_run(dir_))
    throw InputError("--resume " + dir_.string() + ": no disk BFS there (no " + kDiskManifest + ")");
  m_ = load_manifest(dir_);
  const CheckpointIdentity id = CheckpointIdentity::of(AnyRule(rule_), "disk", options_);
  CheckpointIdentity stored = m_.id;
  stored.want_depths = id.want_depths;
  if (const std::string why = stored.mismatch(id); !why.empty())
    throw InputError("disk BFS in " + dir_.string() + " does not match this run: " + why);
  // The segments are the manifest's, whatever this run's memory would choose.
  if (m_.segment_ranks != plan_.segment_ranks) {
    DiskSettings settings = options_.disk;
    settings.segment_ranks = m_.segment_ranks;
    plan_ = plan_disk(n_, rule_.cells(), settings);
    if (options_.disk.memory && plan_.memory_bytes > options_.disk.memory)
      throw InputError("--resume " + dir_.string() + ": its segments of " + std::to_string(m_.segment_ranks) +
                       " ranks need " + format_bytes(plan_.memory_bytes) + " of memory, more than the " +
                       format_bytes(options_.disk.memory) + " given");
  }
  remove_stale();
}

// Removes our files that the committed state does not name: the versions and
// generations a killed pass was writing, and temporary manifests.
template <class R>
void DiskSearch<R>::remove_stale() {
  const bool committed = holds_disk_run(dir_) && !m_.vis.empty();
  std::error_code ec;
  std::vector<fs::path> stale;
  for (const auto& e : fs::directory_iterator(dir_, ec)) {
    const OurFile f = parse_name(e.path().filename().string());
    if (!f.kind) continue;
    bool keep = false;
    if (committed && !m_.done) {
      const auto pass = static_cast<unsigned long long>(m_.pass);
      if (f.kind == 1) keep = f.a < m_.segments && m_.vis[f.a] == static_cast<std::int64_t>(f.b);
      if (f.kind == 2) keep = f.a == pass;
      if (f.kind == 3) keep = f.a == pass;
      if (f.kind == 5)  // the deltas on top of the committed visited file
        keep = f.a < m_.segments && m_.vis[f.a] < static_cast<std::int64_t>(f.b) && f.b < pass;
    }
    if (!keep) stale.push_back(e.path());
  }
  for (const fs::path& p : stale) remove_file(p);
}

template <class R>
void DiskSearch<R>::expand(std::uint64_t i, int d, std::uint64_t& claimed_next) {
  const std::uint64_t loc = local(i), b = base(i);
  resize(loc);
  // Visited bits: the committed version, or none yet.
  if (cur_vis_[i] < 0)
    bfs::parallel_clear(visited_);
  else
    read_ += read_bits(at(vis_name(i, cur_vis_[i])), visited_);
  std::uint64_t* vw = visited_.words();
  std::uint64_t* fw = frontier_.words();
  for (std::int64_t q : deltas_[i]) {  // and the passes since, in the order they came
    InFile in(at(visd_name(i, q)));
    for_each_frame(
        in, loc, [&](std::uint64_t w, std::uint64_t m) { vw[w] |= m; },
        [&](std::uint64_t l) { vw[l >> 6] |= std::uint64_t{1} << (l & 63); });
    read_ += in.bytes_read();
  }
  // What this pass reads goes once read, unless the committed state names it (the
  // generation of pass m_.pass): the folder never holds two uncommitted generations.
  const bool read_once = d != m_.pass;
  std::uint64_t front_count = 0;
  if (has_front_[i]) {
    InFile in(at(front_name(d, i)));
    front_count = read_front(in, frontier_);
    read_ += in.bytes_read();
    if (read_once) remove_file(in.path());
  } else {
    bfs::parallel_clear(frontier_);
  }
  // Applies an update file: its ranks not visited yet become visited and go into `into`
  // (frontier or next; none for a dense top-down step, whose next is a difference);
  // returns how many. The file goes once read when `drop`. The frontier's new ones are
  // listed in late_ (for the delta file).
  late_.clear();
  late_overflow_ = false;
  auto apply = [&](const fs::path& path, std::uint64_t* into, bool drop) {
    std::uint64_t fresh_total = 0;
    InFile in(path);
    const bool listed = into == fw;
    auto word = [&](std::uint64_t w, std::uint64_t m) {
      const std::uint64_t fresh = m & ~vw[w];
      vw[w] |= fresh;
      if (into) into[w] |= fresh;
      fresh_total += static_cast<std::uint64_t>(std::popcount(fresh));
      if (listed && fresh && !late_overflow_) {
        for (std::uint64_t bits = fresh; bits; bits &= bits - 1)
          late_.push_back(w * 64 + static_cast<unsigned>(std::countr_zero(bits)));
        if (late_.size() > kListedClaims) late_overflow_ = true, late_.clear();
      }
    };
    for_each_frame(in, loc, word, [&](std::uint64_t l) { word(l >> 6, std::uint64_t{1} << (l & 63)); });
    read_ += in.bytes_read();
    if (drop) remove_file(path);
    return fresh_total;
  };
  std::uint64_t applied = 0;
  for (std::uint64_t from : inbound_[i]) applied += apply(at(upd_name(d, i, from)), fw, read_once);
  applied_ += applied;
  // The layer's first ranks (segments come in rank order): the antipodes, if it is the last.
  for (std::uint64_t w = 0; w < frontier_.num_words() && layer_ranks_.size() < options_.disk.antipodes; ++w)
    for (std::uint64_t bits = fw[w]; bits && layer_ranks_.size() < options_.disk.antipodes; bits &= bits - 1)
      layer_ranks_.push_back(b + w * 64 + static_cast<unsigned>(std::countr_zero(bits)));
  // Expand the frontier in rounds whose remote neighbours fit the outbox budget.
  // next: the steps below overwrite it (top-down from a copy of visited or cleared,
  // bottom-up word by word).
  const std::uint64_t W = frontier_.num_words();
  const std::uint64_t count = front_count + applied;  // the segment's frontier
  std::vector<std::unique_ptr<OutFile>> files(plan_.segments);
  std::uint64_t found = 0;
  const bool single = plan_.segments == 1;
  if (single) {
    // The whole space in memory: the hybrid's steps, bottom-up on the dense late levels.
    std::uint64_t reached = 0, previous = 0;
    for (const LevelStat& l : levels_->levels) reached += l.states;
    if (!levels_->levels.empty()) previous = levels_->levels.back().states;
    pass_direction_ = bfs::choose_direction(count, previous, n_ - reached - count);
    found = pass_direction_ == Direction::kBottomUp
                ? bfs::bottomup_step(rule_, options_, frontier_, visited_, next_)
                : bfs::topdown_step(rule_, options_, frontier_, visited_, next_, count);
    if (stop_requested(options_)) return;
  }
  // Several segments: per segment, top-down (claims inside it, the rest to update files)
  // or, on a dense late level, bottom-up for the parents inside the segment plus the
  // frontier's neighbours in other segments sent as updates (the states whose parents
  // are elsewhere are claimed from those when their segment is loaded next pass).
  bool bottomup = false, direct = false;
  std::uint64_t* nw = next_.words();
  // Top-down claims far from their state (|q - r| >= far) come back through the outbox;
  // bottom-up, far parents are tested last, only for the states no near one found.
  const std::uint64_t far = options_.disk.far_claim_distance ? options_.disk.far_claim_distance : kFarClaimDistance;
  if (!single) {
    // Its visited bits: known since its last pass, else counted (a resumed run).
    std::uint64_t seen = static_cast<std::uint64_t>(vis_count_[i]) + applied;
    if (vis_count_[i] < 0 || kCheckCounts) {
      const std::uint64_t counted = tbb::parallel_reduce(
          tbb::blocked_range<std::uint64_t>(0, W, std::uint64_t{1} << 16), std::uint64_t{0},
          [&](const auto& r, std::uint64_t c) {
            for (std::uint64_t w = r.begin(); w != r.end(); ++w) c += static_cast<std::uint64_t>(std::popcount(vw[w]));
            return c;
          },
          std::plus<>());
      if (vis_count_[i] >= 0 && counted != seen)
        throw std::logic_error("disk BFS: segment " + std::to_string(i) + " holds " + std::to_string(counted) +
                               " visited ranks, not the " + std::to_string(seen) + " counted");
      seen = counted;
    }
    vis_count_[i] = static_cast<std::int64_t>(seen);  // and the claims below
    double growth = 1;
    const std::vector<LevelStat>& levels = levels_->levels;
    if (levels.size() >= 2 && levels[levels.size() - 2].states > 0)
      growth = std::max(
          1.0, static_cast<double>(levels.back().states) / static_cast<double>(levels[levels.size() - 2].states));
    // choose_direction's rule, with the bottom-up step's extra cost here: the remote scan
    // of the whole frontier (about kRemoteScanCost of a top-down expansion per state).
    const double f = static_cast<double>(count), u = static_cast<double>(loc - seen);
    const double next = std::min(u, f * growth);
    bottomup = bfs::kBottomUpCost * (u - bfs::kFoundFraction * next) < (1 - kRemoteScanCost) * f;
    if (bottomup) {
      found = bfs::bottomup_step(rule_, options_, b, frontier_, visited_, next_, 0, W,
                                 [] { return [](std::uint64_t, std::uint64_t) {}; }, far);
      ++bottomup_segments_;
    } else {
      // Top-down. A sparse frontier claims into next directly (next cleared); a dense one
      // sets visited only, one random access per claim, and next is visited after the
      // claims minus this copy of it.
      direct = count * 64 < loc;
      if (direct)
        bfs::parallel_clear(next_);
      else
        std::copy(vw, vw + W, nw);
      ++topdown_segments_;
    }
    if (stop_requested(options_)) return;
    // Layer d + 1's neighbours from the segments before this one in this pass: claims now
    // (in next directly after a bottom-up step; top-down, through the final difference).
    for (std::uint64_t from : next_from_[i])
      found += apply(at(upd_name(d + 1, i, from)), bottomup || direct ? nw : nullptr, true);
    next_from_[i].clear(), next_bytes_[i] = 0, next_merged_[i] = 0;
  }
  // The frontier's neighbours in other segments, in rounds that fit the outbox: sized at
  // 1.5 times the last round's rate of remote neighbours per state; one that overflows
  // anyway is sent again in rounds sized by the rule's degree (which cannot overflow).
  auto sink_factory = [this] { return Outbox::Sink(*outbox_); };
  const auto degree = static_cast<double>(std::max(rule_.max_degree(), 1));
  double rate = degree;  // remote neighbours per frontier state expected in the next round
  auto round_end = [&](std::uint64_t lo, double per_state) {
    const auto cap =
        std::max<std::uint64_t>(static_cast<std::uint64_t>(static_cast<double>(outbox_->slots()) / per_state), 1);
    if (lo == 0 && count <= cap) return std::pair{W, count};  // one round: no scan of the frontier
    std::uint64_t hi = lo, states = 0;
    while (hi < W && states + static_cast<std::uint64_t>(std::popcount(fw[hi])) <= cap)
      states += static_cast<std::uint64_t>(std::popcount(fw[hi++]));
    if (hi == lo) throw std::logic_error("disk BFS: an outbox smaller than one frontier word's neighbours");
    return std::pair{hi, states};
  };
  // Claims the round's home ranks (the far claims of this segment's top-down step),
  // bucketed by their high bits into stretches of about `far` / 2 ranks or more (at most
  // 4096 buckets: 2^23 ranks, 1 MiB of bits, in a segment of 24.9 G; the caches hold one):
  // buckets of whole words in parallel, plain read-modify-writes (no other writer now),
  // prefetched ahead.
  auto claim_home = [&] {
    const Outbox::Buckets h = outbox_->home_buckets(std::bit_width(far) - 2);
    const std::uint64_t buckets = h.at.size() - 1;
    far_claims_ += h.at.back();
    found += tbb::parallel_reduce(
        tbb::blocked_range<std::uint64_t>(0, buckets, 1), std::uint64_t{0},
        [&](const auto& r, std::uint64_t got) {
          constexpr std::uint64_t kAhead = 16;
          for (std::uint64_t k = r.begin(); k != r.end(); ++k) {
            const std::uint64_t *p = h.ranks + h.at[k], *e = h.ranks + h.at[k + 1];
            for (const std::uint64_t* q = p; q < e && q < p + kAhead; ++q) bfs::prefetch_write(vw + ((*q - b) >> 6));
            for (; p < e; ++p) {
              if (e - p > static_cast<std::ptrdiff_t>(kAhead)) bfs::prefetch_write(vw + ((p[kAhead] - b) >> 6));
              const std::uint64_t l = *p - b, w = l >> 6, m = std::uint64_t{1} << (l & 63);
              const std::uint64_t fresh = m & ~vw[w];
              vw[w] |= fresh;
              if (direct) nw[w] |= fresh;
              got += fresh >> (l & 63);
            }
          }
          return got;
        },
        std::plus<>());
  };
  auto send_round = [&] {  // the round's ranks, sorted (so by target) and distinct: a frame per target
    const auto [first, last] = outbox_->sorted();
    for (const std::uint64_t* p = first; p != last;) {
      const std::uint64_t j = *p / plan_.segment_ranks;
      const std::uint64_t* end = std::lower_bound(p, last, base(j + 1));
      send_updates(i, d, j, p, end, files[j]);
      p = end;
    }
  };
  // The frontier words [lo, hi): bottom-up, their neighbours in other segments only;
  // top-down, their claims too (far ones through the outbox). A round sent again after an
  // overflow repeats the claims already made: they are no longer new, so not counted twice.
  auto expand_round = [&](std::uint64_t lo, std::uint64_t hi, std::uint64_t far_from) {
    if (bottomup)
      bfs::remote_neighbours(rule_, options_, b, frontier_, lo, hi, sink_factory, fixed_cells_);
    else if (direct)
      found += bfs::topdown_step(rule_, options_, b, frontier_, visited_, next_, lo, hi, sink_factory, far_from);
    else  // claims set visited only: next is what they added (below), one random access per state
      found += bfs::topdown_step<true>(rule_, options_, b, frontier_, visited_, next_, lo, hi, sink_factory, far_from);
  };
  for (std::uint64_t lo = 0; lo < W && !single;) {
    const auto [hi, states] = round_end(lo, rate);
    outbox_->start(b, b + loc);
    expand_round(lo, hi, far);
    if (stop_requested(options_)) return;
    if (!outbox_->overflowed()) {
      rate = std::min(
          degree,
          1.5 * static_cast<double>(outbox_->used()) / static_cast<double>(std::max<std::uint64_t>(states, 1)) + 0.01);
      send_round();
      claim_home();
    } else {
      ++resent_;
      for (std::uint64_t sub = lo; sub < hi;) {
        const std::uint64_t sub_hi = std::min(hi, round_end(sub, degree).first);
        outbox_->start();
        expand_round(sub, sub_hi, 0);  // no far claims: at most the degree's remote ranks per state
        if (stop_requested(options_)) return;
        send_round();
        sub = sub_hi;
      }
      rate = degree;
    }
    lo = hi;
  }
  if (!single && !bottomup && !direct)
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, W, std::uint64_t{1} << 16), [&](const auto& r) {
      for (std::uint64_t w = r.begin(); w != r.end(); ++w) nw[w] = vw[w] & ~nw[w];
    });
  for (auto& f : files)
    if (f) f->close();
  claimed_next += found;
  if (!single) vis_count_[i] += static_cast<std::int64_t>(found);
  auto finish = [&](OutFile& out) {
    out.close();
    written_ += out.written();
    note_disk(static_cast<std::int64_t>(out.written()));
    return out.written();
  };
  std::uint64_t front_bytes = 0;
  if (found) {
    // The claims of layer d + 1 in this segment, as one frame: a bitmap straight from
    // next's words when the layer holds more than a rank in 64 (a varint costs a byte or
    // more), else varints streamed from them.
    OutFile out(at(front_name(d + 1, i)), false, budget_);
    if (found * 64 >= loc) {
      const std::uint64_t payload = next_.num_words() * 8;
      const std::uint8_t tag = bfs::kOffsetsBitmap;
      out.write(&tag, 1), out.write(&payload, 8), out.write(nw, payload);
    } else {
      write_bits_frame(out, nw, next_.num_words(), loc);
    }
    front_bytes = finish(out);
    front_next_bytes_ += front_bytes;
    has_front_next_[i] = 1;
  }
  // What this pass newly set in the visited bits: layer d's late claims and layer d + 1's.
  // Few (their delta file and the segment's earlier ones within delta_fraction of the
  // bits): a delta file visd-i-d on top of the visited file, which stays; else the bits
  // whole, to a new visited file that replaces the file and its deltas. None: nothing.
  if (!found && late_.empty() && !late_overflow_) return;
  const std::uint64_t bits_bytes = visited_.num_words() * 8;
  const std::uint64_t estimate = delta_bytes_[i] + front_bytes + 10 * late_.size() + 18;
  if (!late_overflow_ && static_cast<double>(estimate) <= options_.disk.delta_fraction * static_cast<double>(bits_bytes)) {
    OutFile out(at(visd_name(i, d)), false, budget_);
    std::sort(late_.begin(), late_.end());
    frames_.write(out, loc, late_.data(), late_.data() + late_.size());
    if (found) read_ += append_file(out, at(front_name(d + 1, i)));  // the claims' frame, as just written
    delta_bytes_[i] += finish(out);
    deltas_[i].push_back(d);
    return;
  }
  {
    OutFile out(at(vis_name(i, d)), false, budget_);
    out.write(visited_.words(), bits_bytes);
    finish(out);
  }
  // The files it replaces go now unless the committed state names them (its visited
  // file, and the deltas of the committed passes on top of it).
  if (cur_vis_[i] >= 0 && cur_vis_[i] != m_.vis[i]) remove_file(at(vis_name(i, cur_vis_[i])));
  for (std::int64_t q : deltas_[i])
    if (q >= m_.pass) remove_file(at(visd_name(i, q)));
  deltas_[i].clear();
  delta_bytes_[i] = 0;
  cur_vis_[i] = d;
}

// Segment i's neighbours in segment j, ranks [first, last) sorted and distinct, for the
// next generation (upd-<d+1>-<j>-*): a frame appended to i's file `file`, unless that would
// take the generation's files for j past update_cap(j), the bytes of one bitmap frame of j.
// Then they are all merged into one such bitmap (upd-<d+1>-<j>-<merged()>), and every later
// frame for j in this generation is ORed into it in place. So the update files of a
// generation hold at most a bitmap of the space, whatever the rounds and sources
// (plan_disk's bound). A merge holds the files being merged and the new bitmap at once.
template <class R>
void DiskSearch<R>::send_updates(std::uint64_t i, int d, std::uint64_t j, const std::uint64_t* first,
                                 const std::uint64_t* last, std::unique_ptr<OutFile>& file) {
  const std::uint64_t bj = base(j), loc = local(j);
  auto patch = [&](BitmapFile& bits) {
    for (const std::uint64_t* p = first; p != last; ++p) bits.set(*p - bj);
  };
  const fs::path merged_path = at(upd_name(d + 1, j, merged()));
  if (next_merged_[j]) {
    BitmapFile bits(merged_path, bfs::offset_words(loc), false, budget_);
    patch(bits);
    bits.close();
    read_ += bits.bytes_read(), written_ += bits.bytes_written();
    return;
  }
  if (next_bytes_[j] + frame_bytes(loc, first, last, bj) <= update_cap(j)) {
    if (!file) {
      file = std::make_unique<OutFile>(at(upd_name(d + 1, j, i)), false, budget_);
      next_from_[j].push_back(i);
    }
    const std::uint64_t before = file->written();
    frames_.write(*file, loc, first, last, bj);
    const std::uint64_t added = file->written() - before;
    written_ += added, next_bytes_[j] += added;
    note_disk(static_cast<std::int64_t>(added));
    return;
  }
  if (file) file->close(), file.reset();  // its frames so far are merged below
  BitmapFile bits(merged_path, bfs::offset_words(loc), true, budget_);
  note_disk(static_cast<std::int64_t>(update_cap(j)));
  for (std::uint64_t from : next_from_[j]) {
    const fs::path path = at(upd_name(d + 1, j, from));
    InFile in(path);
    for_each_frame(in, loc, [&](std::uint64_t w, std::uint64_t m) { bits.or_word(w, m); },
                   [&](std::uint64_t l) { bits.set(l); });
    read_ += in.bytes_read();
    remove_file(path);
  }
  patch(bits);
  bits.close();
  read_ += bits.bytes_read(), written_ += bits.bytes_written();
  next_from_[j] = {merged()};
  next_bytes_[j] = update_cap(j);
  next_merged_[j] = 1;
  ++merges_;
}

template <class R>
BfsResult DiskSearch<R>::run() {
  if (options_.want_depths)
    throw InputError(
        "the disk variant keeps no depth table (needed by the graph phase, --verify and a start's "
        "distance): use --no-graph, or an in-memory variant");
  bfs::check_batchable(rule_);
  if (options_.disk.resume)
    resume();
  else
    start_fresh();
  outbox_ = std::make_unique<Outbox>(plan_.outbox_bytes, n_);
  for (int c = 1, cells = rule_.cells(); c + 1 < cells && !fixed_cells_; ++c)
    if (plan_.segment_ranks % kFactorial[static_cast<std::size_t>(cells - c)] == 0) fixed_cells_ = c;
  cur_vis_ = m_.vis;
  deltas_.assign(plan_.segments, {});
  vis_count_.assign(plan_.segments, options_.disk.resume ? -1 : 0);  // fresh: all clear
  delta_bytes_.assign(plan_.segments, 0);
  front_states_ = m_.front_states;
  last_seconds_ = m_.last_seconds, last_read_ = m_.last_read, last_written_ = m_.last_written;
  last_direction_ = m_.last_direction;
  last_commit_ = std::chrono::steady_clock::now();
  BfsResult result;
  result.disk_io = true;
  levels_ = &result;
  LevelRecorder recorder(options_, result);
  if (!m_.levels.empty()) recorder.resume(m_.levels, m_.seconds);
  const auto search_start = std::chrono::steady_clock::now();
  const double seconds_before = m_.seconds;
  auto elapsed = [&] {
    return seconds_before + std::chrono::duration<double>(std::chrono::steady_clock::now() - search_start).count();
  };
  if (!m_.done) {
    // The files of the generation to read: listed from the folder (stale ones are gone).
    inbound_.assign(plan_.segments, {});
    has_front_.assign(plan_.segments, 0);
    std::error_code ec;
    disk_now_ = 0;
    for (const auto& e : fs::directory_iterator(dir_, ec)) {
      const OurFile f = parse_name(e.path().filename().string());
      if (f.kind == 2 && f.a == static_cast<unsigned long long>(m_.pass) && f.b < plan_.segments) has_front_[f.b] = 1;
      if (f.kind == 3 && f.a == static_cast<unsigned long long>(m_.pass) && f.b < plan_.segments)
        inbound_[f.b].push_back(f.c);
      if (f.kind == 5 && f.a < plan_.segments) {  // stale ones are gone: the rest are on top of cur_vis_
        deltas_[f.a].push_back(static_cast<std::int64_t>(f.b));
        delta_bytes_[f.a] += e.file_size(ec);
      }
      if (f.kind) disk_now_ += e.file_size(ec);
    }
    for (auto& q : deltas_) std::sort(q.begin(), q.end());
    disk_peak_ = std::max(disk_peak_, disk_now_);
    int pass = m_.pass;  // the pass running (m_.pass: the next one after the last commit)
    for (;;) {
      const int d = pass;
      const auto pass_start = std::chrono::steady_clock::now();
      read_ = written_ = 0;
      applied_ = 0, expanded_ = 0;
      layer_ranks_.clear();
      pass_direction_ = Direction::kTopDown;
      topdown_segments_ = bottomup_segments_ = 0;
      next_from_.assign(plan_.segments, {});
      next_bytes_.assign(plan_.segments, 0);
      next_merged_.assign(plan_.segments, 0);
      front_next_bytes_ = 0;
      has_front_next_.assign(plan_.segments, 0);
      std::uint64_t claimed_next = 0;
      if (options_.progress) {
        std::uint64_t words = 0;
        for (std::uint64_t i = 0; i < plan_.segments; ++i)
          if (has_front_[i] || !inbound_[i].empty()) words += bfs::offset_words(local(i));
        options_.progress->start_level(d + 1, words);
      }
      for (std::uint64_t i = 0; i < plan_.segments; ++i) {
        throw_if_stopped(options_, d - 1);
        if (!has_front_[i] && inbound_[i].empty()) continue;  // not loaded: its next_from_ files wait
        if (kill_hook(d, expanded_)) std::raise(SIGKILL);
        expand(i, d, claimed_next);
        ++expanded_;
        throw_if_stopped(options_, d - 1);
      }
      // Layer d is complete: its front-file ranks and the updates claimed in this pass.
      const std::uint64_t layer = front_states_ + applied_;
      const double pass_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - pass_start).count();
      if (layer > 0) {
        recorder.record(layer, last_direction_, d == 0 ? 0.0 : last_seconds_, d == 0 ? 0 : last_read_,
                        d == 0 ? 0 : last_written_);
      }
      front_states_ = claimed_next;
      last_seconds_ = pass_seconds;
      if (plan_.segments > 1)
        pass_direction_ = bottomup_segments_ > topdown_segments_ ? Direction::kBottomUp : Direction::kTopDown;
      last_direction_ = pass_direction_;
      last_read_ = read_;
      last_written_ = written_;
      const bool updates_next =
          std::any_of(next_from_.begin(), next_from_.end(), [](const auto& from) { return !from.empty(); });
      const bool more = claimed_next > 0 || updates_next;
      const double since_commit =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - last_commit_).count();
      // A pass whose new front and update files pass kUncommittedFraction of a bitmap of the
      // space is committed whatever the time: an uncommitted generation is small, so the
      // folder never holds three large ones (plan_disk's bound). One segment needs no such
      // commit: nothing crosses, and its one front file is read and removed before the pass
      // writes (a sync per pass cost sliding 3x4 a third of its time).
      std::uint64_t generation = front_next_bytes_;
      for (std::uint64_t b : next_bytes_) generation += b;
      const bool large = plan_.segments > 1 && static_cast<double>(generation) >
                                                   kUncommittedFraction * static_cast<double>(disk_bitmap_bytes(plan_));
      if (!more || large || since_commit >= options_.disk.commit_seconds) {
        // Commit pass d: the new visited files, the levels, the claims of layer d + 1.
        m_.vis = cur_vis_;
        m_.levels = result.levels;
        m_.pass = d + 1;
        m_.front_states = front_states_;
        m_.last_seconds = last_seconds_;
        m_.last_direction = last_direction_;
        m_.last_read = last_read_;
        m_.last_written = last_written_;
        m_.seconds = elapsed();
        m_.done = !more;
        sync_folder_fs(dir_);  // every file the manifest names is on disk before it is
        save_manifest(dir_, m_);
        last_commit_ = std::chrono::steady_clock::now();
        remove_stale();  // every file the new manifest does not name
      }                  // not committed: expand() removed what this pass read as it read it (unless committed)
      if (layer > 0) result.last_layer.swap(layer_ranks_);  // the deepest layer so far
      if (!more) break;
      if (layer == 0 && d > 0) throw std::logic_error("disk BFS: an empty layer before the end");
      ++pass;
      inbound_.swap(next_from_);
      has_front_.swap(has_front_next_);
    }
  }
  recorder.record(0, Direction::kTopDown, 0, 0, 0);
  result.seconds = m_.seconds;
  result.peak_bytes = plan_.memory_bytes;
  result.disk_peak_bytes = disk_peak_;
  result.disk_rounds_resent = resent_;
  result.disk_far_claims = far_claims_;
  result.disk_update_merges = merges_;
  // Success: the data files go; the manifest too unless the caller removes it after
  // writing its results (analyze: a kill before that still resumes to the answer).
  remove_stale();  // done: nothing is kept
  if (!options_.disk.keep_done_manifest) {
    std::error_code ec;
    fs::remove(dir_ / kDiskManifest, ec);
  }
  return result;
}

}  // namespace

namespace bfs {

BfsResult run_disk(const AnyRule& rule, const BfsOptions& options) {
  const DiskPlan plan = plan_disk(rule, options.disk);
  check_disk_folder(plan, options.disk);
  return std::visit(
      [&](const auto& r) {
        DiskSearch search(r, options, plan);
        return search.run();
      },
      rule);
}

std::uint64_t bytes_disk(const AnyRule& rule, const BfsOptions& options) {
  return plan_disk(rule, options.disk).memory_bytes;
}

}  // namespace bfs
}  // namespace stategraph
