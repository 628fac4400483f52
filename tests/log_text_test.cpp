// Log numbers and plurals (io/log_text.hpp), checked against printf's %.3g read back as
// a number: same value to 3 significant digits, never an exponent.
#include "stategraph/io/log_text.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>

namespace stategraph {
namespace {

TEST(LogText, ThreeSignificantDigitsWithoutExponent) {
  EXPECT_EQ(sig3(9.4949e-05), "0.0000949");
  EXPECT_EQ(sig3(0.0001234), "0.000123");
  EXPECT_EQ(sig3(1.5), "1.5");
  EXPECT_EQ(sig3(12.345), "12.3");
  EXPECT_EQ(sig3(9.996), "10");
  EXPECT_EQ(sig3(99.96), "100");
  EXPECT_EQ(sig3(0.0999996), "0.1");
  EXPECT_EQ(sig3(1234.6), "1235");
  EXPECT_EQ(sig3(0), "0");
  EXPECT_EQ(sig3(-0.5), "-0.5");
  EXPECT_EQ(seconds_text(0.25), "0.25 s");
}

TEST(LogText, AgreesWithPrintfG) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-9, 2.99), mantissa(1, 10);
  for (int i = 0; i < 20000; ++i) {
    const double v = mantissa(rng) * std::pow(10.0, std::floor(exponent(rng)));
    const std::string s = sig3(v);
    ASSERT_EQ(s.find_first_of("eE"), std::string::npos) << s;
    char ref[64];
    std::snprintf(ref, sizeof ref, "%.3g", v);
    // The same number as %.3g (which may use an exponent), within printing precision.
    EXPECT_DOUBLE_EQ(std::strtod(s.c_str(), nullptr), std::strtod(ref, nullptr)) << v << " -> " << s << " vs " << ref;
    std::string digits;  // the significant digits shown: at most 3
    for (char c : s)
      if (c >= '0' && c <= '9' && !(digits.empty() && c == '0')) digits += c;
    if (s.find('.') == std::string::npos) digits.erase(digits.find_last_not_of('0') + 1);
    EXPECT_LE(digits.size(), 3u) << s;
  }
}

TEST(LogText, SingularAndPlural) {
  EXPECT_EQ(count_text(1, "antipode"), "1 antipode");
  EXPECT_EQ(count_text(2, "antipode"), "2 antipodes");
  EXPECT_EQ(count_text(0, "antipode"), "0 antipodes");
  EXPECT_EQ(count_text(1, "process", "processes"), "1 process");
  EXPECT_EQ(count_text(3, "process", "processes"), "3 processes");
}

}  // namespace
}  // namespace stategraph
