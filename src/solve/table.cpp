// Depth tables: encodings, building from the parallel BFS, and table files (written
// atomically, read through mmap, checked against the rule and a checksum).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "stategraph/bfs/bfs.hpp"
#include "stategraph/core/checksum.hpp"
#include "stategraph/bfs/memory.hpp"
#include "stategraph/solve/solve.hpp"

namespace stategraph {

AnyRule make_solve_rule(std::string_view name, int rows, int cols, const RuleOptions& options) {
  RuleOptions o = options;
  o.any_start = true;
  return make_rule(name, rows, cols, o);
}

std::string_view encoding_name(DepthEncoding e) {
  switch (e) {
    case DepthEncoding::kByte: return "byte";
    case DepthEncoding::kNibble: return "nibble";
    case DepthEncoding::kMod3: return "mod3";
  }
  return "?";
}

DepthEncoding parse_encoding(std::string_view name) {
  if (name == "byte") return DepthEncoding::kByte;
  if (name == "nibble") return DepthEncoding::kNibble;
  if (name == "mod3") return DepthEncoding::kMod3;
  throw InputError("unknown table encoding '" + shown_input(name) + "' (known: auto, byte, nibble, mod3)");
}

// True when a directed rule bounds d(t) - d(s) for a move s -> t tightly enough for
// mod 15: with moves of order at most k, d(t) <= d(s) + k - 1 (the Rule concept) and
// d(t) >= d(s) - 1; mod 15 tells d(s) - 1 apart from d(s) .. d(s) + k - 1 when k <= 14.
static bool nibble_holds(const AnyRule& rule) {
  const int order = rule_max_move_order(rule);
  return order > 0 && order <= 14;
}

std::string encoding_problem(const AnyRule& rule, DepthEncoding e) {
  if (!rule_directed(rule) || e == DepthEncoding::kByte) return {};
  if (e == DepthEncoding::kNibble && nibble_holds(rule)) return {};
  return "encoding " + std::string(encoding_name(e)) + " cannot hold the depths of the directed rule " +
         std::string(rule_name(rule)) + " (use " + (nibble_holds(rule) ? "nibble or " : "") + "byte)";
}

DepthEncoding default_encoding(const AnyRule& rule) {
  if (rule_size(rule) <= (std::uint64_t{1} << 25)) return DepthEncoding::kByte;
  if (encoding_problem(rule, DepthEncoding::kMod3).empty()) return DepthEncoding::kMod3;
  return nibble_holds(rule) ? DepthEncoding::kNibble : DepthEncoding::kByte;
}

std::uint64_t table_sections(const AnyRule& rule) { return rule_sections(rule); }

std::uint64_t depth_table_bytes(DepthEncoding encoding, std::uint64_t size, std::uint64_t sections) {
  const std::uint64_t n = size * sections;
  switch (encoding) {
    case DepthEncoding::kByte: return n;
    case DepthEncoding::kNibble: return (n + 1) / 2;
    default: return (n + 3) / 4;
  }
}

void DepthTable::init(DepthEncoding encoding, std::uint64_t size, std::uint64_t sections) {
  encoding_ = encoding;
  size_ = size;
  sections_ = sections;
  bytes_ = depth_table_bytes(encoding, size, sections);
  modulus_ = encoding == DepthEncoding::kByte ? 0 : encoding == DepthEncoding::kNibble ? 15 : 3;
  unreached_ = encoding == DepthEncoding::kByte ? 0xFF : encoding == DepthEncoding::kNibble ? 15 : 3;
}

DepthTable::DepthTable(DepthEncoding encoding, std::uint64_t size, std::uint64_t sections) {
  init(encoding, size, sections);
  owned_.assign(bytes_, 0);
  data_ = owned_.data();
}

DepthTable DepthTable::mapped(DepthEncoding encoding, std::uint64_t size, std::uint64_t sections,
                              std::shared_ptr<const void> mapping, const std::uint8_t* data) {
  DepthTable t;
  t.init(encoding, size, sections);
  t.mapping_ = std::move(mapping);
  t.data_ = data;
  return t;
}

void DepthTable::fill_section(std::uint64_t section, const std::vector<std::uint8_t>& depth) {
  if (depth.size() != size_ || section >= sections_) throw std::logic_error("fill_section: shape mismatch");
  std::uint8_t* out = owned_.data();
  const std::uint64_t begin = section * size_, end = begin + size_;
  const unsigned bits = encoding_ == DepthEncoding::kByte ? 8 : encoding_ == DepthEncoding::kNibble ? 4 : 2;
  // Blocks of 64 entries aligned to global indices: no output byte is shared between
  // two blocks, so blocks run in parallel with read-modify-write of their bytes.
  const std::uint64_t first_block = begin / 64, last_block = (end + 63) / 64;
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(first_block, last_block, 256), [&](const auto& r) {
    for (std::uint64_t b = r.begin(); b != r.end(); ++b) {
      const std::uint64_t lo = std::max(begin, b * 64), hi = std::min(end, b * 64 + 64);
      for (std::uint64_t i = lo; i < hi; ++i) {
        const unsigned d = depth[i - begin];
        unsigned code;
        if (d == kUnreached) code = unreached_;
        else code = modulus_ == 0 ? d : d % modulus_;
        if (bits == 8) {
          out[i] = static_cast<std::uint8_t>(code);
        } else {
          const std::uint64_t byte = i * bits / 8;
          const unsigned shift = static_cast<unsigned>(i * bits % 8);
          const unsigned mask = ((1u << bits) - 1) << shift;
          out[byte] = static_cast<std::uint8_t>((out[byte] & ~mask) | (code << shift));
        }
      }
    }
  });
}

