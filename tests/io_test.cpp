#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "stategraph/analysis/analysis.hpp"
#include "stategraph/io/io.hpp"
#include "stategraph/bfs/memory.hpp"

namespace stategraph {
namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(IoTest, CsvQuotesOnlyWhenNeeded) {
  CsvTable t({"a", "b"});
  t.add_row({"1 2/3", "x,y"});
  t.add_row({"say \"hi\"", ""});
  EXPECT_EQ(t.str(), "a,b\n1 2/3,\"x,y\"\n\"say \"\"hi\"\"\",\n");
  EXPECT_THROW(t.add_row({"only one"}), std::logic_error);
}

TEST(IoTest, FileSetWritesAllOrNothing) {
  const auto dir = std::filesystem::temp_directory_path() / ("sg_io_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  {
    FileSet files(dir);
    files.stage("a.csv", "x\n");
    EXPECT_FALSE(std::filesystem::exists(dir / "a.csv"));  // not before commit
  }  // dropped without commit: the staged file is removed too
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  FileSet files(dir);
  files.stage("a.csv", "x\n");
  files.stage("b.csv", "y\n");
  files.commit();
  EXPECT_EQ(slurp(dir / "a.csv"), "x\n");
  EXPECT_EQ(slurp(dir / "b.csv"), "y\n");
  std::filesystem::remove_all(dir);
}

TEST(IoTest, UnwritableFolderIsAClearError) {
  FileSet files("/proc/no/such/folder");
  EXPECT_THROW(files.stage("a.csv", "x"), std::runtime_error);
}

TEST(IoTest, DistributionColumns) {
  BfsResult r;
  r.layers = {1, 3, 4};
  const CsvTable t = distribution_table(r);
  EXPECT_EQ(t.str(), "depth,states,cumulative,fraction\n0,1,1,0.125\n1,3,4,0.375\n2,4,8,0.5\n");
}

TEST(Memory, ParseBytes) {
  EXPECT_EQ(parse_bytes("4096"), 4096u);
  EXPECT_EQ(parse_bytes("512K"), 512u * 1024);
  EXPECT_EQ(parse_bytes("512kib"), 512u * 1024);
  EXPECT_EQ(parse_bytes("3GB"), 3ull << 30);
  EXPECT_EQ(parse_bytes("1.5G"), 3ull << 29);
  EXPECT_EQ(parse_bytes("2T"), 2ull << 40);
  for (const char* bad : {"", ".", "G", "1..5G", "-1G", "12Q", "0", "0.1", "9000000T", "1e5", " 5"})
    EXPECT_THROW(parse_bytes(bad), InputError) << "'" << bad << "'";
}

TEST(Memory, FormatBytes) {
  EXPECT_EQ(format_bytes(0), "0 B");
  EXPECT_EQ(format_bytes(1023), "1023 B");
  EXPECT_EQ(format_bytes(1536), "1.50 KiB");
  EXPECT_EQ(format_bytes(5ull << 40), "5.00 TiB");
}

// The memory figures as checks of what each variant says it needs on a
// 12-cell space: bitset variants at most 3 bits per rank plus per-thread buffers,
// twobit at most 2 bits per rank plus the same.
TEST(Memory, BitsPerRankOfEachVariant) {
  const AnyRule rule = make_rule("rotate", 3, 4);
  const double ranks = static_cast<double>(rule_size(rule));
  const double slack = 64.0 * 1024 * 1024;  // per-thread batches and bookkeeping
  for (const char* name : {"topdown", "bottomup", "hybrid"})
    EXPECT_LE(static_cast<double>(find_variant(name).bytes_needed(rule, BfsOptions{})), 3 * ranks / 8 + slack) << name;
  const double twobit = static_cast<double>(find_variant("twobit").bytes_needed(rule, BfsOptions{}));
  EXPECT_LE(twobit, 2 * ranks / 8 + slack);
  EXPECT_GE(twobit, 2 * ranks / 8);
}

TEST(Memory, AutoPicksTheFastestVariantThatFits) {
  const AnyRule rule = make_rule("rotate", 3, 4);
  const BfsOptions o;
  const std::uint64_t hybrid = find_variant("hybrid").bytes_needed(rule, o);
  const std::uint64_t twobit = find_variant("twobit").bytes_needed(rule, o);
  ASSERT_LT(twobit, hybrid);
  EXPECT_EQ(choose_variant("auto", rule, o, ~std::uint64_t{0}, "test").name, "hybrid");
  EXPECT_EQ(choose_variant("auto", rule, o, hybrid, "test").name, "hybrid");
  const std::uint64_t topdown = find_variant("topdown").bytes_needed(rule, o);
  if (topdown >= hybrid) EXPECT_EQ(choose_variant("auto", rule, o, hybrid - 1, "test").name, "twobit");
  EXPECT_EQ(choose_variant("auto", rule, o, twobit, "test").name, "twobit");
  EXPECT_THROW(choose_variant("auto", rule, o, twobit - 1, "test"), InputError);
  EXPECT_THROW(choose_variant("hybrid", rule, o, hybrid - 1, "test"), InputError);
  EXPECT_EQ(choose_variant("serial", make_rule("rotate", 3, 3), o, ~std::uint64_t{0}, "test").name, "serial");
  EXPECT_THROW(choose_variant("nosuch", rule, o, ~std::uint64_t{0}, "test"), InputError);
}

}  // namespace
}  // namespace stategraph
