// solve: answers "how few moves take this position to the goal, and which moves?" for
// every rule, from a depth table computed once per run (or memory-mapped from a file
// written by `stategraph table build`).
//
//  * DepthTable: one entry per rank (per section), in one of three encodings:
//      byte   - the exact depth, 255 = cannot reach the goal;
//      nibble - depth mod 15 in 4 bits, 15 = cannot reach the goal;
//      mod3   - depth mod 3 in 2 bits, 3 = cannot reach the goal.
//    With a modular encoding a successor one move closer is recognised from its code
//    alone, provided the rule bounds how much farther a successor can be: on an
//    undirected rule a neighbour differs by at most 1 (mod3 suffices); on a directed
//    rule whose moves have order k <= 14 (rotate: 4) a move is undone by k - 1 more, so
//    a successor is at most k - 1 farther (mod 15 suffices, mod 3 does not; see the
//    Rule concept). The true depth then follows by walking to the goal.
//  * Sections: a rule whose goal depends on the query (cardswap: A and B exchanged from
//    wherever they stand) has one section per goal set; the other rules have one.
//  * Paths walk down the table (first closer successor in move order), never a second
//    search. Counts of optimal move sequences are a DP over the optimal-path DAG,
//    layer by layer, in unsigned __int128 saturating at 2^128 - 1.
//  * Queries are read in each rule's judge format (see parse_queries).
// Limits: depths up to 254 (the BFS's limit); a table lives in memory or is mapped.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "stategraph/rules/rule.hpp"

namespace stategraph {

// Moves are named by the rules' own labels (for_each_move, see rules/rule.hpp).

// The rule `solve` and `table build` use: make_rule, except that a rule with table
// sections needs no --start at any size (its table covers every start).
AnyRule make_solve_rule(std::string_view name, int rows = 0, int cols = 0, const RuleOptions& options = {});

// False for a state outside the ranked space, which cannot reach the goal (sliding's
// other parity class); true for every other state.
bool in_goal_class(const AnyRule& rule, State s);

// ---- Depth tables ------------------------------------------------------------------

enum class DepthEncoding : std::uint32_t { kByte = 1, kNibble = 2, kMod3 = 3 };

std::string_view encoding_name(DepthEncoding e);
// "byte", "nibble", "mod3"; InputError otherwise.
DepthEncoding parse_encoding(std::string_view name);
// Empty when e can hold the rule's depths, else why not (mod3 on a directed rule).
std::string encoding_problem(const AnyRule& rule, DepthEncoding e);
// byte up to 2^25 ranks per section, else mod3 (undirected) or nibble (moves of order <= 14).
DepthEncoding default_encoding(const AnyRule& rule);

// Sections of a rule's table (rule_sections); a state's depth is read from section_of(rule, s).
std::uint64_t table_sections(const AnyRule& rule);

class DepthTable {
 public:
  DepthTable() = default;
  // Owned storage; every entry starts as code 0 (fill every section before use).
  DepthTable(DepthEncoding encoding, std::uint64_t size, std::uint64_t sections);

  DepthEncoding encoding() const { return encoding_; }
  std::uint64_t size() const { return size_; }  // ranks per section
  std::uint64_t sections() const { return sections_; }
  // 0 for byte (exact depths), else the modulus (15 or 3).
  unsigned modulus() const { return modulus_; }
  unsigned unreached() const { return unreached_; }
  const std::uint8_t* data() const { return data_; }
  std::uint64_t data_bytes() const { return bytes_; }

  unsigned code(std::uint64_t section, std::uint64_t rank) const {
    const std::uint64_t i = section * size_ + rank;
    switch (encoding_) {
      case DepthEncoding::kByte:
        return data_[i];
      case DepthEncoding::kNibble:
        return (data_[i >> 1] >> ((i & 1) * 4)) & 0xFu;
      default:
        return (data_[i >> 2] >> ((i & 3) * 2)) & 0x3u;
    }
  }
  // True when a state with code `ct` is one move closer to the goal than one with `cs`
  // (given the rule's bound on successor depths, see the top of this file).
  bool closer(unsigned cs, unsigned ct) const {
    if (cs == unreached_ || ct == unreached_) return false;
    if (modulus_ == 0) return ct + 1 == cs;
    return ct == (cs + modulus_ - 1) % modulus_;
  }
  // Stores a BFS depth array (one byte per rank, kUnreached = cannot reach) as the
  // given section, in parallel. Depths beyond the byte encoding's range cannot occur.
  void fill_section(std::uint64_t section, const std::vector<std::uint8_t>& depth);

  // A table over a read-only memory mapping (used by load_depth_table).
  static DepthTable mapped(DepthEncoding encoding, std::uint64_t size, std::uint64_t sections,
                           std::shared_ptr<const void> mapping, const std::uint8_t* data);

 private:
  void init(DepthEncoding encoding, std::uint64_t size, std::uint64_t sections);

