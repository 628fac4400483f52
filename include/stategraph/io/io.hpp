// Output: CSV tables (header row, one fact per column, stable names) and sets of files
// written whole or not at all. A FileSet stages every file of one result as an
// AtomicFile (files.hpp: temporary name, written and fsync'ed) and renames them into
// place only when all were written, so a failure leaves no partial result behind.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "stategraph/io/files.hpp"

namespace stategraph {

class CsvTable {
 public:
  explicit CsvTable(std::vector<std::string> header) : header_(std::move(header)) {}
  // Appends a row; must have as many fields as the header.
  void add_row(std::vector<std::string> row);
  // Appends a column after the last; `values` has one field per row.
  void add_column(std::string name, std::vector<std::string> values);
  std::string str() const;
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// Parses CSV text as CsvTable::str writes it (quoted fields, "" for a quote); the first
// row is the header. Throws InputError naming `what` and the line on a malformed row.
struct CsvData {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  // Index of a column, or InputError naming `what` when it is missing.
  std::size_t column(const std::string& name, const std::string& what) const;
};
CsvData parse_csv(const std::string& text, const std::string& what);
// The same for a file: InputError when it is a folder or cannot be read.
CsvData read_csv_file(const std::filesystem::path& path);

// Quotes a CSV field when it holds a comma, quote or line break.
std::string csv_field(const std::string& s);
// Formats a double with enough digits to read it back (no locale).
std::string fmt_double(double v);

class FileSet {
 public:
  explicit FileSet(std::filesystem::path dir) : dir_(std::move(dir)) {}  // dropped uncommitted: staged files go
  FileSet(const FileSet&) = delete;
  FileSet& operator=(const FileSet&) = delete;

  // Writes `content` to a temporary file beside `name`; throws std::runtime_error with
  // the path and the system's reason on failure.
  void stage(const std::string& name, const std::string& content);
  // Renames every staged file into place, then syncs the folder.
  void commit();

 private:
  std::filesystem::path dir_;
  std::vector<AtomicFile> staged_;
};

}  // namespace stategraph
