#include "stategraph/io/io.hpp"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "stategraph/core/state.hpp"

namespace stategraph {

void CsvTable::add_row(std::vector<std::string> row) {
  if (row.size() != header_.size()) throw std::logic_error("CSV row width does not match its header");
  rows_.push_back(std::move(row));
}

void CsvTable::add_column(std::string name, std::vector<std::string> values) {
  if (values.size() != rows_.size()) throw std::logic_error("CSV column length does not match the table's rows");
  header_.push_back(std::move(name));
  for (std::size_t i = 0; i < rows_.size(); ++i) rows_[i].push_back(std::move(values[i]));
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

CsvData read_csv_file(const std::filesystem::path& path) {
  if (std::filesystem::is_directory(path)) throw InputError(path.string() + " is a folder, not a CSV file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read " + path.string());
  std::stringstream text;
  text << in.rdbuf();
  return parse_csv(text.str(), path.string());
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
    if (data.header.empty())
      data.header = row;
    else if (row.size() != data.header.size())
      throw InputError(what + ", line " + std::to_string(line) + ": " + std::to_string(row.size()) +
                       " fields, header has " + std::to_string(data.header.size()));
    else
      data.rows.push_back(row);
    row.clear();
    any = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
        field += '"', ++i;
      else if (c == '"')
        quoted = false;
      else
        field += c, line += c == '\n';
    } else if (c == '"')
      quoted = any = true;
    else if (c == ',')
      row.push_back(field), field.clear(), any = true;
    else if (c == '\n')
      end_row(), ++line;
    else if (c != '\r')
      field += c, any = true;
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

void FileSet::stage(const std::string& name, const std::string& content) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw std::runtime_error(file_error("create folder", "", dir_, ec.value()));
  AtomicFile f(dir_ / name);
  f.write(content.data(), content.size());
  f.finish();
  staged_.push_back(std::move(f));
}

void FileSet::commit() {
  for (auto& f : staged_) f.rename();
  staged_.clear();
  sync_folder(dir_);
}

}  // namespace stategraph
