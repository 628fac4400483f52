// Google Benchmark JSON -> CSV on nlohmann-json (Debian nlohmann-json3-dev). Floating
// numbers keep the text the JSON has ("1.5e+04" stays so, not 15000): the SAX parse
// below stores each one as a binary value holding its text, which JSON itself never
// produces, so it cannot be mistaken for a string.
#include "bench_csv.hpp"

#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "stategraph/core/state.hpp"
#include "stategraph/io/io.hpp"

namespace stategraph {
namespace {

using nlohmann::json;

// nlohmann's DOM builder, except for floating numbers (kept as their text, see above).
struct TextNumbers : nlohmann::detail::json_sax_dom_parser<json> {
  using nlohmann::detail::json_sax_dom_parser<json>::json_sax_dom_parser;
  bool number_float(json::number_float_t, const json::string_t& text) {
    json::binary_t b(std::vector<std::uint8_t>(text.begin(), text.end()));
    return binary(b);
  }
};

json parse(const std::string& text) {
  json root;
  TextNumbers sax(root, true);
  try {
    json::sax_parse(text, &sax);
  } catch (const json::exception& e) {
    throw InputError(std::string("benchmark JSON: ") + e.what());
  }
  return root;
}

bool is_number(const json& v) { return v.is_number() || v.is_binary(); }

// A value as the CSV shows it: strings without quotes, numbers as written, null empty.
std::string text(const json& object, const std::string& key) {
  if (!object.is_object()) return {};
  const auto it = object.find(key);
  if (it == object.end()) return {};
  if (it->is_string()) return it->get<std::string>();
  if (it->is_binary()) return {it->get_binary().begin(), it->get_binary().end()};
  if (it->is_number() || it->is_boolean()) return it->dump();
  return {};
}

const std::set<std::string> kFixed = {"name",
                                      "family_index",
                                      "per_family_instance_index",
                                      "run_name",
                                      "run_type",
                                      "repetitions",
                                      "repetition_index",
                                      "threads",
                                      "iterations",
                                      "real_time",
                                      "cpu_time",
                                      "time_unit",
                                      "aggregate_name",
                                      "aggregate_unit",
                                      "error_occurred",
                                      "error_message",
                                      "label"};

}  // namespace

std::string benchmark_json_to_csv(const std::string& json_text) {
  const json root = parse(json_text);
  const auto benchmarks = root.is_object() ? root.find("benchmarks") : root.end();
  if (!root.is_object() || benchmarks == root.end() || !benchmarks->is_array())
    throw InputError("benchmark JSON has no \"benchmarks\" array (write it with --benchmark_out_format=json)");
  std::set<std::string> counters;
  for (const auto& b : *benchmarks) {
    if (!b.is_object()) throw InputError("benchmark JSON: an entry of \"benchmarks\" is not an object");
    for (const auto& [key, value] : b.items())
      if (!kFixed.count(key) && is_number(value)) counters.insert(key);
  }
  std::vector<std::string> header = {"name",       "family",    "run_type", "aggregate_name", "repetitions",
                                     "iterations", "real_time", "cpu_time", "time_unit"};
  header.insert(header.end(), counters.begin(), counters.end());
  for (const char* c : {"date", "num_cpus", "mhz_per_cpu", "library_build_type"}) header.emplace_back(c);
  CsvTable t(header);
  const json context = root.value("context", json::object());
  for (const auto& b : *benchmarks) {
    const std::string name = text(b, "name");
    std::vector<std::string> row = {name,
                                    name.substr(0, name.find('/')),
                                    text(b, "run_type"),
                                    text(b, "aggregate_name"),
                                    text(b, "repetitions"),
                                    text(b, "iterations"),
                                    text(b, "real_time"),
                                    text(b, "cpu_time"),
                                    text(b, "time_unit")};
    for (const auto& c : counters) row.push_back(text(b, c));
    for (const char* c : {"date", "num_cpus", "mhz_per_cpu", "library_build_type"}) row.push_back(text(context, c));
    t.add_row(std::move(row));
  }
  return t.str();
}

}  // namespace stategraph
