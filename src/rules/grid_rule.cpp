#include "stategraph/rules/grid_rule.hpp"

#include <cctype>

namespace stategraph {

GridRule::GridRule(Grid g) : grid_(g), n_(g.cells()) {
  for (int cell = 0; cell < n_; ++cell) {
    const int r = cell / g.cols, c = cell % g.cols;
    std::array<int, 4> list{-1, -1, -1, -1};
    int k = 0;
    if (r > 0) list[k++] = cell - g.cols;
    if (r + 1 < g.rows) list[k++] = cell + g.cols;
    if (c > 0) list[k++] = cell - 1;
    if (c + 1 < g.cols) list[k++] = cell + 1;
    nbr_[static_cast<std::size_t>(cell)] = list;
    if (c + 1 < g.cols) pairs_.push_back({cell, cell + 1});
    if (r + 1 < g.rows) pairs_.push_back({cell, cell + g.cols});
  }
}

std::string GridRule::join_cells(const std::vector<std::string>& labels, bool spaced) const {
  std::string out;
  for (int i = 0; i < n_; ++i) {
    if (i > 0) out += (i % grid_.cols == 0) ? "/" : (spaced ? " " : "");
    out += labels[static_cast<std::size_t>(i)];
  }
  return out;
}

std::vector<int> parse_numbers(std::string_view text, int n, int blank_value) {
  std::vector<std::string> tokens;
  std::string cur;
  for (char ch : text) {
    const auto u = static_cast<unsigned char>(ch);
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '/' || ch == ',') {
      if (!cur.empty()) tokens.push_back(std::move(cur)), cur.clear();
    } else if (std::isdigit(u) || ch == '_') {
      cur += ch;
    } else {
      throw InputError(std::string("unexpected character '") +
                       (u < 0x20 || u >= 0x7f
                            ? std::string("\\x") + "0123456789abcdef"[u >> 4] + "0123456789abcdef"[u & 15]
                            : std::string(1, ch)) +
                       "' in grid");
    }
  }
  if (!cur.empty()) tokens.push_back(std::move(cur));
  if (tokens.size() == 1 && n <= 9 && static_cast<int>(tokens[0].size()) == n) {
    std::string one = tokens[0];
    tokens.clear();
    for (char ch : one) tokens.emplace_back(1, ch);
  }
  if (static_cast<int>(tokens.size()) != n)
    throw InputError("grid has " + std::to_string(tokens.size()) + " cells, expected " + std::to_string(n));
  std::vector<int> out;
  out.reserve(tokens.size());
  for (const auto& t : tokens) {
    if (t == "_") {
      out.push_back(blank_value);
      continue;
    }
    if (t.find('_') != std::string::npos || t.size() > 3) throw InputError("bad cell '" + t + "' in grid");
    out.push_back(std::stoi(t));
  }
  return out;
}

State pack_permutation(const std::vector<int>& numbers, int n) {
  State s = 0;
  unsigned seen = 0;
  for (int i = 0; i < n; ++i) {
    const int v = numbers[static_cast<std::size_t>(i)];
    if (v < 1 || v > n) throw InputError("number " + std::to_string(v) + " out of range 1.." + std::to_string(n));
    if (seen & (1u << (v - 1))) throw InputError("number " + std::to_string(v) + " appears twice");
    seen |= 1u << (v - 1);
    s = set_cell(s, i, static_cast<unsigned>(v - 1));
  }
  return s;
}

}  // namespace stategraph
