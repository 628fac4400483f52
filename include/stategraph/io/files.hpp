// Files written whole or not at all, files read through a memory mapping, and the one
// checksummed binary header that depth-table files and BFS checkpoints share. Every
// writer goes through AtomicFile (temporary name, write, fsync, rename, fsync of the
// folder) and every failure reads "cannot <verb> [<what> ]<path>: <system's reason>".
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace stategraph {

// "cannot <verb> [<what> ]<path>: <strerror(err)>", the text of every file error.
std::string file_error(std::string_view verb, std::string_view what, const std::filesystem::path& path, int err);

// One file written under "<path>.tmp.<pid>" and renamed into place by commit(); the
// temporary file is removed when the object dies uncommitted. Errors are
// std::runtime_error with file_error's text (`what` names the kind of file, may be "").
class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path path, std::string what = "");
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&&) = delete;
  AtomicFile(const AtomicFile&) = delete;
  ~AtomicFile();

  void write(const void* data, std::uint64_t bytes);
  // fsync and close; after this the file waits for rename() or commit().
  void finish();
  // Renames into place (finish() first when needed); the caller syncs the folder.
  void rename();
  // finish(), rename(), fsync of the folder: the new file survives a crash.
  void commit();
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_, tmp_;
  std::string what_;
  int fd_ = -1;
  bool pending_ = false;  // the temporary file exists
};

// Writes one file atomically.
void write_file_atomic(const std::filesystem::path& path, std::string_view content, const std::string& what = "");

// fsync of a folder (makes renames in it durable); errors are ignored, as some file
// systems refuse to sync a folder.
void sync_folder(const std::filesystem::path& dir);

// A whole file mapped read-only. InputError when it cannot be opened or is not a regular
// file (`what` names the kind in the message); std::runtime_error when mmap fails.
class MappedFile {
 public:
  static MappedFile open(const std::filesystem::path& path, const std::string& what);
  const std::uint8_t* data() const { return data_; }
  std::uint64_t size() const { return size_; }
  // Keeps the mapping alive (shared with views into it).
  const std::shared_ptr<const void>& owner() const { return owner_; }

 private:
  std::shared_ptr<const void> owner_;
  const std::uint8_t* data_ = nullptr;
  std::uint64_t size_ = 0;
};

// ---- The binary header -------------------------------------------------------------
// Native little-endian. The first 32 bytes are common to every kind:
//   0  char[8] magic (names the kind)   8  u32 format version   12 u32 header bytes
//   16 u64 data bytes (after the header) 24 u64 checksum
//   32 .. header bytes - 1: the kind's fields (zero-padded)
// checksum: XXH3-64 of the header with the checksum field zero, then the data. XXH3
// (libxxhash) hashes at memory speed and is not cryptographic: it detects corruption,
// not tampering. A file whose version is not the kind's is refused with one line that
// names both versions (and, for an older file, what to do).
inline constexpr std::size_t kCommonHeaderBytes = 32;

struct BinaryFormat {
  char magic[8];
  std::uint32_t version;
  std::uint32_t header_bytes;  // common part + the kind's fields
  const char* noun;            // "table", "checkpoint": the messages' first word
  const char* older_advice;    // appended when the file is of an older version
};

struct ByteSpan {
  const void* data;
  std::uint64_t bytes;
};

// Writes `header` (header_bytes bytes; its first 32 are filled in here: magic, version,
// sizes, checksum) and then the data pieces, atomically (AtomicFile, `noun` in errors).
void write_binary_file(const std::filesystem::path& path, const BinaryFormat& format, const void* header,
                       std::span<const ByteSpan> data);

// A binary file in memory (mapped or not): its header bytes and its data.
struct BinaryView {
  const std::uint8_t* header = nullptr;  // header_bytes bytes (memcpy them into the kind's struct)
  const std::uint8_t* data = nullptr;
  std::uint64_t data_bytes = 0;
  // Whether the checksum stored matches the header and data.
  bool checksum_ok(const BinaryFormat& format) const;
};

// Checks magic, version, header size and the file size against the header; InputError
// "<noun> <name>: ..." otherwise. The checksum is left to the caller (checksum_ok), so
// that its own field checks can come first.
BinaryView parse_binary(const void* bytes, std::uint64_t size, const BinaryFormat& format, const std::string& name);

// XXH3-64 of one buffer (e.g. a start set's ranks).
std::uint64_t hash_bytes(const void* data, std::uint64_t bytes);

}  // namespace stategraph
