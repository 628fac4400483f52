#include "stategraph/bfs/memory.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace stategraph {

std::uint64_t parse_bytes(std::string_view text) {
  const std::string shown = shown_input(text);
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  const std::string number(text.substr(0, i));
  std::string unit;
  for (char c : text.substr(i)) unit += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  double scale = 0;
  if (unit.empty() || unit == "b")
    scale = 1;
  else if (unit == "k" || unit == "kb" || unit == "kib")
    scale = 1024.0;
  else if (unit == "m" || unit == "mb" || unit == "mib")
    scale = 1024.0 * 1024;
  else if (unit == "g" || unit == "gb" || unit == "gib")
    scale = 1024.0 * 1024 * 1024;
  else if (unit == "t" || unit == "tb" || unit == "tib")
    scale = 1024.0 * 1024 * 1024 * 1024;
  // A digit is required ("." alone is not a number) and strtod does not throw (std::stod
  // threw std::invalid_argument for "." and std::out_of_range for 400 digits: exit 1).
  if (number.find_first_of("0123456789") == std::string::npos || scale == 0 || number.find('.') != number.rfind('.'))
    throw InputError("bad byte count '" + shown + "' (expected e.g. 4096, 512M, 1.5G)");
  const double value = std::strtod(number.c_str(), nullptr) * scale;
  if (!(value >= 1) || value >= 9.2e18) throw InputError("byte count '" + shown + "' out of range");
  return static_cast<std::uint64_t>(value);
}

std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.2f %s", v, units[u]);
  return buf;
}

std::uint64_t available_memory() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kb = 0;
  std::string unit;
  while (in >> key >> kb) {
    std::getline(in, unit);
    if (key == "MemAvailable:") return kb * 1024;
  }
  return 0;
}

std::vector<const VariantInfo*> auto_variants() {
  std::vector<const VariantInfo*> out;
  for (const VariantInfo& v : variant_table())
    if (v.auto_order > 0) out.push_back(&v);
  std::sort(out.begin(), out.end(), [](const auto* a, const auto* b) { return a->auto_order < b->auto_order; });
  return out;
}

const VariantInfo& choose_variant(std::string_view name, const AnyRule& rule, const BfsOptions& options,
                                  std::uint64_t limit, std::string_view limit_source) {
  const std::string space = std::string(rule_name(rule)) + " " + rule_grid(rule).label();
  const std::vector<const VariantInfo*> candidates = auto_variants();
  if (candidates.empty()) throw std::logic_error("no variant has an auto order");
  // The smallest in-memory variant (the table keeps it last among them), for the hints.
  const VariantInfo* smallest = nullptr;
  for (const VariantInfo* v : candidates)
    if (!v->on_disk) smallest = v;
  if (!smallest) throw std::logic_error("no in-memory variant has an auto order");
  const std::string disk_hint = " (or give --disk DIR: the disk variant keeps the arrays there)";
  if (name == "auto") {
    for (const VariantInfo* v : candidates) {
      if (v->on_disk && options.disk.dir.empty()) continue;  // only with a folder for its files
      if (v->bytes_needed(rule, options) <= limit) return *v;
    }
    throw InputError(space + " needs at least " + format_bytes(smallest->bytes_needed(rule, options)) + " (variant " +
                     std::string(smallest->name) + "), more than the " + format_bytes(limit) + " of " +
                     std::string(limit_source) + (options.disk.dir.empty() ? disk_hint : ""));
  }
  const VariantInfo& v = find_variant(name);
  if (v.on_disk && options.disk.dir.empty())
    throw InputError("variant " + std::string(v.name) + " needs --disk DIR, a folder for its files");
  const std::uint64_t need = v.bytes_needed(rule, options);
  if (need > limit)
    throw InputError(space + " with variant " + std::string(v.name) + " needs " + format_bytes(need) +
                     ", more than the " + format_bytes(limit) + " of " + std::string(limit_source) +
                     (v.on_disk                     ? ""
                      : v.name == smallest->name ? disk_hint
                                                 : " (try --variant " + std::string(smallest->name) + ")"));
  return v;
}

}  // namespace stategraph
