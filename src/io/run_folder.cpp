#include "stategraph/io/run_folder.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "stategraph/io/io.hpp"

namespace stategraph {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& what, const fs::path& p, int err) {
  throw std::runtime_error("cannot " + what + " " + p.string() + ": " + std::strerror(err));
}

// Test hook: STATEGRAPH_TEST_CRASH_AT=k ends the process (as a kill would) at step k of
// commit(), so the tests can check what a crash there leaves behind.
void crash_point(int step) {
  const char* at = std::getenv("STATEGRAPH_TEST_CRASH_AT");
  if (at && std::atoi(at) == step) ::_exit(86);
}

void sync_dir(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail("open folder", dir, errno);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) fail("sync folder", dir, err);
}

std::string staging_prefix(const fs::path& target) { return "." + target.filename().string() + ".run-"; }

bool process_alive(long pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }

// The names an earlier run of stategraph wrote into `dir`: its run.csv's `files`
// column, or the legacy names when it has no run.csv.
std::set<std::string> earlier_outputs(const fs::path& dir) {
  std::set<std::string> out{"run.csv"};
  std::ifstream in(dir / "run.csv", std::ios::binary);
  if (!in) {
    const auto& legacy = legacy_output_names();
    out.insert(legacy.begin(), legacy.end());
    return out;
  }
  std::ostringstream text;
  text << in.rdbuf();
  const CsvData csv = parse_csv(text.str(), (dir / "run.csv").string());
  const std::size_t col = csv.column("files", (dir / "run.csv").string());
  for (const auto& row : csv.rows) {
    std::stringstream list(row.at(col));
    for (std::string name; std::getline(list, name, ';');)
      if (!name.empty()) out.insert(name);
  }
  return out;
}

// Recreates `from` at `to` with hard links (both names stay valid until the old folder
// is removed, so a crash between the two loses nothing).
void link_tree(const fs::path& from, const fs::path& to) {
  const fs::file_status st = fs::symlink_status(from);
  if (fs::is_directory(st)) {
    if (::mkdir(to.c_str(), 0755) != 0) fail("create folder", to, errno);
    for (const auto& entry : fs::directory_iterator(from)) link_tree(entry.path(), to / entry.path().filename());
  } else if (::link(from.c_str(), to.c_str()) != 0) {
    fail("keep (hard link)", from, errno);
  }
}

std::string read_first_match(const char* file, const std::string& key) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (line.compare(0, key.size(), key) == 0) {
      const auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      auto value = line.substr(colon + 1);
      value.erase(0, value.find_first_not_of(" \t"));
      return value;
    }
  return "";
}

}  // namespace

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a.empty() ? "" : a + " " + b + " " + c;
}

const std::vector<std::string>& legacy_output_names() {
  static const std::vector<std::string> names = {
      "distribution.csv",    "levels.csv",          "summary.csv",         "components.csv",     "component_sizes.csv",
      "antipodes.csv",       "mpi_levels.csv",      "distribution.gp",     "distribution.svg",   "distribution.png",
      "compare.csv",         "compare_levels.csv",  "compare_summary.csv", "meta.csv",           "compare_seconds.gp",
      "compare_seconds.svg", "compare_seconds.png", "compare_levels.gp",   "compare_levels.svg", "compare_levels.png"};
  return names;
}

std::string shell_command_line(int argc, const char* const* argv) {
  std::string out;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    const bool plain = !a.empty() && a.find_first_not_of(
                                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                         "0123456789_./:=+,@%-") == std::string::npos;
    if (i) out += ' ';
    if (plain) {
      out += a;
    } else {
      out += '\'';
      for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
      out += '\'';
    }
  }
  return out;
}

