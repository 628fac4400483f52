// Query input in each rule's judge format (see parse_queries in solve.hpp). One pass
// over the lines, no allocation per grid; every error names the query and the line.
#include <stdexcept>
#include <string>

#include "stategraph/solve/solve.hpp"

namespace stategraph {
namespace {

struct Lines {
  std::vector<std::string_view> text;  // without the line break (and a CR before it)
  explicit Lines(std::string_view input) {
    std::size_t pos = 0;
    while (pos < input.size()) {
      std::size_t end = input.find('\n', pos);
      if (end == std::string_view::npos) end = input.size();
      std::string_view line = input.substr(pos, end - pos);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      text.push_back(line);
      pos = end + 1;
    }
  }
  std::size_t size() const { return text.size(); }
};

bool is_blank(std::string_view line) {
  for (char ch : line)
    if (ch != ' ' && ch != '\t') return false;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string shown(char ch) {
  const auto u = static_cast<unsigned char>(ch);
  if (u < 0x20 || u >= 0x7f) {
    static constexpr char kHex[] = "0123456789abcdef";
    return std::string("\\x") + kHex[u >> 4] + kHex[u & 15];
  }
  return std::string(1, ch);
}

std::string where(int query, int line) {
  return "query " + std::to_string(query) + ", line " + std::to_string(line) + ": ";
}

// Reads the count line T (1-based line number `line`).
long long parse_count(std::string_view text, int line) {
  const std::string_view t = trim(text);
  bool digits = !t.empty() && t.size() <= 9;
  for (char ch : t) digits = digits && ch >= '0' && ch <= '9';
  if (!digits)
    throw InputError("line " + std::to_string(line) + ": expected the number of queries T (0..999999999), got '" +
                     shown_input(t, 40) + "'");
  return std::stoll(std::string(t));
}

// Numbers on one line into out[count..]; at most n + 1 are kept (enough to tell "too
// many"). Returns the count, or -1 with `error` set.
int read_numbers(std::string_view line, int n, int* out, int count, std::string& error) {
  const int start = count;
  std::size_t i = 0;
  while (i < line.size()) {
    const char ch = line[i];
    if (ch == ' ' || ch == '\t' || ch == ',' || ch == '/') {
      ++i;
      continue;
    }
    int value = 0, len = 0;
    if (ch == '_') {
      value = kBlankNumber, len = 1, ++i;
    } else if (ch >= '0' && ch <= '9') {
      while (i < line.size() && line[i] >= '0' && line[i] <= '9') {
        if (len < 4) value = value * 10 + (line[i] - '0');
        ++len, ++i;
      }
      if (len > 3) value = 1000;
    } else {
      error = "unexpected character '" + shown(ch) + "'";
      return -1;
    }
    if (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != ',' && line[i] != '/') {
      error = "unexpected character '" + shown(line[i]) + "'";
      return -1;
    }
    // n <= 9 digits run together ("152463789") as the whole grid.
    if (ch != '_' && len == n && n > 1 && n <= 9 && count == start && start == 0 && trim(line.substr(i)).empty()) {
      for (int k = 0; k < n; ++k) out[k] = line[i - static_cast<std::size_t>(n) + static_cast<std::size_t>(k)] - '0';
      return n;
    }
    if (count <= n) out[count] = value;
    ++count;
  }
  return count;
}

class Collector {
 public:
  Collector(bool keep_going, std::vector<Query>& out) : keep_going_(keep_going), out_(out) {}
  void fail(Query q, std::string message) {
    if (!keep_going_) throw InputError(message);
    q.error = std::move(message);
    out_.push_back(std::move(q));
  }

 private:
  bool keep_going_;
  std::vector<Query>& out_;
};

// After the T queries only blank lines may follow; the first other line is one more
// (bad) query, reported as "extra input".
void reject_trailing(const Lines& lines, std::size_t i, long long total, const char* noun, Collector& collect) {
  while (i < lines.size() && is_blank(lines.text[i])) ++i;
  if (i == lines.size()) return;
  Query q;
  q.number = static_cast<int>(total + 1);
  q.first_line = static_cast<int>(i + 1), q.last_line = -1;
  collect.fail(q, "line " + std::to_string(i + 1) + ": extra input after the T = " + std::to_string(total) + " " +
                      noun + ": '" + shown_input(lines.text[i], 40) + "'");
}

template <class R>
std::vector<Query> parse_grids(const R& rule, const Lines& lines, bool keep_going) {
  std::vector<Query> out;
  Collector collect(keep_going, out);
  const int n = rule.cells(), rows = rule.rows(), cols = rule.cols();
  std::size_t i = 0;
  while (i < lines.size() && is_blank(lines.text[i])) ++i;
  if (i == lines.size()) throw InputError("empty input: expected the number of queries T on the first line");
  const long long total = parse_count(lines.text[i], static_cast<int>(i + 1));
  ++i;
  // A huge T with little input must not reserve T entries: at most one grid per line.
  out.reserve(static_cast<std::size_t>(std::min<long long>(total, static_cast<long long>(lines.size()))));
  int v[kMaxCells + 2];
  int line_of[kMaxCells + 2];
  std::string error;
  for (long long k = 1; k <= total; ++k) {
    const int number = static_cast<int>(k);
    while (i < lines.size() && is_blank(lines.text[i])) ++i;
    Query q;
    q.number = number;
    if (i == lines.size()) {
      q.first_line = static_cast<int>(i), q.last_line = -1;
      collect.fail(q, "query " + std::to_string(number) + ": input ended after " + std::to_string(number - 1) +
                          " of T = " + std::to_string(total) + " grids");
      return out;
    }
    q.first_line = static_cast<int>(i + 1);
    // The first line holds a row (cols numbers) or the whole grid (n numbers).
    int count = 0;
    bool ok = true;
    for (int r = 0; r < rows && ok; ++r) {
      const int line_no = static_cast<int>(i + 1);
      if (i == lines.size() || is_blank(lines.text[i])) {
        q.last_line = line_no;
        collect.fail(q, where(number, line_no) + "grid ends after " + std::to_string(r) + " of " +
                            std::to_string(rows) + " rows");
        ok = false;
        break;
      }
      const int before = count;
      count = read_numbers(lines.text[i], n, v, count, error);
      ++i;
      if (count < 0) {
        q.last_line = line_no;
        collect.fail(q, where(number, line_no) + error);
        ok = false;
        break;
      }
      for (int c = before; c < std::min(count, n + 1); ++c) line_of[c] = line_no;
      const int got = count - before;
      if (r == 0 && got == n) break;  // the whole grid on one line
      if (got != cols) {
        q.last_line = line_no;
        collect.fail(q, where(number, line_no) + "grid row has " + std::to_string(got) + " numbers, expected " +
                            std::to_string(cols) + (r == 0 ? " (or all " + std::to_string(n) + " on one line)" : ""));
        ok = false;
      }
    }
    if (!ok) continue;
    q.last_line = static_cast<int>(i);
    int bad = 0;
    if (!rule.from_numbers(v, q.state, bad, error)) {
      collect.fail(q, where(number, line_of[bad]) + error);
      continue;
    }
    out.push_back(q);
  }
  reject_trailing(lines, i, total, "grids", collect);
  return out;
}

template <class R>
std::vector<Query> parse_boards(const R& rule, const Lines& lines, bool keep_going) {
  std::vector<Query> out;
  Collector collect(keep_going, out);
  std::size_t i = 0;
  while (i < lines.size() && is_blank(lines.text[i])) ++i;
  if (i == lines.size()) throw InputError("empty input: expected a " + std::string(rule.name()) + " board");
  long long total = -1;  // -1: boards until the end
  const std::string_view first = trim(lines.text[i]);
  if (!first.empty() && (first[0] == '-' || (first[0] >= '0' && first[0] <= '9'))) {
    total = parse_count(lines.text[i], static_cast<int>(i + 1));
    ++i;
  }
  for (long long k = 1; total < 0 || k <= total; ++k) {
    const int number = static_cast<int>(k);
    while (i < lines.size() && is_blank(lines.text[i])) ++i;
    Query q;
    q.number = number;
    if (i == lines.size()) {
      if (total < 0) break;
      q.first_line = static_cast<int>(i), q.last_line = -1;
      collect.fail(q, "query " + std::to_string(number) + ": input ended after " + std::to_string(number - 1) +
                          " of T = " + std::to_string(total) + " boards");
      return out;
    }
    q.first_line = static_cast<int>(i + 1);
    std::string text;
    int r = 0;
    for (; r < rule.rows() && i < lines.size(); ++r, ++i) {
      if (r) text += '\n';
      std::string_view row = lines.text[i];
      // Spaces beyond the board's width are dropped (a row padded too far).
      if (static_cast<int>(row.size()) > rule.cols() && is_blank(row.substr(static_cast<std::size_t>(rule.cols()))))
        row = row.substr(0, static_cast<std::size_t>(rule.cols()));
      text += row;
    }
    q.last_line = static_cast<int>(i);
    std::string span = "query " + std::to_string(number);
    if (q.first_line == q.last_line) {
      span += ", line ";
      span += std::to_string(q.first_line);
    } else {
      span += ", lines ";
      span += std::to_string(q.first_line);
      span += '-';
      span += std::to_string(q.last_line);
    }
    span += ": ";
    if (r < rule.rows()) {
      collect.fail(q, span + "board ends after " + std::to_string(r) + " of " + std::to_string(rule.rows()) + " rows");
      continue;
    }
    try {
      q.state = rule.parse(text);
    } catch (const InputError& e) {
      collect.fail(q, span + e.what());
      continue;
    }
    out.push_back(q);
  }
  reject_trailing(lines, i, total, "boards", collect);
  return out;
}

}  // namespace

std::vector<Query> parse_queries(const AnyRule& rule, std::string_view input, bool keep_going) {
  const Lines lines(input);
  return std::visit(
      [&](const auto& r) -> std::vector<Query> {
        if (r.judge_format() == JudgeFormat::kBoards) return parse_boards(r, lines, keep_going);
        if constexpr (requires(int* v, State& s, int& bad, std::string& e) { r.from_numbers(v, s, bad, e); })
          return parse_grids(r, lines, keep_going);
        else
          throw std::logic_error("rule " + std::string(r.name()) + " reads number grids but has no from_numbers");
      },
      rule);
}

State parse_state(const AnyRule& rule, std::string_view text) {
  try {
    return std::visit([&](const auto& r) { return r.parse(text); }, rule);
  } catch (const InputError& e) {
    throw InputError("--state '" + shown_input(text) + "': " + e.what());
  }
}

}  // namespace stategraph
