// The definition-file parser (the supported subset of the twsearch / ksolve format is
// listed in the README, "Puzzles as data") and DefinedRule's tables.
#include "stategraph/rules/defined.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "stategraph/rules/grid_rule.hpp"

namespace stategraph {

DefinedMetric parse_metric(std::string_view name) {
  if (name == "given") return DefinedMetric::kGiven;
  if (name == "inverses" || name == "qtm") return DefinedMetric::kInverses;
  if (name == "powers" || name == "htm") return DefinedMetric::kPowers;
  throw InputError("unknown --metric '" + std::string(name) + "' (known: given, inverses (qtm), powers (htm))");
}

std::string_view metric_name(DefinedMetric m) {
  switch (m) {
    case DefinedMetric::kGiven:
      return "given";
    case DefinedMetric::kInverses:
      return "inverses";
    case DefinedMetric::kPowers:
      return "powers";
  }
  return "?";
}

PermMove make_perm_move(const std::vector<int>& p) {
  PermMove m;
  // Group the moved cells by displacement: cells i <- p[i] with the same i - p[i]
  // move together with one mask and one rotation.
  std::vector<int> shifts;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const int src = p[i], dst = static_cast<int>(i);
    if (src == dst) {
      m.keep |= State{0xF} << (4 * dst);
      continue;
    }
    const int d = dst - src;
    auto it = std::find(shifts.begin(), shifts.end(), d);
    const auto k = static_cast<std::size_t>(it - shifts.begin());
    if (it == shifts.end()) shifts.push_back(d);
    m.mask[k] |= State{0xF} << (4 * src);
    m.shift[k] = static_cast<unsigned>((4 * d) & 63);
  }
  m.terms = static_cast<int>(shifts.size());
  return m;
}

namespace {

// A token fit for a one-line error message.
std::string shown(std::string_view t) {
  std::string out;
  for (char ch : t.substr(0, 40)) {
    const auto u = static_cast<unsigned char>(ch);
    if (u < 0x20 || u >= 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += ch;
    }
  }
  if (t.size() > 40) out += "...";
  return out;
}

struct Line {
  int number = 0;
  std::vector<std::string_view> tokens;
};

// Lines without comments ('#' to the end) and blank lines, split into tokens.
std::vector<Line> tokenize(std::string_view text) {
  std::vector<Line> out;
  std::size_t pos = 0;
  int number = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    ++number;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    Line l;
    l.number = number;
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
      std::size_t j = i;
      while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
      if (j > i) l.tokens.push_back(line.substr(i, j - i));
      i = j;
    }
    if (!l.tokens.empty()) out.push_back(std::move(l));
    if (end == text.size()) break;
    pos = end + 1;
  }
  return out;
}

class Parser {
 public:
  Parser(std::string_view text, std::string path) : lines_(tokenize(text)), path_(std::move(path)) {
    int last = 1;
    for (char ch : text) last += ch == '\n';
    last_line_ = last;
  }

