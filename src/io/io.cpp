#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "stategraph/io/io.hpp"
#include "stategraph/core/state.hpp"

namespace stategraph {

void CsvTable::add_row(std::vector<std::string> row) {
  if (row.size() != header_.size()) throw std::logic_error("CSV row width does not match its header");
  rows_.push_back(std::move(row));
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string fmt_double(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 10);
  return std::string(buf, res.ptr);
}

std::string CsvTable::str() const {
  std::string out;
  auto line = [&](const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + csv_field(fields[i]);
    out += '\n';
  };
  line(header_);
  for (const auto& r : rows_) line(r);
  return out;
}

CsvData parse_csv(const std::string& text, const std::string& what) {
  CsvData data;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, any = false;
  int line = 1;
  auto end_row = [&] {
    row.push_back(field);
    field.clear();
    if (data.header.empty()) data.header = row;
    else if (row.size() != data.header.size())
      throw InputError(what + ", line " + std::to_string(line) + ": " + std::to_string(row.size()) + " fields, header has " +
                       std::to_string(data.header.size()));
    else data.rows.push_back(row);
    row.clear();
    any = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c, line += c == '\n';
    } else if (c == '"') quoted = any = true;
    else if (c == ',') row.push_back(field), field.clear(), any = true;
    else if (c == '\n') end_row(), ++line;
    else if (c != '\r') field += c, any = true;
  }
  if (quoted) throw InputError(what + ": unterminated quoted field");
  if (any || !field.empty()) end_row();
  if (data.header.empty()) throw InputError(what + ": empty file");
  return data;
}

std::size_t CsvData::column(const std::string& name, const std::string& what) const {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  throw InputError(what + " has no column '" + name + "'");
}

namespace {
[[noreturn]] void fail(const std::string& what, const std::filesystem::path& p, int err) {
  throw std::runtime_error("cannot " + what + " " + p.string() + ": " + std::strerror(err));
}
}  // namespace

void FileSet::stage(const std::string& name, const std::string& content) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) fail("create folder", dir_, ec.value());
  const auto final_path = dir_ / name;
  auto tmp = final_path;
  tmp += ".tmp." + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("write", tmp, errno);
  staged_.emplace_back(tmp, final_path);
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t w = ::write(fd, p, left);
    if (w < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      fail("write", tmp, err);
    }
    p += w;
    left -= static_cast<std::size_t>(w);
  }
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    fail("sync", tmp, err);
  }
  if (::close(fd) != 0) fail("close", tmp, errno);
}

void FileSet::commit() {
  for (const auto& [tmp, final_path] : staged_)
    if (std::rename(tmp.c_str(), final_path.c_str()) != 0) fail("rename into", final_path, errno);
  staged_.clear();
}

FileSet::~FileSet() {
  for (const auto& [tmp, final_path] : staged_) ::unlink(tmp.c_str());
}

void write_file_atomic(const std::filesystem::path& path, const std::string& content) {
  FileSet files(path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path());
  files.stage(path.filename().string(), content);
  files.commit();
}

}  // namespace stategraph