DepthTable build_depth_table(const AnyRule& rule, DepthEncoding encoding, std::string_view variant,
                             std::uint64_t memory_limit) {
  if (const std::string problem = encoding_problem(rule, encoding); !problem.empty()) throw InputError(problem);
  std::string limit_source = "--max-memory limit";
  if (memory_limit == 0) memory_limit = available_memory(), limit_source = "available memory (MemAvailable)";
  if (memory_limit == 0) memory_limit = ~std::uint64_t{0}, limit_source = "unknown memory";
  BfsOptions bo;
  bo.want_depths = true;
  const std::uint64_t size = rule_size(rule), sections = table_sections(rule);
  const std::uint64_t table_bytes = depth_table_bytes(encoding, size, sections);
  if (table_bytes > memory_limit)
    throw InputError("the depth table needs " + format_bytes(table_bytes) + ", more than the " +
                     format_bytes(memory_limit) + " of " + limit_source);
  const VariantInfo& v = choose_variant(variant, rule, bo, memory_limit - table_bytes, limit_source);
  DepthTable table(encoding, size, sections);
  // One BFS per section, from that section's goals.
  for (std::uint64_t k = 0; k < sections; ++k) {
    const BfsResult r = v.run(sections == 1 ? rule : rule_for_section(rule, k), bo);
    table.fill_section(k, r.depth);
  }
  return table;
}

// ---- Files ------------------------------------------------------------------------------

namespace {

constexpr char kMagic[8] = {'S', 'G', 'D', 'E', 'P', 'T', 'H', '\0'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 128;

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t encoding;
  char rule[16];
  std::uint32_t rows;
  std::uint32_t cols;
  std::uint64_t size;
  std::uint64_t sections;
  std::uint64_t data_bytes;
  std::uint64_t checksum;
  std::uint8_t reserved[56];
};
static_assert(sizeof(Header) == kHeaderBytes);

std::uint64_t checksum_of(Header h, const std::uint8_t* data, std::uint64_t bytes) {
  h.checksum = 0;
  Hasher hasher;
  hasher.update(reinterpret_cast<const std::uint8_t*>(&h), sizeof h);
  hasher.update(data, bytes);
  return hasher.digest();
}

std::string sys_error(const std::string& what, const std::filesystem::path& path) {
  return what + " " + path.string() + ": " + std::strerror(errno);
}

void write_all(int fd, const void* p, std::uint64_t n, const std::filesystem::path& path) {
  const auto* c = static_cast<const char*>(p);
  while (n > 0) {
    const ssize_t w = ::write(fd, c, std::min<std::uint64_t>(n, 1u << 30));
    if (w < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(sys_error("cannot write", path));
    }
    c += w;
    n -= static_cast<std::uint64_t>(w);
  }
}

Header header_for(const AnyRule& rule, const DepthTable& table) {
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kVersion;
  h.encoding = static_cast<std::uint32_t>(table.encoding());
  const std::string name = rule_table_id(rule);
  std::memcpy(h.rule, name.data(), std::min<std::size_t>(name.size(), sizeof h.rule - 1));
  h.rows = static_cast<std::uint32_t>(rule_grid(rule).rows);
  h.cols = static_cast<std::uint32_t>(rule_grid(rule).cols);
  h.size = table.size();
  h.sections = table.sections();
  h.data_bytes = table.data_bytes();
  h.checksum = checksum_of(h, table.data(), table.data_bytes());
  return h;
}

// Reads and checks the header fields that do not depend on a rule.
TableFileInfo check_header(const Header& h, std::uint64_t file_bytes, const std::filesystem::path& path) {
  const std::string where = "table " + path.string() + ": ";
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0)
    throw InputError(where + "not a stategraph depth table (bad magic)");
  if (h.version != kVersion)
    throw InputError(where + "version " + std::to_string(h.version) + ", this build reads version " +
                     std::to_string(kVersion));
  if (h.encoding < 1 || h.encoding > 3) throw InputError(where + "unknown encoding " + std::to_string(h.encoding));
  TableFileInfo info;
  info.rule.assign(h.rule, strnlen(h.rule, sizeof h.rule));
  info.rows = static_cast<int>(h.rows);
  info.cols = static_cast<int>(h.cols);
  info.encoding = static_cast<DepthEncoding>(h.encoding);
  info.size = h.size;
  info.sections = h.sections;
  info.data_bytes = h.data_bytes;
  if (h.sections == 0 || h.size == 0 || h.size > (std::uint64_t{1} << 50) || h.sections > 65536 ||
      depth_table_bytes(info.encoding, h.size, h.sections) != h.data_bytes)
    throw InputError(where + "inconsistent header (size, sections and data bytes disagree)");
  if (file_bytes != kHeaderBytes + h.data_bytes)
    throw InputError(where + "file has " + std::to_string(file_bytes) + " bytes, header says " +
                     std::to_string(kHeaderBytes + h.data_bytes) + " (truncated or padded)");
  return info;
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

void save_depth_table(const std::filesystem::path& path, const AnyRule& rule, const DepthTable& table) {
  const Header h = header_for(rule, table);
  const std::filesystem::path tmp = path.string() + ".tmp-" + std::to_string(::getpid());
  {
    Fd f;
    f.fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (f.fd < 0) throw std::runtime_error(sys_error("cannot create", tmp));
    try {
      write_all(f.fd, &h, sizeof h, tmp);
      write_all(f.fd, table.data(), table.data_bytes(), tmp);
      if (::fsync(f.fd) != 0) throw std::runtime_error(sys_error("cannot fsync", tmp));
    } catch (...) {
      ::unlink(tmp.c_str());
      throw;
    }
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string message = sys_error("cannot rename " + tmp.string() + " to", path);
    ::unlink(tmp.c_str());
    throw std::runtime_error(message);
  }
  // Make the rename durable too.
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  Fd d;
  d.fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d.fd >= 0) ::fsync(d.fd);
}

