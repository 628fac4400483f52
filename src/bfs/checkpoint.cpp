// BFS checkpoints: identity, atomic save, and the checked load (see checkpoint.hpp).
#include "stategraph/bfs/checkpoint.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "stategraph/io/files.hpp"

namespace stategraph {
namespace {

constexpr std::size_t kMaxBuffers = 8;
constexpr std::size_t kLevelBytes = 24;

// The checkpoint's header: the common part (files.hpp), then its fields.
struct Header {
  std::uint8_t common[kCommonHeaderBytes];
  char rule[16];
  std::uint32_t rows;
  std::uint32_t cols;
  std::uint64_t space;
  char variant[16];
  std::uint32_t flags;
  std::uint32_t levels;
  std::uint64_t sources_hash;
  double seconds;
  std::uint64_t buffers;
  std::uint64_t buffer_bytes[kMaxBuffers];
  std::uint8_t reserved[80];
};
static_assert(sizeof(Header) == 256);

// Version 2: the common header and XXH3 (version 1 had its own layout and checksum).
constexpr BinaryFormat kFormat{
    {'S', 'G', 'C', 'H', 'K', 'P', 'T', '\0'}, 2, sizeof(Header), "checkpoint", "start the run again without --resume"};

constexpr std::uint32_t kFlagDepths = 1, kFlagForward = 2;

void put_name(char (&field)[16], const std::string& s) {
  std::memset(field, 0, sizeof field);
  std::memcpy(field, s.data(), std::min<std::size_t>(s.size(), sizeof field - 1));
}

std::string get_name(const char (&field)[16]) { return std::string(field, strnlen(field, sizeof field)); }

void encode_levels(const std::vector<LevelStat>& levels, std::vector<std::uint8_t>& out) {
  out.resize(levels.size() * kLevelBytes);
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const auto depth = static_cast<std::uint32_t>(levels[i].depth);
    const auto dir = static_cast<std::uint32_t>(levels[i].direction);
    std::uint8_t* p = out.data() + i * kLevelBytes;
    std::memcpy(p, &depth, 4);
    std::memcpy(p + 4, &dir, 4);
    std::memcpy(p + 8, &levels[i].states, 8);
    std::memcpy(p + 16, &levels[i].seconds, 8);
  }
}

}  // namespace

CheckpointIdentity CheckpointIdentity::of(const AnyRule& rule, std::string_view variant, const BfsOptions& options) {
  CheckpointIdentity id;
  id.rule = std::string(rule_name(rule));
  id.rows = rule_grid(rule).rows;
  id.cols = rule_grid(rule).cols;
  id.space = rule_size(rule);
  id.variant = std::string(variant);
  id.want_depths = options.want_depths;
  id.forward = options.forward;
  std::vector<std::uint64_t> ranks = std::visit(
      [&](const auto& r) {
        std::vector<std::uint64_t> out;
        for (State s : bfs_sources(r, options)) out.push_back(r.rank(s));
        return out;
      },
      rule);
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  id.sources_hash = hash_bytes(ranks.data(), ranks.size() * sizeof(std::uint64_t));
  return id;
}

std::string CheckpointIdentity::mismatch(const CheckpointIdentity& o) const {
  auto grid = [](const CheckpointIdentity& i) {
    return i.rule + " " + std::to_string(i.rows) + "x" + std::to_string(i.cols);
  };
  if (rule != o.rule || rows != o.rows || cols != o.cols) return "it is of " + grid(*this) + ", this run is " + grid(o);
  if (space != o.space) return "it has " + std::to_string(space) + " ranks, this run " + std::to_string(o.space);
  if (variant != o.variant)
    return "it was written by variant " + variant + ", this run uses " + o.variant + " (pass --variant " + variant +
           ")";
  if (want_depths != o.want_depths)
    return std::string("it ") + (want_depths ? "keeps" : "does not keep") + " a depth table, this run " +
           (o.want_depths ? "needs one" : "does not") + " (same --verify / --no-graph as the first run)";
  if (forward != o.forward) return "it searched in the other direction";
  if (sources_hash != o.sources_hash) return "it started from another start set (another --start)";
  return {};
}

bool variant_supports_checkpoints(std::string_view variant) {
  const VariantInfo* v = lookup_variant(variant);
  return v && v->checkpoints;
}

Checkpointer::Checkpointer(std::filesystem::path dir, CheckpointIdentity identity, double interval_seconds)
    : dir_(std::move(dir)),
      file_(dir_ / kCheckpointFile),
      identity_(std::move(identity)),
      interval_(interval_seconds),
      last_(std::chrono::steady_clock::now()) {}

bool Checkpointer::due() const {
  return interval_ <= 0 || std::chrono::duration<double>(std::chrono::steady_clock::now() - last_).count() >= interval_;
}