std::string run_csv(const RunRecord& r, const std::vector<std::string>& files) {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  const double cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                     static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::string mem = read_first_match("/proc/meminfo", "MemTotal");  // "24576000 kB"
  std::uint64_t mem_bytes = 0;
  if (!mem.empty()) mem_bytes = std::strtoull(mem.c_str(), nullptr, 10) * 1024;
  std::string list;
  for (const auto& f : files) list += (list.empty() ? "" : ";") + f;
  utsname un{};
  ::uname(&un);
  CsvTable t({"schema_version",
              "version",
              "revision",
              "command",
              "command_line",
              "rule",
              "rows",
              "cols",
              "start",
              "variant",
              "threads",
              "date",
              "host",
              "cpu_model",
              "cores",
              "memory_bytes",
              "wall_seconds",
              "cpu_seconds",
              "peak_rss_bytes",
              "started",
              "build_type",
              "compiler",
              "tbb_version",
              "kernel",
              "load_average_before",
              "load_average_after",
              "notes",
              "files"});
  t.add_row({std::to_string(kRunSchemaVersion),
             r.version,
             r.revision,
             r.command,
             r.command_line,
             r.rule,
             r.rows ? std::to_string(r.rows) : "",
             r.cols ? std::to_string(r.cols) : "",
             r.start,
             r.variant,
             r.threads ? std::to_string(r.threads) : "",
             utc_now(),
             host,
             read_first_match("/proc/cpuinfo", "model name"),
             std::to_string(::sysconf(_SC_NPROCESSORS_ONLN)),
             mem_bytes ? std::to_string(mem_bytes) : "",
             fmt_double(r.wall_seconds),
             fmt_double(cpu),
             std::to_string(static_cast<std::uint64_t>(usage.ru_maxrss) * 1024),
             r.started,
             r.build_type,
             r.compiler,
             r.tbb_version,
             std::string(un.sysname) + " " + un.release + " " + un.machine,
             r.load_average_before,
             load_average(),
             r.notes,
             list});
  return t.str();
}

RunFolder::RunFolder(fs::path target) : target_(std::move(target)) {
  if (target_.filename().empty()) target_ = target_.parent_path();  // "dir/" names dir
  const fs::path parent = target_.parent_path().empty() ? fs::path(".") : target_.parent_path();
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) fail("create folder", parent, ec.value());
  if (fs::exists(target_) && !fs::is_directory(target_))
    throw std::runtime_error("cannot write into " + target_.string() + ": it exists and is not a folder");
  const std::string prefix = staging_prefix(target_);
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (!process_alive(pid)) fs::remove_all(entry.path(), ec);
  }
  static std::atomic<int> counter{0};
  staging_ = parent / (prefix + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::remove_all(staging_, ec);
  if (::mkdir(staging_.c_str(), 0755) != 0) fail("create folder", staging_, errno);
}

RunFolder::~RunFolder() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(staging_, ec);
}

void RunFolder::write(const std::string& name, const std::string& content) {
  write_file_atomic(staging_ / name, content);
  add(name);
}

void RunFolder::add(const std::string& name) {
  if (std::find(files_.begin(), files_.end(), name) == files_.end()) files_.push_back(name);
}

void RunFolder::commit(const RunRecord& record) {
  std::sort(files_.begin(), files_.end());
  for (const auto& name : files_)
    if (!fs::exists(staging_ / name)) throw std::logic_error("run file " + name + " was never written");
  write_file_atomic(staging_ / "run.csv", run_csv(record, files_));
  sync_dir(staging_);
  crash_point(1);
  const fs::path parent = staging_.parent_path();
  if (!fs::exists(target_)) {
    if (std::rename(staging_.c_str(), target_.c_str()) != 0) fail("rename into", target_, errno);
    committed_ = true;
    sync_dir(parent);
    return;
  }
  // Carry over what no stategraph run wrote: hard links, so the old folder stays whole.
  const std::set<std::string> ours = earlier_outputs(target_);
  for (const auto& entry : fs::directory_iterator(target_)) {
    const std::string name = entry.path().filename().string();
    if (ours.count(name) || fs::exists(fs::symlink_status(staging_ / name))) continue;
    if (name.find(".tmp.") != std::string::npos) continue;  // a crashed writer's temporary file
    link_tree(entry.path(), staging_ / name);
  }
  sync_dir(staging_);
  crash_point(2);
  if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) != 0)
    fail("swap in the new run at", target_, errno);
  committed_ = true;  // staging_ now names the old set
  sync_dir(parent);
  crash_point(3);
  std::error_code ec;
  fs::remove_all(staging_, ec);
  if (ec) fail("remove the previous run at", staging_, ec.value());
}

}  // namespace stategraph