namespace {

struct Mapping {
  void* addr = MAP_FAILED;
  std::size_t bytes = 0;
  ~Mapping() {
    if (addr != MAP_FAILED) ::munmap(addr, bytes);
  }
};

std::shared_ptr<Mapping> map_file(const std::filesystem::path& path) {
  Fd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0) throw InputError(sys_error("cannot open table", path));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) throw InputError(sys_error("cannot stat table", path));
  const auto bytes = static_cast<std::uint64_t>(st.st_size);
  if (bytes < kHeaderBytes)
    throw InputError("table " + path.string() + ": " + std::to_string(bytes) +
                     " bytes, too short for a table header");
  auto m = std::make_shared<Mapping>();
  m->bytes = static_cast<std::size_t>(bytes);
  m->addr = ::mmap(nullptr, m->bytes, PROT_READ, MAP_PRIVATE, f.fd, 0);
  if (m->addr == MAP_FAILED) throw std::runtime_error(sys_error("cannot mmap", path));
  ::madvise(m->addr, m->bytes, MADV_WILLNEED);
  return m;
}

}  // namespace

TableFileInfo read_table_info(const std::filesystem::path& path) {
  const auto m = map_file(path);
  Header h;
  std::memcpy(&h, m->addr, sizeof h);
  return check_header(h, m->bytes, path);
}

DepthTable load_depth_table(const std::filesystem::path& path, const AnyRule& rule) {
  const auto m = map_file(path);
  Header h;
  std::memcpy(&h, m->addr, sizeof h);
  const TableFileInfo info = check_header(h, m->bytes, path);
  const std::string where = "table " + path.string() + ": ";
  const Grid g = rule_grid(rule);
  if (info.rule != rule_table_id(rule) || info.rows != g.rows || info.cols != g.cols)
    throw InputError(where + "built for " + info.rule + " " + std::to_string(info.rows) + "x" +
                     std::to_string(info.cols) + ", not " + rule_table_id(rule) + " " + g.label() +
                     (rule_table_id(rule) != rule_name(rule) ? " (a defined rule is identified by a hash of its moves)" : ""));
  if (info.size != rule_size(rule) || info.sections != table_sections(rule))
    throw InputError(where + "holds " + std::to_string(info.sections) + " x " + std::to_string(info.size) +
                     " entries, the rule needs " + std::to_string(table_sections(rule)) + " x " +
                     std::to_string(rule_size(rule)));
  if (const std::string problem = encoding_problem(rule, info.encoding); !problem.empty())
    throw InputError(where + problem);
  const auto* data = static_cast<const std::uint8_t*>(m->addr) + kHeaderBytes;
  if (checksum_of(h, data, info.data_bytes) != h.checksum)
    throw InputError(where + "checksum mismatch (the file is corrupted)");
  return DepthTable::mapped(info.encoding, info.size, info.sections, m, data);
}

}  // namespace stategraph