  Definition run() {
    Definition def;
    def.source = path_;
    bool have_name = false, have_solved = false;
    std::size_t i = 0;
    for (; i < lines_.size(); ++i) {
      const Line& l = lines_[i];
      const std::string_view kw = l.tokens[0];
      if (kw == "Name") {
        if (have_name) fail(l, "a second Name line");
        if (set_count_ > 0) fail(l, "Name must come before the Set line");
        expect_tokens(l, 2, "Name NAME");
        def.name = std::string(l.tokens[1]);
        for (char ch : def.name)
          if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.' || ch == '+'))
            fail(l, "name '" + shown(def.name) + "' may only use letters, digits and _ - . +");
        if (def.name.size() > 64) fail(l, "name longer than 64 characters");
        have_name = true;
      } else if (kw == "Set") {
        read_set(l);
      } else if (kw == "Solved") {
        if (set_count_ == 0) fail(l, "Solved before the Set line");
        if (have_solved) fail(l, "a second Solved block");
        expect_tokens(l, 1, "Solved");
        std::vector<int> pieces;
        i = read_block(i, pieces, false);
        def.solved = std::move(pieces);
        have_solved = true;
      } else if (kw == "Move") {
        if (set_count_ == 0) fail(l, "Move before the Set line");
        if (!have_solved) fail(l, "Move before the Solved block (the order is Name, Set, Solved, Move...)");
        expect_tokens(l, 2, "Move NAME");
        const std::string name(l.tokens[1]);
        check_move_name(l, name);
        if (std::find(def.move_names.begin(), def.move_names.end(), name) != def.move_names.end())
          fail(l, "move '" + name + "' is defined twice");
        std::vector<int> perm;
        i = read_block(i, perm, true);
        bool identity = true;
        for (int k = 0; k < n_; ++k) identity = identity && perm[static_cast<std::size_t>(k)] == k;
        if (identity) fail(l, "move '" + name + "' is the identity (it changes no position)");
        def.move_names.push_back(name);
        def.moves.push_back(std::move(perm));
      } else if (kw == "End") {
        fail(l, "End without a Solved or Move block");
      } else if (is_known_unsupported(kw)) {
        fail(l, "twsearch/ksolve keyword '" + std::string(kw) +
                    "' is not supported (supported: Name, Set, Solved, Move, End)");
      } else {
        fail(l, "unknown keyword '" + shown(kw) + "' (supported: Name, Set, Solved, Move, End)");
      }
    }
    if (set_count_ == 0) fail_at(last_line_, "no Set line (expected 'Set NAME PIECES 1')");
    if (!have_solved) fail_at(last_line_, "no Solved block");
    if (def.moves.empty()) fail_at(last_line_, "no Move blocks");
    def.n = n_;
    def.given_moves = static_cast<int>(def.moves.size());
    if (!have_name) {
      std::string stem = std::filesystem::path(path_).stem().string();
      for (char& ch : stem)
        if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.' || ch == '+'))
          ch = '_';
      def.name = stem.empty() ? "defined" : stem.substr(0, 64);
    }
    return def;
  }

  [[noreturn]] void fail_at(int line, const std::string& message) const {
    throw InputError(path_ + ":" + std::to_string(line) + ": " + message);
  }

 private:
  [[noreturn]] void fail(const Line& l, const std::string& message) const { fail_at(l.number, message); }

  void expect_tokens(const Line& l, std::size_t count, const char* form) const {
    if (l.tokens.size() != count)
      fail(l, std::string("expected '") + form + "', got " + std::to_string(l.tokens.size()) + " tokens");
  }

  static bool is_known_unsupported(std::string_view kw) {
    static constexpr std::string_view kKnown[] = {
        "Illegal", "StartState", "MoveTransformation", "ScrambleState", "Scramble", "ForbiddenPairs", "ForbiddenGroups",
        "Ignore",  "Block",      "MoveLimits",         "ParallelMoves", "MaxDepth", "Domino",         "MoveSequence"};
    return std::find(std::begin(kKnown), std::end(kKnown), kw) != std::end(kKnown);
  }

  // Move names label solve's paths ("path=A,B'"): printable, no comma, at most 32 characters.
  void check_move_name(const Line& l, const std::string& name) const {
    if (name.size() > 32) fail(l, "move name '" + shown(name) + "' is longer than 32 characters");
    for (char ch : name) {
      const auto u = static_cast<unsigned char>(ch);
      if (u <= 0x20 || u >= 0x7f || ch == ',')
        fail(l, "move name '" + shown(name) + "' has a comma or a non-printable character");
    }
  }

  static bool read_int(std::string_view t, int& v) {
    if (t.empty() || t.size() > 3) return false;
    v = 0;
    for (char ch : t) {
      if (ch < '0' || ch > '9') return false;
      v = v * 10 + (ch - '0');
    }
    return true;
  }

  void read_set(const Line& l) {
    if (set_count_ > 0) fail(l, "a second Set: only one set of pieces is supported (several sets are not)");
    expect_tokens(l, 4, "Set NAME PIECES ORIENTATIONS");
    int pieces = 0, orientations = 0;
    if (!read_int(l.tokens[2], pieces)) fail(l, "piece count '" + shown(l.tokens[2]) + "' is not a number");
    if (!read_int(l.tokens[3], orientations)) fail(l, "orientation count '" + shown(l.tokens[3]) + "' is not a number");
    if (pieces > kMaxCells)
      fail(l, std::to_string(pieces) + " pieces: at most 16 are supported (a state is 16 nibbles)");
    if (pieces < 2) fail(l, std::to_string(pieces) + " pieces: at least 2 are needed");
    if (orientations != 1)
      fail(l,
           "orientation count " + std::to_string(orientations) + ": only pieces without orientation (1) are supported");
    set_name_ = std::string(l.tokens[1]);
    n_ = pieces;
    set_count_ = 1;
  }