void Checkpointer::save(const std::vector<LevelStat>& levels, double seconds,
                        const std::vector<CheckpointBuffer>& buffers) {
  if (buffers.size() > kMaxBuffers || levels.empty()) throw std::logic_error("checkpoint: bad buffer list");
  std::vector<std::uint8_t> level_bytes;
  encode_levels(levels, level_bytes);
  Header h{};
  put_name(h.rule, identity_.rule);
  h.rows = static_cast<std::uint32_t>(identity_.rows);
  h.cols = static_cast<std::uint32_t>(identity_.cols);
  h.space = identity_.space;
  put_name(h.variant, identity_.variant);
  h.flags = (identity_.want_depths ? kFlagDepths : 0) | (identity_.forward ? kFlagForward : 0);
  h.levels = static_cast<std::uint32_t>(levels.size());
  h.sources_hash = identity_.sources_hash;
  h.seconds = seconds;
  h.buffers = buffers.size();
  std::vector<ByteSpan> data{{level_bytes.data(), level_bytes.size()}};
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    h.buffer_bytes[i] = buffers[i].bytes;
    data.push_back({buffers[i].data, buffers[i].bytes});
  }
  write_binary_file(file_, kFormat, &h, data);
  ++saves_;
  last_ = std::chrono::steady_clock::now();
  if (after_save) after_save(levels.back().depth);
}

LoadedCheckpoint parse_checkpoint(const void* data, std::uint64_t bytes, const std::string& name, bool check_checksum) {
  const std::string where = "checkpoint " + name + ": ";
  const BinaryView view = parse_binary(data, bytes, kFormat, name);
  Header h;
  std::memcpy(&h, view.header, sizeof h);
  if (h.buffers > kMaxBuffers || h.levels == 0 || h.levels > kMaxDepth + 1 || h.rows < 2 || h.cols < 2 ||
      h.rows > kMaxCells || h.cols > kMaxCells || h.rows * h.cols > kMaxCells || h.space == 0 ||
      !std::isfinite(h.seconds) || h.seconds < 0 || (h.flags & ~(kFlagDepths | kFlagForward)))
    throw InputError(where + "inconsistent header");
  std::uint64_t expect = static_cast<std::uint64_t>(h.levels) * kLevelBytes;
  for (std::uint64_t i = 0; i < h.buffers; ++i) {
    if (h.buffer_bytes[i] > (std::uint64_t{1} << 46)) throw InputError(where + "inconsistent header (buffer size)");
    expect += h.buffer_bytes[i];
  }
  if (expect != view.data_bytes) throw InputError(where + "inconsistent header (data bytes)");
  if (check_checksum && !view.checksum_ok(kFormat))
    throw InputError(where + "checksum mismatch (the file is corrupted)");
  const std::uint8_t* levels_at = view.data;

  LoadedCheckpoint c;
  c.file = name;
  c.identity.rule = get_name(h.rule);
  c.identity.rows = static_cast<int>(h.rows);
  c.identity.cols = static_cast<int>(h.cols);
  c.identity.space = h.space;
  c.identity.variant = get_name(h.variant);
  c.identity.want_depths = h.flags & kFlagDepths;
  c.identity.forward = h.flags & kFlagForward;
  c.identity.sources_hash = h.sources_hash;
  c.seconds = h.seconds;
  std::uint64_t total = 0;
  for (std::uint32_t i = 0; i < h.levels; ++i) {
    const std::uint8_t* q = levels_at + i * kLevelBytes;
    std::uint32_t depth, dir;
    LevelStat l;
    std::memcpy(&depth, q, 4);
    std::memcpy(&dir, q + 4, 4);
    std::memcpy(&l.states, q + 8, 8);
    std::memcpy(&l.seconds, q + 16, 8);
    if (depth != i || dir > static_cast<std::uint32_t>(Direction::kScan) || l.states == 0 || l.states > h.space ||
        total > h.space - l.states || !std::isfinite(l.seconds) || l.seconds < 0)
      throw InputError(where + "inconsistent level " + std::to_string(i));
    total += l.states;
    l.depth = static_cast<int>(depth);
    l.direction = static_cast<Direction>(dir);
    c.levels.push_back(l);
  }
  std::uint64_t off = static_cast<std::uint64_t>(h.levels) * kLevelBytes;
  for (std::uint64_t i = 0; i < h.buffers; ++i) {
    c.buffers.push_back({view.data + off, h.buffer_bytes[i]});
    off += h.buffer_bytes[i];
  }
  return c;
}

LoadedCheckpoint load_checkpoint(const std::filesystem::path& path) {
  std::error_code ec;
  const std::filesystem::path file = std::filesystem::is_directory(path, ec) ? path / kCheckpointFile : path;
  const MappedFile m = MappedFile::open(file, "checkpoint");
  LoadedCheckpoint c = parse_checkpoint(m.data(), m.size(), file.string());
  c.mapping = m.owner();
  return c;
}

std::uint64_t LoadedCheckpoint::reached() const {
  std::uint64_t total = 0;
  for (const auto& l : levels) total += l.states;
  return total;
}

void LoadedCheckpoint::check_layout(const std::vector<std::uint64_t>& buffer_bytes) const {
  bool ok = buffer_bytes.size() == buffers.size();
  for (std::size_t i = 0; ok && i < buffers.size(); ++i) ok = buffers[i].bytes == buffer_bytes[i];
  if (!ok)
    throw InputError("checkpoint " + file.string() + ": its buffers do not match variant " + identity.variant +
                     "'s layout for this space");
}

}  // namespace stategraph
