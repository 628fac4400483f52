// Depth tables: encodings, building from the parallel BFS, and table files (written
// atomically, read through mmap, checked against the rule and a checksum).
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <bit>
#include <cstring>
#include <stdexcept>

#include "stategraph/bfs/bfs.hpp"
#include "stategraph/bfs/memory.hpp"
#include "stategraph/io/files.hpp"
#include "stategraph/solve/solve.hpp"

namespace stategraph {

AnyRule make_solve_rule(std::string_view name, int rows, int cols, const RuleOptions& options) {
  RuleOptions o = options;
  o.any_start = true;
  return make_rule(name, rows, cols, o);
}

std::string_view encoding_name(DepthEncoding e) {
  switch (e) {
    case DepthEncoding::kByte:
      return "byte";
    case DepthEncoding::kNibble:
      return "nibble";
    case DepthEncoding::kMod3:
      return "mod3";
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
    case DepthEncoding::kByte:
      return n;
    case DepthEncoding::kNibble:
      return (n + 1) / 2;
    default:
      return (n + 3) / 4;
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
        if (d == kUnreached)
          code = unreached_;
        else
          code = modulus_ == 0 ? d : d % modulus_;
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

// The table file's header: the common part (files.hpp), then its fields.
struct Header {
  std::uint8_t common[kCommonHeaderBytes];
  std::uint32_t encoding;
  std::uint32_t rows;
  std::uint32_t cols;
  std::uint32_t zero;
  char rule[16];
  std::uint64_t size;
  std::uint64_t sections;
  std::uint8_t reserved[48];
};
static_assert(sizeof(Header) == 128);

// Version 2: the common header and XXH3 (version 1 had its own layout and checksum).
constexpr BinaryFormat kFormat{{'S', 'G', 'D', 'E', 'P', 'T', 'H', '\0'},
                               2,
                               sizeof(Header),
                               "table",
                               "build it again with 'stategraph table build'"};

// Checks the header fields that do not depend on a rule.
TableFileInfo check_header(const BinaryView& view, const std::filesystem::path& path) {
  const std::string where = "table " + path.string() + ": ";
  Header h;
  std::memcpy(&h, view.header, sizeof h);
  if (h.encoding < 1 || h.encoding > 3) throw InputError(where + "unknown encoding " + std::to_string(h.encoding));
  TableFileInfo info;
  info.rule.assign(h.rule, strnlen(h.rule, sizeof h.rule));
  info.rows = static_cast<int>(h.rows);
  info.cols = static_cast<int>(h.cols);
  info.encoding = static_cast<DepthEncoding>(h.encoding);
  info.size = h.size;
  info.sections = h.sections;
  info.data_bytes = view.data_bytes;
  if (h.sections == 0 || h.size == 0 || h.size > (std::uint64_t{1} << 50) || h.sections > 65536 ||
      depth_table_bytes(info.encoding, h.size, h.sections) != view.data_bytes)
    throw InputError(where + "inconsistent header (size, sections and data bytes disagree)");
  return info;
}

}  // namespace

void save_depth_table(const std::filesystem::path& path, const AnyRule& rule, const DepthTable& table) {
  Header h{};
  h.encoding = static_cast<std::uint32_t>(table.encoding());
  const std::string name = rule_table_id(rule);
  std::memcpy(h.rule, name.data(), std::min<std::size_t>(name.size(), sizeof h.rule - 1));
  h.rows = static_cast<std::uint32_t>(rule_grid(rule).rows);
  h.cols = static_cast<std::uint32_t>(rule_grid(rule).cols);
  h.size = table.size();
  h.sections = table.sections();
  const ByteSpan data[] = {{table.data(), table.data_bytes()}};
  write_binary_file(path, kFormat, &h, data);
}

TableFileInfo read_table_info(const std::filesystem::path& path) {
  const MappedFile m = MappedFile::open(path, "table");
  return check_header(parse_binary(m.data(), m.size(), kFormat, path.string()), path);
}

DepthTable load_depth_table(const std::filesystem::path& path, const AnyRule& rule) {
  const MappedFile m = MappedFile::open(path, "table");
  const BinaryView view = parse_binary(m.data(), m.size(), kFormat, path.string());
  const TableFileInfo info = check_header(view, path);
  const std::string where = "table " + path.string() + ": ";
  const Grid g = rule_grid(rule);
  if (info.rule != rule_table_id(rule) || info.rows != g.rows || info.cols != g.cols)
    throw InputError(
        where + "built for " + info.rule + " " + std::to_string(info.rows) + "x" + std::to_string(info.cols) +
        ", not " + rule_table_id(rule) + " " + g.label() +
        (rule_table_id(rule) != rule_name(rule) ? " (a defined rule is identified by a hash of its moves)" : ""));
  if (info.size != rule_size(rule) || info.sections != table_sections(rule))
    throw InputError(where + "holds " + std::to_string(info.sections) + " x " + std::to_string(info.size) +
                     " entries, the rule needs " + std::to_string(table_sections(rule)) + " x " +
                     std::to_string(rule_size(rule)));
  if (const std::string problem = encoding_problem(rule, info.encoding); !problem.empty())
    throw InputError(where + problem);
  if (!view.checksum_ok(kFormat)) throw InputError(where + "checksum mismatch (the file is corrupted)");
  return DepthTable::mapped(info.encoding, info.size, info.sections, m.owner(), view.data);
}

}  // namespace stategraph
