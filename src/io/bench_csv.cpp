#include "stategraph/io/bench_csv.hpp"

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "stategraph/io/io.hpp"
#include "stategraph/core/state.hpp"

namespace stategraph {
namespace {

// A JSON value: just enough of JSON for Google Benchmark's output.
struct Json {
  enum Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = kNull;
  std::string text;  // string value, or the number as written, or true/false
  std::vector<Json> items;
  // An object's members as two parallel vectors: std::pair<std::string, Json> would
  // need Json complete here (clang with libstdc++ refuses it; vector<Json> is fine).
  std::vector<std::string> keys;
  std::vector<Json> values;
  const Json* get(const std::string& key) const {
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i] == key) return &values[i];
    return nullptr;
  }
};

class Parser {
 public:
  explicit Parser(const std::string& s) : s_(s) {}
  Json parse() {
    Json v = value();
    space();
    if (i_ != s_.size()) fail("text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError("benchmark JSON, offset " + std::to_string(i_) + ": " + what);
  }
  void space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
  }
  void expect(char c) {
    space();
    if (i_ >= s_.size() || s_[i_] != c) fail(std::string("expected '") + c + "'");
    ++i_;
  }
  std::string string() {
    expect('"');
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c == '\\') {
        if (i_ >= s_.size()) fail("unterminated escape");
        const char e = s_[i_++];
        switch (e) {
          case 'n': c = '\n'; break;
          case 't': c = '\t'; break;
          case 'r': c = '\r'; break;
          case 'b': c = '\b'; break;
          case 'f': c = '\f'; break;
          case 'u': {
            if (i_ + 4 > s_.size()) fail("short \\u escape");
            const unsigned code = static_cast<unsigned>(std::stoul(s_.substr(i_, 4), nullptr, 16));
            i_ += 4;
            if (code < 0x80) c = static_cast<char>(code);
            else c = '?';  // names and counters are ASCII; anything else is shown as '?'
            break;
          }
          default: c = e;  // \" \\ \/
        }
      }
      out += c;
    }
    if (i_ >= s_.size()) fail("unterminated string");
    ++i_;
    return out;
  }
  Json value() {
    space();
    if (i_ >= s_.size()) fail("unexpected end");
    Json v;
    const char c = s_[i_];
    if (c == '{') {
      v.kind = Json::kObject;
      ++i_;
      space();
      if (i_ < s_.size() && s_[i_] == '}') return ++i_, v;
      for (;;) {
        std::string key = string();
        expect(':');
        Json member = value();
        v.keys.push_back(std::move(key));
        v.values.push_back(std::move(member));
        space();
        if (i_ < s_.size() && s_[i_] == ',') { ++i_; continue; }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.kind = Json::kArray;
      ++i_;
      space();
      if (i_ < s_.size() && s_[i_] == ']') return ++i_, v;
      for (;;) {
        v.items.push_back(value());
        space();
        if (i_ < s_.size() && s_[i_] == ',') { ++i_; continue; }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.kind = Json::kString;
      v.text = string();
      return v;
    }
    for (const char* word : {"true", "false", "null"})
      if (s_.compare(i_, std::strlen(word), word) == 0) {
        i_ += std::strlen(word);
        v.kind = word[0] == 'n' ? Json::kNull : Json::kBool;
        v.text = word;
        return v;
      }
    const std::size_t start = i_;
    while (i_ < s_.size() && std::strchr("+-0123456789.eE", s_[i_])) ++i_;
    if (start == i_) fail("unexpected character");
    v.kind = Json::kNumber;
    v.text = s_.substr(start, i_ - start);
    std::size_t used = 0;
    try {
      std::stod(v.text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != v.text.size()) fail("bad number '" + v.text + "'");
    return v;
  }
  const std::string& s_;
  std::size_t i_ = 0;
};

const std::set<std::string> kFixed = {"name", "family_index", "per_family_instance_index", "run_name", "run_type",
                                      "repetitions", "repetition_index", "threads", "iterations", "real_time",
                                      "cpu_time", "time_unit", "aggregate_name", "aggregate_unit", "error_occurred",
                                      "error_message", "label"};

}  // namespace

std::string benchmark_json_to_csv(const std::string& json) {
  const Json root = Parser(json).parse();
  const Json* benchmarks = root.kind == Json::kObject ? root.get("benchmarks") : nullptr;
  if (!benchmarks || benchmarks->kind != Json::kArray)
    throw InputError("benchmark JSON has no \"benchmarks\" array (write it with --benchmark_out_format=json)");
  std::set<std::string> counters;
  for (const auto& b : benchmarks->items)
    for (std::size_t i = 0; i < b.keys.size(); ++i)
      if (!kFixed.count(b.keys[i]) && b.values[i].kind == Json::kNumber) counters.insert(b.keys[i]);
  std::vector<std::string> header = {"name",      "family",   "run_type", "aggregate_name", "repetitions",
                                     "iterations", "real_time", "cpu_time", "time_unit"};
  header.insert(header.end(), counters.begin(), counters.end());
  for (const char* c : {"date", "num_cpus", "mhz_per_cpu", "library_build_type"}) header.emplace_back(c);
  CsvTable t(header);
  const Json* context = root.get("context");
  auto text = [](const Json* object, const std::string& key) {
    const Json* v = object ? object->get(key) : nullptr;
    return v && v->kind != Json::kNull ? v->text : std::string();
  };
  for (const auto& b : benchmarks->items) {
    if (b.kind != Json::kObject) throw InputError("benchmark JSON: an entry of \"benchmarks\" is not an object");
    const std::string name = text(&b, "name");
    std::vector<std::string> row = {name,
                                    name.substr(0, name.find('/')),
                                    text(&b, "run_type"),
                                    text(&b, "aggregate_name"),
                                    text(&b, "repetitions"),
                                    text(&b, "iterations"),
                                    text(&b, "real_time"),
                                    text(&b, "cpu_time"),
                                    text(&b, "time_unit")};
    for (const auto& c : counters) row.push_back(text(&b, c));
    for (const char* c : {"date", "num_cpus", "mhz_per_cpu", "library_build_type"}) row.push_back(text(context, c));
    t.add_row(std::move(row));
  }
  return t.str();
}

}  // namespace stategraph
