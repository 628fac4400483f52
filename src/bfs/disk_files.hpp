// Internal: the data files of the variants that keep their arrays on disk (disk.cpp,
// thin.cpp): sequential writes against a test seam's byte budget, one syncfs per folder,
// and buffered sequential reads. Errors are std::runtime_error naming the file.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "stategraph/bfs/offset_codec.hpp"
#include "stategraph/io/files.hpp"

namespace stategraph {

inline constexpr std::uint64_t kIoBufferBytes = std::uint64_t{4} << 20;  // a reader's buffer

// Bytes written by one disk BFS, against DiskSettings::write_limit (a test seam: a write
// past it fails with ENOSPC, as on a full disk).
struct WriteBudget {
  std::uint64_t written = 0;
  std::uint64_t limit = 0;
};

// A data file of ours, written sequentially and fsynced before the manifest that names
// it is committed. Errors are std::runtime_error "cannot write disk BFS file P: reason".
class OutFile {
 public:
  OutFile(std::filesystem::path path, bool append, WriteBudget& budget) : path_(std::move(path)), budget_(budget) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC) | O_CLOEXEC, 0644);
    if (fd_ < 0) throw std::runtime_error(file_error("create", "disk BFS file", path_, errno));
  }
  OutFile(const OutFile&) = delete;
  OutFile& operator=(const OutFile&) = delete;
  ~OutFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  void write(const void* data, std::uint64_t bytes) {
    WriteBudget& budget = budget_;
    const auto* p = static_cast<const std::uint8_t*>(data);
    while (bytes > 0) {
      const std::size_t piece = static_cast<std::size_t>(std::min<std::uint64_t>(bytes, std::uint64_t{1} << 26));
      if (budget.limit && budget.written + piece > budget.limit)
        throw std::runtime_error(file_error("write", "disk BFS file", path_, ENOSPC));
      const ssize_t got = ::write(fd_, p, piece);
      if (got < 0) {
        if (errno == EINTR) continue;
        throw std::runtime_error(file_error("write", "disk BFS file", path_, errno));
      }
      p += got, bytes -= static_cast<std::uint64_t>(got), budget.written += static_cast<std::uint64_t>(got);
      written_ += static_cast<std::uint64_t>(got);
    }
  }
  // Closes the file; its data reaches the disk with the pass's sync_folder_fs().
  void close() {
    if (::close(fd_) != 0) {
      fd_ = -1;
      throw std::runtime_error(file_error("close", "disk BFS file", path_, errno));
    }
    fd_ = -1;
  }
  std::uint64_t written() const { return written_; }

 private:
  std::filesystem::path path_;
  WriteBudget& budget_;
  int fd_ = -1;
  std::uint64_t written_ = 0;
};

// A file of one bitmap frame {tag, payload bytes, words} whose bits are set in place: made
// whole at once (its blocks allocated, zero, counted against the budget, so that a full
// disk fails here and not in the middle of a patch), then ORed into a block of
// kPatchWords words at a time (pread, OR, pwrite), the offsets in ascending order so that
// each block is read and written once per sweep. Errors as OutFile's.
class BitmapFile {
 public:
  static constexpr std::uint64_t kPatchWords = 8192;  // 64 KiB
  static constexpr std::uint64_t kHeaderBytes = 9;
  // create: a new file of `words` zero words (replacing any); else the existing one.
  BitmapFile(std::filesystem::path path, std::uint64_t words, bool create, WriteBudget& budget)
      : path_(std::move(path)), words_(words), block_(kPatchWords) {
    fd_ = ::open(path_.c_str(), O_RDWR | O_CLOEXEC | (create ? O_CREAT | O_TRUNC : 0), 0644);
    if (fd_ < 0) throw std::runtime_error(file_error(create ? "create" : "open", "disk BFS file", path_, errno));
    if (!create) return;
    const std::uint64_t bytes = kHeaderBytes + 8 * words;
    if (budget.limit && budget.written + bytes > budget.limit) fail(ENOSPC);
    if (const int err = ::posix_fallocate(fd_, 0, static_cast<off_t>(bytes)); err != 0) fail(err);
    budget.written += bytes;
    std::uint8_t header[kHeaderBytes] = {bfs::kOffsetsBitmap};
    const std::uint64_t payload = 8 * words;
    std::memcpy(header + 1, &payload, 8);
    if (::pwrite(fd_, header, kHeaderBytes, 0) != static_cast<ssize_t>(kHeaderBytes)) fail(errno);
    written_ += kHeaderBytes;
  }
  BitmapFile(const BitmapFile&) = delete;
  BitmapFile& operator=(const BitmapFile&) = delete;
  ~BitmapFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  // Sets the bits m of word w; words in ascending order within a sweep.
  void or_word(std::uint64_t w, std::uint64_t m) {
    if (w >= words_) throw std::runtime_error("disk BFS file " + path_.string() + ": an offset past its bitmap");
    const std::uint64_t b = w / kPatchWords;
    if (b != at_) load(b);
    block_[w - b * kPatchWords] |= m;
    dirty_ = true;
  }
  void set(std::uint64_t offset) { or_word(offset >> 6, std::uint64_t{1} << (offset & 63)); }
  // Writes the block held, closes; the data reaches the disk with the pass's sync_folder_fs().
  void close() {
    store();
    at_ = kNone;
    if (::close(fd_) != 0) {
      fd_ = -1;
      fail(errno);
    }
    fd_ = -1;
  }
  std::uint64_t bytes_read() const { return read_; }
  std::uint64_t bytes_written() const { return written_; }

