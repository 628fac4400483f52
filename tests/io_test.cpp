#include "stategraph/io/io.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "stategraph/analysis/analysis.hpp"
#include "stategraph/bfs/memory.hpp"
#include "stategraph/io/files.hpp"
#include "stategraph/io/tables.hpp"

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
  }                                                        // dropped without commit: the staged file is removed too
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

TEST(IoTest, AddColumnExtendsHeaderAndEveryRow) {
  CsvTable t({"a"});
  t.add_row({"1"});
  t.add_row({"2"});
  t.add_column("b", {"x", "y,z"});
  EXPECT_EQ(t.str(), "a,b\n1,x\n2,\"y,z\"\n");
  EXPECT_THROW(t.add_column("c", {"only one"}), std::logic_error);
}

class FilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("sg_files_" + std::to_string(::getpid()) + "_" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(FilesTest, AtomicFileAppearsOnlyOnCommit) {
  const auto path = dir_ / "f.bin";
  {
    AtomicFile f(path, "thing");
    f.write("abc", 3);
    f.finish();
    EXPECT_FALSE(std::filesystem::exists(path));
  }  // dropped uncommitted: nothing stays
  EXPECT_TRUE(std::filesystem::is_empty(dir_));
  AtomicFile f(path);
  f.write("abc", 3);
  f.write("de", 2);
  f.commit();
  EXPECT_EQ(slurp(path), "abcde");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_), {}), 1);
  write_file_atomic(path, "replaced");
  EXPECT_EQ(slurp(path), "replaced");
}

TEST_F(FilesTest, WriteErrorsNameWhatAndWhere) {
  try {
    AtomicFile f(dir_ / "no" / "such" / "t.sgdt", "table");
    ADD_FAILURE() << "opened a file in a missing folder";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("cannot write table " + (dir_ / "no").string(), 0), 0u) << m;
    EXPECT_NE(m.find("No such file or directory"), std::string::npos) << m;
  }
}

TEST_F(FilesTest, MappedFileReadsWhatWasWritten) {
  write_file_atomic(dir_ / "a", "hello");
  const MappedFile m = MappedFile::open(dir_ / "a", "thing");
  ASSERT_EQ(m.size(), 5u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(m.data()), 5), "hello");
  std::ofstream(dir_ / "empty").close();
  EXPECT_EQ(MappedFile::open(dir_ / "empty", "thing").size(), 0u);
  EXPECT_THROW(MappedFile::open(dir_, "thing"), InputError);  // a folder
  EXPECT_THROW(MappedFile::open(dir_ / "missing", "thing"), InputError);
}

// XXH3-64's published value for empty input: the checksum is the library's XXH3.
TEST(FilesHash, IsXxh3) { EXPECT_EQ(hash_bytes("", 0), 0x2D06800538D394C2ull); }

constexpr BinaryFormat kTestFormat{{'S', 'G', 'T', 'E', 'S', 'T', '\0', '\0'}, 3, 48, "test file", "redo it"};

struct TestHeader {
  std::uint8_t common[kCommonHeaderBytes];
  std::uint64_t a, b;
};

TEST_F(FilesTest, BinaryHeaderRoundTripAndChecks) {
  const auto path = dir_ / "x.bin";
  TestHeader h{};
  h.a = 7;
  h.b = 9;
  const std::string d1 = "first piece", d2(1000, 'z');
  const ByteSpan pieces[] = {{d1.data(), d1.size()}, {d2.data(), d2.size()}};
  write_binary_file(path, kTestFormat, &h, pieces);
  EXPECT_EQ(std::filesystem::file_size(path), 48 + d1.size() + d2.size());
  std::string bytes = slurp(path);
  const BinaryView v = parse_binary(bytes.data(), bytes.size(), kTestFormat, "x");
  EXPECT_TRUE(v.checksum_ok(kTestFormat));
  ASSERT_EQ(v.data_bytes, d1.size() + d2.size());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(v.data), d1.size()), d1);
  TestHeader back;
  std::memcpy(&back, v.header, sizeof back);
  EXPECT_EQ(back.a, 7u);
  EXPECT_EQ(back.b, 9u);

  auto refused = [&](std::string b, const std::string& fragment) {
    try {
      parse_binary(b.data(), b.size(), kTestFormat, "x");
      ADD_FAILURE() << "accepted, expected: " << fragment;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("test file x: ", 0), 0u) << e.what();
    }
  };
  auto changed = [&](std::size_t at, char c) {
    std::string b = bytes;
    b[at] = c;
    return b;
  };
  refused(bytes.substr(0, 40), "too short");
  refused(bytes.substr(0, bytes.size() - 1), "truncated or padded");
  refused(bytes + "x", "truncated or padded");
  refused(changed(0, 'X'), "bad magic");
  refused(changed(8, 2), "format version 2, this build reads version 3: written by an older stategraph, redo it");
  refused(changed(8, 4), "format version 4, this build reads version 3: written by a newer stategraph");
  for (std::size_t at : {std::size_t{33}, std::size_t{48 + 3}, bytes.size() - 1}) {  // header field, data, data
    const std::string b = changed(at, static_cast<char>(bytes[at] ^ 1));
    EXPECT_FALSE(parse_binary(b.data(), b.size(), kTestFormat, "x").checksum_ok(kTestFormat)) << "byte " << at;
  }
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