  DepthEncoding encoding_ = DepthEncoding::kByte;
  std::uint64_t size_ = 0, sections_ = 0, bytes_ = 0;
  unsigned modulus_ = 0, unreached_ = 0xFF;
  std::vector<std::uint8_t> owned_;
  std::shared_ptr<const void> mapping_;  // keeps a mapping alive
  const std::uint8_t* data_ = nullptr;
};

// Bytes of data a table of this shape holds.
std::uint64_t depth_table_bytes(DepthEncoding encoding, std::uint64_t size, std::uint64_t sections);

// Runs the BFS variant (a name from variant_table(), or "auto") once per section with
// want_depths and stores the result; InputError when the variant's buffers exceed
// `memory_limit` bytes (0 = MemAvailable) or the encoding cannot hold the rule.
DepthTable build_depth_table(const AnyRule& rule, DepthEncoding encoding, std::string_view variant = "hybrid",
                             std::uint64_t memory_limit = 0);

// ---- Table files ---------------------------------------------------------------------
// The binary header of io/files.hpp (magic "SGDEPTH\0", format version 2, 128 header
// bytes, XXH3 checksum), then the data:
//   32 u32 encoding (1,2,3)   36 u32 rows   40 u32 cols   44 u32 zero
//   48 char[16] rule name, NUL-padded       64 u64 size (ranks per section)
//   72 u64 sections           80..127 zero

struct TableFileInfo {
  std::string rule;
  int rows = 0, cols = 0;
  DepthEncoding encoding = DepthEncoding::kByte;
  std::uint64_t size = 0, sections = 0, data_bytes = 0;
};

// Writes atomically (AtomicFile); throws std::runtime_error naming the path and the
// system's reason.
void save_depth_table(const std::filesystem::path& path, const AnyRule& rule, const DepthTable& table);
// Reads the header only; InputError when it is not a valid table header.
TableFileInfo read_table_info(const std::filesystem::path& path);
// Memory-maps a table and checks it against the rule (name, grid, size, sections) and
// its checksum; InputError with a clear message otherwise.
DepthTable load_depth_table(const std::filesystem::path& path, const AnyRule& rule);

// ---- Answers -------------------------------------------------------------------------

__extension__ typedef unsigned __int128 PathCount;  // GCC/Clang extension
inline constexpr PathCount kCountSaturated = ~PathCount{0};
// Decimal; a saturated count prints as ">=340282366920938463463374607431768211455".
std::string format_count(PathCount c);

struct PathStep {
  std::string move;  // the move's label (the rule's for_each_move)
  State board;       // the board after the move
};

// Moves to the goal (-1 when the goal cannot be reached).
int depth_of(const AnyRule& rule, const DepthTable& table, State s);
// One optimal path, empty when s is a goal or cannot reach one.
std::vector<PathStep> optimal_path(const AnyRule& rule, const DepthTable& table, State s);
// Number of distinct optimal move sequences (1 at a goal, 0 when unreachable).
PathCount count_optimal_paths(const AnyRule& rule, const DepthTable& table, State s);

// ---- Queries ---------------------------------------------------------------------------

struct Query {
  int number = 0;  // 1-based, in input order
  int first_line = 0, last_line = 0;
  State state = 0;
  std::string error;  // non-empty when the query is malformed
};

// Reads queries in the rule's judge format (judge_format(); lines may end in CRLF):
//   number grids: a line with T, then T grids, each `rows` lines of `cols` numbers (or
//     one line of all n numbers, or n <= 9 digits run together), read by the rule's
//     from_numbers ('_' is kBlankNumber); blank lines between grids are skipped.
//   boards: optionally a line with T; then boards (T of them, or until the end), each
//     `rows` lines of `cols` characters read by the rule's parse() (cardswap: A, B, *
//     and ' '; a row short of `cols` is padded with blanks); whitespace-only lines
//     between boards are skipped.
// A problem with the count line (missing, negative, not a number) throws InputError.
// A bad query throws InputError "query K, line L: ..." unless keep_going, when it is
// returned with `error` set; missing grids and extra input after them are reported
// the same way, as one entry each with last_line = -1 (no answer line is printed).
std::vector<Query> parse_queries(const AnyRule& rule, std::string_view input, bool keep_going);
// One state from the command line (--state), in the rule's own text form.
State parse_state(const AnyRule& rule, std::string_view text);

struct AnswerOptions {
  bool path = false;    // " path=m1,m2,..."
  bool count = false;   // " count=N"
  bool boards = false;  // then one line per board, "  0: <board>", "  1 <move>: <board>", ...
};

// Appends the answer lines for one state to `out`: "<depth>[ count=N][ path=...]\n"
// (-1 and count=0 when unreachable, no path), then the boards when asked.
void append_answer(const AnyRule& rule, const DepthTable& table, State s, const AnswerOptions& options,
                   std::string& out);

struct BatchResult {
  std::string out;                  // answers, one line per query ("error" for a bad one)
  std::vector<std::string> errors;  // one line per bad query
};
// Answers parsed queries in order; a bad one gives an "error" line (when it stands
// for a grid) and its message in `errors`.
BatchResult answer_queries(const AnyRule& rule, const DepthTable& table, const std::vector<Query>& queries,
                           const AnswerOptions& options);
// Parses and answers a whole input (see parse_queries for keep_going).
BatchResult solve_input(const AnyRule& rule, const DepthTable& table, std::string_view input,
                        const AnswerOptions& options, bool keep_going);

}  // namespace stategraph
