// State encoding shared by every rule: a grid of at most 16 cells, read row by
// row, packed into one uint64_t with cell i in bits [4i, 4i+4).
// Invariant: cells >= n are zero. Symbols are 0..15 (a rule says what they mean).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace stategraph {

using State = std::uint64_t;

inline constexpr int kMaxCells = 16;

// Thrown for every user-facing input problem (bad size, bad grid, bad rule...).
// The CLI prints what() on one line and exits with code 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// User text as it may appear inside a one-line message: bytes outside printable ASCII
// as \xHH (so a newline in the input cannot split the message), cut after `max` bytes.
inline std::string shown_input(std::string_view text, std::size_t max = 60) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < max; ++i) {
    const auto u = static_cast<unsigned char>(text[i]);
    if (u < 0x20 || u >= 0x7f)
      out += std::string("\\x") + kHex[u >> 4] + kHex[u & 15];
    else
      out += text[i];
  }
  if (text.size() > max) out += "...";
  return out;
}

constexpr unsigned get_cell(State s, int i) { return static_cast<unsigned>((s >> (4 * i)) & 0xF); }

constexpr State set_cell(State s, int i, unsigned v) {
  return (s & ~(State{0xF} << (4 * i))) | (State{v & 0xF} << (4 * i));
}

constexpr State swap_cells(State s, int i, int j) {
  const State a = (s >> (4 * i)) & 0xF;
  const State b = (s >> (4 * j)) & 0xF;
  const State x = a ^ b;
  return s ^ (x << (4 * i)) ^ (x << (4 * j));
}

// Position of the first cell holding symbol v among the first n cells (-1 if none).
constexpr int find_cell(State s, int n, unsigned v) {
  for (int i = 0; i < n; ++i)
    if (get_cell(s, i) == v) return i;
  return -1;
}

// A grid shape with its 4-neighbourhood; checks 2 <= rows, cols and rows*cols <= 16.
struct Grid {
  int rows = 0;
  int cols = 0;

  Grid() = default;
  Grid(int r, int c) : rows(r), cols(c) {
    if (r < 2 || c < 2 || r > kMaxCells || c > kMaxCells || r * c > kMaxCells)  // r * c cannot overflow
      throw InputError("grid " + std::to_string(r) + "x" + std::to_string(c) +
                       " is not supported: need rows >= 2, cols >= 2 and rows*cols <= 16");
  }
  int cells() const { return rows * cols; }
  std::string label() const { return std::to_string(rows) + "x" + std::to_string(cols); }
};

// Hands one neighbour to a for_each_successor / for_each_predecessor callback. A
// callback may return bool: true means "found, stop" (bottom-up BFS asks whether any
// neighbour is in the frontier and stops at the first). Returns true to stop.
template <class F, class T>
inline bool emit_neighbour(F& f, T t) {
  if constexpr (std::is_convertible_v<std::invoke_result_t<F&, T>, bool>) {
    return static_cast<bool>(f(t));
  } else {
    f(t);
    return false;
  }
}

}  // namespace stategraph