  // Reads a position block after the Solved / Move line at index `head` up to its End;
  // fills `out` with n 0-based values (identity when the set is not listed). Returns
  // the index of the End line.
  std::size_t read_block(std::size_t head, std::vector<int>& out, bool permutation) {
    const Line& h = lines_[head];
    const std::string what = permutation ? "move '" + std::string(h.tokens[1]) + "'" : "Solved";
    out.resize(static_cast<std::size_t>(n_));
    for (int k = 0; k < n_; ++k) out[static_cast<std::size_t>(k)] = k;
    bool listed = false;
    std::size_t i = head + 1;
    for (;; ++i) {
      if (i == lines_.size()) fail(h, "the " + what + " block has no End line");
      const Line& l = lines_[i];
      if (l.tokens[0] == "End") {
        if (l.tokens.size() != 1) fail(l, "expected 'End' alone on its line");
        break;
      }
      if (l.tokens.size() != 1 || l.tokens[0] != set_name_) {
        if (l.tokens[0] == "Move" || l.tokens[0] == "Solved") fail(l, "the " + what + " block has no End line");
        fail(l, "expected the set name '" + set_name_ + "' or End in the " + what + " block, got '" +
                    shown(l.tokens[0]) + (l.tokens.size() > 1 ? " ..." : "") + "'");
      }
      if (listed) fail(l, "set '" + set_name_ + "' listed twice in the " + what + " block");
      listed = true;
      // The permutation (or piece numbers) line.
      if (++i == lines_.size()) fail(l, "the " + what + " block ends after the set name");
      const Line& p = lines_[i];
      if (p.tokens.size() != static_cast<std::size_t>(n_))
        fail(p, what + ": " + std::to_string(p.tokens.size()) + " numbers, expected " + std::to_string(n_));
      std::vector<int> v(static_cast<std::size_t>(n_));
      for (int k = 0; k < n_; ++k) {
        const auto& t = p.tokens[static_cast<std::size_t>(k)];
        if (!read_int(t, v[static_cast<std::size_t>(k)])) fail(p, what + ": '" + shown(t) + "' is not a piece number");
      }
      if (permutation) {
        unsigned seen = 0;
        for (int k = 0; k < n_; ++k) {
          const int x = v[static_cast<std::size_t>(k)];
          if (x < 1 || x > n_)
            fail(p, what + " is not a permutation: " + std::to_string(x) + " is outside 1.." + std::to_string(n_));
          if (seen & (1u << (x - 1))) fail(p, what + " is not a permutation: " + std::to_string(x) + " appears twice");
          seen |= 1u << (x - 1);
        }
      } else {
        // Piece numbers 1..k, each at least once (repeats are identical pieces).
        unsigned seen = 0;
        int top = 0;
        for (int x : v) {
          if (x < 1 || x > n_) fail(p, "Solved: piece " + std::to_string(x) + " is outside 1.." + std::to_string(n_));
          seen |= 1u << (x - 1);
          top = std::max(top, x);
        }
        for (int x = 1; x <= top; ++x)
          if (!(seen & (1u << (x - 1))))
            fail(p, "Solved: piece numbers must run 1.." + std::to_string(top) + " without gaps (" + std::to_string(x) +
                        " is missing)");
      }
      for (int k = 0; k < n_; ++k) out[static_cast<std::size_t>(k)] = v[static_cast<std::size_t>(k)] - 1;
      // An optional orientation line: all zeros is accepted (orientation count 1).
      if (i + 1 < lines_.size()) {
        const Line& o = lines_[i + 1];
        int first = 0;
        if (read_int(o.tokens[0], first) || o.tokens[0] == "?") {
          ++i;
          if (o.tokens.size() != static_cast<std::size_t>(n_))
            fail(o, what + ": orientation line has " + std::to_string(o.tokens.size()) + " values, expected " +
                        std::to_string(n_));
          for (const auto& t : o.tokens)
            if (t != "0")
              fail(o, what + ": orientation '" + shown(t) + "': pieces have no orientation here (all must be 0)");
        }
      }
    }
    return i;
  }