 private:
  static constexpr std::uint64_t kNone = ~std::uint64_t{0};
  [[noreturn]] void fail(int err) const { throw std::runtime_error(file_error("write", "disk BFS file", path_, err)); }
  std::uint64_t block_words(std::uint64_t b) const { return std::min(kPatchWords, words_ - b * kPatchWords); }
  off_t block_at(std::uint64_t b) const { return static_cast<off_t>(kHeaderBytes + 8 * b * kPatchWords); }
  void load(std::uint64_t b) {
    store();
    const std::uint64_t bytes = 8 * block_words(b);
    if (::pread(fd_, block_.data(), bytes, block_at(b)) != static_cast<ssize_t>(bytes))
      throw std::runtime_error(file_error("read", "disk BFS file", path_, errno ? errno : EIO));
    read_ += bytes;
    at_ = b;
  }
  void store() {
    if (at_ == kNone || !dirty_) return;
    const std::uint64_t bytes = 8 * block_words(at_);
    if (::pwrite(fd_, block_.data(), bytes, block_at(at_)) != static_cast<ssize_t>(bytes)) fail(errno ? errno : EIO);
    written_ += bytes;
    dirty_ = false;
  }
  std::filesystem::path path_;
  std::uint64_t words_;
  std::vector<std::uint64_t> block_;
  int fd_ = -1;
  std::uint64_t at_ = kNone;
  bool dirty_ = false;
  std::uint64_t read_ = 0, written_ = 0;
};

// Every file written so far on the folder's file system reaches the disk (one syncfs per
// pass instead of an fsync per file: a pass of many small segments writes hundreds).
inline void sync_folder_fs(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(file_error("open", "disk BFS folder", dir, errno));
  const int rc = ::syncfs(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) throw std::runtime_error(file_error("sync", "disk BFS folder", dir, err));
}

// A data file read sequentially through a buffer of kIoBufferBytes, or of the file's size
// when it is smaller (a pass of many small segments opens hundreds of small files), not
// zeroed: a 4 MiB memset per file was a quarter of a 28-segment test run's time.
class InFile {
 public:
  explicit InFile(std::filesystem::path path) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw std::runtime_error(file_error("open", "disk BFS file", path_, errno));
    struct stat st {};
    std::uint64_t size = kIoBufferBytes;
    if (::fstat(fd_, &st) == 0 && st.st_size >= 0)
      size = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(st.st_size), 1, kIoBufferBytes);
    buffer_ = std::make_unique_for_overwrite<std::uint8_t[]>(size), size_ = size;
  }
  InFile(const InFile&) = delete;
  InFile& operator=(const InFile&) = delete;
  ~InFile() { ::close(fd_); }
  const std::filesystem::path& path() const { return path_; }
  std::uint64_t bytes_read() const { return read_; }
  // Reads exactly `bytes` into `out`; false at a clean end of file before the first byte.
  bool read(void* out, std::uint64_t bytes) {
    auto* p = static_cast<std::uint8_t*>(out);
    const std::uint64_t wanted = bytes;
    while (bytes > 0) {
      if (pos_ == end_ && !fill()) {
        if (bytes == wanted) return false;
        throw std::runtime_error("disk BFS file " + path_.string() + " ends in the middle of a record");
      }
      const std::uint64_t take = std::min<std::uint64_t>(bytes, end_ - pos_);
      std::memcpy(p, buffer_.get() + pos_, take);
      p += take, pos_ += take, bytes -= take;
    }
    return true;
  }
  std::uint8_t byte() {
    if (pos_ == end_ && !fill())
      throw std::runtime_error("disk BFS file " + path_.string() + " ends in the middle of a record");
    return buffer_[pos_++];
  }

 private:
  bool fill() {
    for (;;) {
      const ssize_t got = ::read(fd_, buffer_.get(), size_);
      if (got < 0) {
        if (errno == EINTR) continue;
        throw std::runtime_error(file_error("read", "disk BFS file", path_, errno));
      }
      pos_ = 0, end_ = static_cast<std::uint64_t>(got), read_ += end_;
      return got > 0;
    }
  }
  std::filesystem::path path_;
  int fd_ = -1;
  std::unique_ptr<std::uint8_t[]> buffer_;
  std::uint64_t size_ = 0, pos_ = 0, end_ = 0, read_ = 0;
};

}  // namespace stategraph
