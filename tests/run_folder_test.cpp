#include "stategraph/io/run_folder.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "stategraph/io/io.hpp"

namespace stategraph {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
void put(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}
std::set<std::string> names(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}

class RunFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("run_folder_test." + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  RunRecord record() const {
    RunRecord r;
    r.command = "analyze";
    r.rule = "rotate";
    r.rows = 2;
    r.cols = 3;
    r.notes = "a note, with a comma";
    return r;
  }
  fs::path root_;
};

TEST_F(RunFolderTest, FirstRunWritesItsFilesAndAManifest) {
  const fs::path out = root_ / "rotate-2x3";
  {
    RunFolder run(out);
    run.write("summary.csv", "a\n1\n");
    run.write("levels.csv", "b\n2\n");
    run.commit(record());
  }
  EXPECT_EQ(names(out), (std::set<std::string>{"levels.csv", "run.csv", "summary.csv"}));
  EXPECT_EQ(names(root_), (std::set<std::string>{"rotate-2x3"}));  // no staging folder left
  const CsvData csv = parse_csv(slurp(out / "run.csv"), "run.csv");
  ASSERT_EQ(csv.rows.size(), 1u);
  EXPECT_EQ(csv.rows[0][csv.column("files", "")], "levels.csv;summary.csv");
  EXPECT_EQ(csv.rows[0][csv.column("schema_version", "")], std::to_string(kRunSchemaVersion));
  EXPECT_EQ(csv.rows[0][csv.column("rule", "")], "rotate");
  EXPECT_FALSE(csv.rows[0][csv.column("cores", "")].empty());
  EXPECT_FALSE(csv.rows[0][csv.column("kernel", "")].empty());
  EXPECT_EQ(csv.rows[0][csv.column("notes", "")], "a note, with a comma");  // quoted and read back
  EXPECT_EQ(csv.header.back(), "files");
}

TEST_F(RunFolderTest, ANewRunReplacesOnlyWhatStategraphWrote) {
  const fs::path out = root_ / "r";
  {
    RunFolder run(out);
    run.write("a.csv", "old");
    run.write("b.csv", "old");
    run.commit(record());
  }
  put(out / "README.md", "mine");
  put(out / "notes" / "log.txt", "also mine");
  {
    RunFolder run(out);
    run.write("a.csv", "new");
    run.write("c.csv", "new");
    run.commit(record());
  }
  EXPECT_EQ(names(out), (std::set<std::string>{"README.md", "a.csv", "c.csv", "notes", "run.csv"}));
  EXPECT_EQ(slurp(out / "a.csv"), "new");
  EXPECT_EQ(slurp(out / "README.md"), "mine");
  EXPECT_EQ(slurp(out / "notes" / "log.txt"), "also mine");
  EXPECT_EQ(names(root_), (std::set<std::string>{"r"}));
}

TEST_F(RunFolderTest, AFolderWithoutManifestLosesOnlyKnownOutputNames) {
  const fs::path out = root_ / "old";
  put(out / "summary.csv", "old");
  put(out / "components.csv", "old");
  put(out / "distribution.png", "old");
  put(out / "notes.txt", "mine");
  RunFolder run(out);
  run.write("summary.csv", "new");
  run.commit(record());
  EXPECT_EQ(names(out), (std::set<std::string>{"notes.txt", "run.csv", "summary.csv"}));
  EXPECT_EQ(slurp(out / "summary.csv"), "new");
}

TEST_F(RunFolderTest, UncommittedRunLeavesNothing) {
  const fs::path out = root_ / "never";
  {
    RunFolder run(out);
    run.write("summary.csv", "x");
  }
  EXPECT_FALSE(fs::exists(out));
  EXPECT_TRUE(names(root_).empty());
}

TEST_F(RunFolderTest, ARegularFileInTheWayIsRefused) {
  put(root_ / "file", "x");
  EXPECT_THROW(RunFolder(root_ / "file"), std::runtime_error);
  EXPECT_EQ(slurp(root_ / "file"), "x");
}

TEST_F(RunFolderTest, ACrashAtEveryStepLeavesTheOldSetOrTheNewOne) {
  for (int step = 1; step <= 3; ++step) {
    SCOPED_TRACE("crash at step " + std::to_string(step));
    const fs::path out = root_ / ("crash" + std::to_string(step));
    {
      RunFolder run(out);
      run.write("a.csv", "old");
      run.write("gone.csv", "old");
      run.commit(record());
    }
    put(out / "README.md", "mine");
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::setenv("STATEGRAPH_TEST_CRASH_AT", std::to_string(step).c_str(), 1);
      RunFolder run(out);
      run.write("a.csv", "new");
      run.write("b.csv", "new");
      run.commit(record());
      ::_exit(0);  // not reached: the hook ends the process inside commit
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 86);
    const std::set<std::string> old_set{"README.md", "a.csv", "gone.csv", "run.csv"};
    const std::set<std::string> new_set{"README.md", "a.csv", "b.csv", "run.csv"};
    const std::set<std::string> seen = names(out);
    if (seen == old_set) {
      EXPECT_EQ(slurp(out / "a.csv"), "old");
      EXPECT_LT(step, 3);
    } else {
      EXPECT_EQ(seen, new_set);
      EXPECT_EQ(slurp(out / "a.csv"), "new");
      EXPECT_EQ(slurp(out / "b.csv"), "new");
      EXPECT_EQ(step, 3);
    }
    // The next run clears what the dead one left beside the folder.
    {
      RunFolder run(out);
      run.write("a.csv", "next");
      run.commit(record());
    }
    EXPECT_EQ(names(out), (std::set<std::string>{"README.md", "a.csv", "run.csv"}));
  }
  for (const auto& name : names(root_)) EXPECT_EQ(name.rfind("crash", 0), 0u) << name;
}

TEST(ShellCommandLine, QuotesWhatAShellWouldSplit) {
  const char* argv[] = {"stategraph", "analyze", "--start", "* A/**B", "--out", "it's"};
  EXPECT_EQ(shell_command_line(6, argv), "stategraph analyze --start '* A/**B' --out 'it'\\''s'");
}

}  // namespace
}  // namespace stategraph
