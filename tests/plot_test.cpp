#include "stategraph/io/plot.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "stategraph/analysis/compare.hpp"

namespace stategraph {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The test's own image checks, independent of looks_like_png / looks_like_svg.
// PNG: 8-byte signature, first chunk IHDR of length 13, width and height > 0.
void expect_png(const fs::path& p) {
  const std::string b = slurp(p);
  ASSERT_GE(b.size(), 33u) << p;
  const unsigned char sig[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  for (int i = 0; i < 8; ++i) ASSERT_EQ(static_cast<unsigned char>(b[i]), sig[i]) << p << " byte " << i;
  auto be32 = [&](int at) {
    return (static_cast<std::uint32_t>(static_cast<unsigned char>(b[at])) << 24) |
           (static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 1])) << 16) |
           (static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 2])) << 8) |
           static_cast<unsigned char>(b[at + 3]);
  };
  EXPECT_EQ(be32(8), 13u);
  EXPECT_EQ(b.substr(12, 4), "IHDR");
  EXPECT_EQ(be32(16), 900u);  // the size render_plot asks for
  EXPECT_EQ(be32(20), 540u);
  EXPECT_EQ(b.substr(b.size() - 8, 4), "IEND");
}

// SVG: the first element after the prolog is <svg ...>, the document ends with </svg>.
void expect_svg(const fs::path& p) {
  const std::string t = slurp(p);
  std::size_t i = 0;
  while ((i = t.find('<', i)) != std::string::npos && (t[i + 1] == '?' || t[i + 1] == '!')) ++i;
  ASSERT_NE(i, std::string::npos) << p;
  EXPECT_EQ(t.substr(i, 5), "<svg ") << p;
  EXPECT_NE(t.find("xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos) << p;
  const auto end = t.find_last_not_of(" \n\r\t");
  EXPECT_EQ(t.substr(end - 5, 6), "</svg>") << p;
}

class PlotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sg_plot_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    fs::remove_all(dir_);
    ::unsetenv("STATEGRAPH_GNUPLOT");
  }
  std::vector<std::string> files() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  fs::path dir_;
};

TEST(PlotCheckTest, ImageChecksRejectOtherFiles) {
  std::string png("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\x03\x84\0\0\x02\x1c\x08\x06\0\0\0", 29);
  EXPECT_TRUE(looks_like_png(png));
  EXPECT_FALSE(looks_like_png(png.substr(0, 20)));
  std::string zero = png;
  zero[19] = 0, zero[18] = 0;  // width 0
  EXPECT_FALSE(looks_like_png(zero));
  EXPECT_FALSE(looks_like_png("GIF89a........................"));
  EXPECT_TRUE(looks_like_svg("<?xml version=\"1.0\"?>\n<!-- c -->\n<svg width=\"1\">\n</svg>\n"));
  EXPECT_FALSE(looks_like_svg("<?xml version=\"1.0\"?>\n<html><svg width=\"1\"></svg></html>"));
  EXPECT_FALSE(looks_like_svg("<svg width=\"1\">"));  // cut short
  EXPECT_FALSE(looks_like_svg("<svgx ></svg>"));
  EXPECT_FALSE(looks_like_svg(""));
}

TEST_F(PlotTest, DistributionPlotIsAValidImage) {
  if (!gnuplot_available()) GTEST_SKIP() << gnuplot_missing_message();
  for (bool log_scale : {false, true}) {
    render_plot(dir_, "distribution", "test", distribution_plot("t", {1, 4, 9, 2}, log_scale));
    expect_png(dir_ / "distribution.png");
    expect_svg(dir_ / "distribution.svg");
    const std::string script = slurp(dir_ / "distribution.gp");
    EXPECT_EQ(script.find("set logscale y") != std::string::npos, log_scale);
    EXPECT_NE(script.find("max depth 3\\n2 antipodes"), std::string::npos);
  }
  EXPECT_EQ(files(), (std::vector<std::string>{"distribution.gp", "distribution.png", "distribution.svg"}));
}

TEST_F(PlotTest, ScriptRedrawsTheImagesOnItsOwn) {
  if (!gnuplot_available()) GTEST_SKIP() << gnuplot_missing_message();
  render_plot(dir_, "d", "test", distribution_plot("t", {1, 2}, false));
  fs::remove(dir_ / "d.png");
  fs::remove(dir_ / "d.svg");
  const std::string cmd = "cd '" + dir_.string() + "' && " + gnuplot_command() + " d.gp 2>/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  expect_png(dir_ / "d.png");
  expect_svg(dir_ / "d.svg");
}

TEST_F(PlotTest, ComparePlotsAreValidImages) {
  if (!gnuplot_available()) GTEST_SKIP() << gnuplot_missing_message();
  CompareOptions o;
  for (const char* v : {"hybrid", "serial", "reference"}) o.variants.push_back(find_variant(v));
  o.threads = {1, 2};
  o.repeat = 2;
  const CompareReport r = run_compare(make_rule("sliding", 2, 3), o);
  render_plot(dir_, "compare_seconds", "test", compare_seconds_plot(r, summarize_compare(r)));
  const std::string levels = compare_levels_plot(r);
  ASSERT_FALSE(levels.empty());
  EXPECT_EQ(levels.find("'reference'"), std::string::npos);  // untimed levels left out
  render_plot(dir_, "compare_levels", "test", levels);
  for (const char* base : {"compare_seconds", "compare_levels"}) {
    expect_png(dir_ / (std::string(base) + ".png"));
    expect_svg(dir_ / (std::string(base) + ".svg"));
  }
}

TEST_F(PlotTest, FailureLeavesNothingBehind) {
  if (!gnuplot_available()) GTEST_SKIP() << gnuplot_missing_message();
  try {
    render_plot(dir_, "bad", "test", "plot $nosuchblock using 1:2\n");
    FAIL() << "no error";
  } catch (const PlotError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.gp"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(files().empty());
  ::setenv("STATEGRAPH_GNUPLOT", "/bin/true", 1);  // exits 0 but draws nothing
  EXPECT_THROW(render_plot(dir_, "d", "test", distribution_plot("t", {1}, false)), PlotError);
  EXPECT_TRUE(files().empty());
}

TEST_F(PlotTest, MissingGnuplotIsDetected) {
  ::setenv("STATEGRAPH_GNUPLOT", "/no/such/gnuplot", 1);
  EXPECT_FALSE(gnuplot_available());
  EXPECT_NE(gnuplot_missing_message().find("gnuplot-nox"), std::string::npos);
  ::setenv("STATEGRAPH_GNUPLOT", "no-such-gnuplot-program", 1);
  EXPECT_FALSE(gnuplot_available());
  EXPECT_THROW(render_plot(dir_, "d", "test", distribution_plot("t", {1}, false)), PlotError);
  EXPECT_TRUE(files().empty());
}

}  // namespace
}  // namespace stategraph