  std::vector<Line> lines_;
  std::string path_;
  int last_line_ = 1;
  int set_count_ = 0;
  int n_ = 0;
  std::string set_name_;
};

std::vector<int> compose(const std::vector<int>& a, const std::vector<int>& b) {
  // Passive: applying a then b gives t[i] = s[a[b[i]]].
  std::vector<int> c(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) c[i] = a[static_cast<std::size_t>(b[i])];
  return c;
}

std::vector<int> inverse(const std::vector<int>& p) {
  std::vector<int> q(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) q[static_cast<std::size_t>(p[i])] = static_cast<int>(i);
  return q;
}

bool is_identity(const std::vector<int>& p) {
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p[i] != static_cast<int>(i)) return false;
  return true;
}

int order_of(const std::vector<int>& p) {
  int k = 1;
  for (std::vector<int> q = p; !is_identity(q); q = compose(q, p)) ++k;
  return k;
}

// Adds the metric's moves after the file's (inverses: "A'"; powers, twsearch's names:
// A2 .. up to half the order, then A' for the inverse, A2' ... counterclockwise).
void expand(Definition& def, const std::string& path) {
  if (def.metric == DefinedMetric::kGiven) return;
  const auto given = def.moves;
  const auto names = def.move_names;
  auto add = [&](std::vector<int> p, std::string name) {
    if (std::find(def.moves.begin(), def.moves.end(), p) != def.moves.end()) return;  // already a move
    if (std::find(def.move_names.begin(), def.move_names.end(), name) != def.move_names.end())
      throw InputError(path + ": --metric " + std::string(metric_name(def.metric)) + " makes a move named '" + name +
                       "', but the file's move of that name is another permutation");
    def.moves.push_back(std::move(p));
    def.move_names.push_back(std::move(name));
  };
  for (std::size_t m = 0; m < given.size(); ++m) {
    const std::string& a = names[m];
    if (def.metric == DefinedMetric::kInverses) {
      add(inverse(given[m]), a + "'");
      continue;
    }
    const int order = order_of(given[m]);
    std::vector<std::vector<int>> power(static_cast<std::size_t>(order));
    power[0].resize(given[m].size());
    for (std::size_t i = 0; i < power[0].size(); ++i) power[0][i] = static_cast<int>(i);
    for (int k = 1; k < order; ++k)
      power[static_cast<std::size_t>(k)] = compose(power[static_cast<std::size_t>(k - 1)], given[m]);
    for (int k = 2; 2 * k <= order; ++k) add(power[static_cast<std::size_t>(k)], a + std::to_string(k));
    for (int k = (order - 1) / 2; k >= 1; --k)
      add(power[static_cast<std::size_t>(order - k)], k == 1 ? a + "'" : a + std::to_string(k) + "'");
  }
}

}  // namespace

Definition parse_definition(std::string_view text, const std::string& path, DefinedMetric metric) {
  Parser parser(text, path);
  Definition def = parser.run();
  def.metric = metric;
  expand(def, path);
  if (def.moves.size() > 64)
    throw InputError(path + ": " + std::to_string(def.moves.size()) + " moves with --metric " +
                     std::string(metric_name(metric)) + ": at most 64 are supported");
  return def;
}

Definition load_definition(const std::string& path, DefinedMetric metric) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError("cannot read definition " + path + ": is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read definition " + path + ": " + std::strerror(errno));
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (text.size() > (std::size_t{1} << 20)) throw InputError(path + ": larger than 1 MiB, not a definition file");
  return parse_definition(text, path, metric);
}

