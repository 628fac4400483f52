// Numbers and counted nouns in log lines: 3 significant digits without an exponent
// ("0.0000949 s", not "9.4949e-05 s"; whole numbers from 100 up in full) and the right
// singular or plural ("1 antipode", "2 antipodes"). Header-only; every log line uses it.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace stategraph {

// `v` with 3 significant digits in fixed notation, trailing zeros after the point dropped:
// 0.00009494 -> "0.0000949", 1.5 -> "1.5", 12.345 -> "12.3", 1234.6 -> "1235", 0 -> "0".
inline std::string sig3(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : (v < 0 ? "-inf" : "inf");
  if (v == 0) return "0";
  int decimals = 2 - static_cast<int>(std::floor(std::log10(std::fabs(v))));
  if (decimals < 0) decimals = 0;
  char buf[400];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  // Rounding may carry into a new leading digit (9.996 -> "10.00"): one decimal less then.
  if (decimals > 0 && std::fabs(std::strtod(buf, nullptr)) >= std::pow(10.0, 3 - decimals))
    std::snprintf(buf, sizeof buf, "%.*f", decimals - 1, v);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

// Seconds for a log line: "0.0000949 s".
inline std::string seconds_text(double s) { return sig3(s) + " s"; }

// "1 antipode", "2 antipodes", "0 antipodes"; `many` overrides the plural ("process", "processes").
inline std::string count_text(std::uint64_t n, std::string_view one, std::string_view many = {}) {
  const std::string noun = n == 1 ? std::string(one) : many.empty() ? std::string(one) + "s" : std::string(many);
  return std::to_string(n) + " " + noun;
}

}  // namespace stategraph
