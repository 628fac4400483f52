#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "stategraph/analysis.hpp"
#include "stategraph/io.hpp"

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

}  // namespace
}  // namespace stategraph