DefinedRule::DefinedRule(Definition def, int rows, int cols) {
  auto data = std::make_shared<Data>();
  n_ = def.n;
  check_perm_size(n_);
  if (rows == 0 && cols == 0) rows = 1, cols = n_;
  if (rows < 1 || cols < 1 || rows * cols != n_)
    throw InputError("--rows " + std::to_string(rows) + " --cols " + std::to_string(cols) + " do not fit the " +
                     std::to_string(n_) + " positions of " + def.source + " (rows * cols must be " +
                     std::to_string(n_) + ")");
  grid_.rows = rows, grid_.cols = cols;  // a display shape; Grid(r, c) would refuse one row
  std::vector<int> counts;
  for (int v : def.solved) {
    if (static_cast<int>(counts.size()) <= v) counts.resize(static_cast<std::size_t>(v) + 1, 0);
    ++counts[static_cast<std::size_t>(v)];
  }
  kinds_ = static_cast<int>(counts.size());
  for (int v = 0; v < kinds_; ++v) counts_[static_cast<std::size_t>(v)] = counts[static_cast<std::size_t>(v)];
  distinct_ = kinds_ == n_;
  for (int i = 0; i < n_; ++i)
    solved_ = set_cell(solved_, i, static_cast<unsigned>(def.solved[static_cast<std::size_t>(i)]));
  data->ranker = MultisetRanker(counts);

  std::set<std::vector<int>> all(def.moves.begin(), def.moves.end());
  bool closed = true;
  for (const auto& p : def.moves) {
    data->fwd.push_back(make_perm_move(p));
    data->inv.push_back(make_perm_move(inverse(p)));
    closed = closed && all.count(inverse(p)) > 0;
    data->max_order = std::max(data->max_order, order_of(p));
  }
  data->directed = !closed;
  if (distinct_) {
    data->fwd_ranks = MoveRanks(n_, def.moves);
    if (data->directed) {
      std::vector<std::vector<int>> inverses;
      for (const auto& p : def.moves) inverses.push_back(inverse(p));
      data->inv_ranks = MoveRanks(n_, inverses);
    }
  }

  // FNV-1a over the canonical content: n, solved symbols, then each move's name and
  // permutation (so the metric and the move order are part of the identity).
  std::uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&h](unsigned char c) { h = (h ^ c) * 0x100000001b3ull; };
  mix(static_cast<unsigned char>(n_));
  for (int v : def.solved) mix(static_cast<unsigned char>(v));
  for (std::size_t m = 0; m < def.moves.size(); ++m) {
    for (char ch : def.move_names[m]) mix(static_cast<unsigned char>(ch));
    mix(0);
    for (int v : def.moves[m]) mix(static_cast<unsigned char>(v));
  }
  static constexpr char kHex[] = "0123456789abcdef";
  data->table_id = "def:";
  for (int k = 10; k >= 0; --k) data->table_id += kHex[(h >> (4 * k)) & 15];
  data->def = std::move(def);
  data_ = std::move(data);
}

std::string DefinedRule::format(State s) const {
  std::string out;
  for (int i = 0; i < n_; ++i) {
    if (i > 0) out += (i % grid_.cols == 0) ? "/" : " ";
    out += std::to_string(get_cell(s, i) + 1);
  }
  return out;
}

std::string DefinedRule::check_pieces(const int* v, int& bad) const {
  std::array<int, kMaxCells> left = counts_;
  for (int i = 0; i < n_; ++i) {
    const int x = v[i];
    if (x < 1 || x > kinds_) {
      bad = i;
      return "piece " + std::to_string(x) + " out of range 1.." + std::to_string(kinds_);
    }
    if (--left[static_cast<std::size_t>(x - 1)] < 0) {
      bad = i;
      return counts_[static_cast<std::size_t>(x - 1)] == 1
                 ? "piece " + std::to_string(x) + " appears twice"
                 : "piece " + std::to_string(x) + " appears more than " +
                       std::to_string(counts_[static_cast<std::size_t>(x - 1)]) + " times (the solved state's count)";
    }
  }
  return {};
}

State DefinedRule::parse(std::string_view text) const {
  const std::vector<int> v = parse_numbers(text, n_, -1);
  int bad = 0;
  if (const std::string problem = check_pieces(v.data(), bad); !problem.empty()) throw InputError(problem);
  State s = 0;
  for (int i = 0; i < n_; ++i) s = set_cell(s, i, static_cast<unsigned>(v[static_cast<std::size_t>(i)] - 1));
  return s;
}

}  // namespace stategraph
