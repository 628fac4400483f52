// One run per folder: a command that writes a result folder stages all of its files in
// a hidden sibling folder and swaps that in as a whole (renameat2 RENAME_EXCHANGE), so a
// crash at any point leaves the old complete set or the new one, never a mix. Files an
// earlier stategraph run wrote (the `files` column of its run.csv, the manifest) are
// replaced; every other file in the folder (a README, a log, a script) is kept.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace stategraph {

// Provenance of one run: the row of run.csv. Empty fields stay empty in the CSV.
struct RunRecord {
  std::string version, revision;  // of the binary (the CLI knows its build)
  std::string command;            // analyze, compare, mpi
  std::string command_line;       // every argument, shell-quoted where needed
  std::string rule, start, variant;
  int rows = 0, cols = 0, threads = 0;
  double wall_seconds = 0;  // of the whole process up to the commit
  // The build and the circumstances (what compare's meta.csv also records).
  std::string started;  // UTC, when the process started
  std::string build_type, compiler, tbb_version;
  std::string load_average_before;  // /proc/loadavg's first three fields at the start
  std::string notes;                // free text, e.g. compare's thread counts and repeats
};

// run.csv's layout; bumped whenever a column is removed or changes meaning (new columns
// go before `files`, which stays last; readers find columns by name).
inline constexpr int kRunSchemaVersion = 1;

// Files earlier stategraph versions wrote before run.csv existed: in a folder without a
// manifest these count as stategraph's (replaced), anything else is kept.
const std::vector<std::string>& legacy_output_names();

// The run.csv text for `record`, with the machine (CPU model, cores, memory, kernel),
// the date (UTC), load average, CPU seconds and peak RSS of this process measured now,
// and `files`.
std::string run_csv(const RunRecord& record, const std::vector<std::string>& files);

// The command line as one string: arguments joined by spaces, each quoted for a POSIX
// shell when it holds anything but [A-Za-z0-9_./:=+,@%-].
std::string shell_command_line(int argc, const char* const* argv);

// "2026-12-05T07:10:26Z": now, in UTC.
std::string utc_now();
// /proc/loadavg's first three fields ("0.52 0.61 0.70"), empty when unreadable.
std::string load_average();

class RunFolder {
 public:
  // Stages a run whose files go to `target`; the staging folder is created beside it
  // (same file system, so the swap is a rename). Stale staging folders of dead
  // processes beside `target` are removed.
  explicit RunFolder(std::filesystem::path target);
  ~RunFolder();  // removes the staging folder when the run was not committed
  RunFolder(const RunFolder&) = delete;
  RunFolder& operator=(const RunFolder&) = delete;

  const std::filesystem::path& target() const { return target_; }
  // Where the run's files are written until commit().
  const std::filesystem::path& staging() const { return staging_; }

  // Writes one file of the run into the staging folder (whole, fsync'ed).
  void write(const std::string& name, const std::string& content);
  // Records a file that other code wrote into staging() (e.g. a plot); a name that
  // does not exist there at commit time is an error.
  void add(const std::string& name);

  // Writes run.csv (record + the file list), carries over the files of the old folder
  // that no stategraph run wrote, and swaps the new set in. Throws std::runtime_error
  // (the path and the system's reason) when the file system refuses a step.
  void commit(const RunRecord& record);

 private:
  std::filesystem::path target_, staging_;
  std::vector<std::string> files_;
  bool committed_ = false;
};

}  // namespace stategraph
