// Atomic writes, memory-mapped reads and the checksummed binary header (files.hpp).
#include "stategraph/io/files.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "stategraph/core/state.hpp"

namespace stategraph {

std::string file_error(std::string_view verb, std::string_view what, const std::filesystem::path& path, int err) {
  std::string s = "cannot " + std::string(verb) + " ";
  if (!what.empty()) s += std::string(what) + " ";
  return s + path.string() + ": " + std::strerror(err);
}

namespace {

[[noreturn]] void fail(std::string_view verb, std::string_view what, const std::filesystem::path& path, int err) {
  throw std::runtime_error(file_error(verb, what, path, err));
}

std::filesystem::path folder_of(const std::filesystem::path& path) {
  return path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
}

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path path, std::string what) : path_(std::move(path)), what_(std::move(what)) {
  tmp_ = path_;
  tmp_ += ".tmp." + std::to_string(::getpid());
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) fail("write", what_, tmp_, errno);
  pending_ = true;
}

AtomicFile::AtomicFile(AtomicFile&& o) noexcept
    : path_(std::move(o.path_)), tmp_(std::move(o.tmp_)), what_(std::move(o.what_)), fd_(o.fd_), pending_(o.pending_) {
  o.fd_ = -1;
  o.pending_ = false;
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (pending_) ::unlink(tmp_.c_str());
}

void AtomicFile::write(const void* data, std::uint64_t bytes) {
  const auto* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t w = ::write(fd_, p, std::min<std::uint64_t>(bytes, std::uint64_t{1} << 30));
    if (w < 0) {
      if (errno == EINTR) continue;
      fail("write", what_, tmp_, errno);
    }
    p += w;
    bytes -= static_cast<std::uint64_t>(w);
  }
}

void AtomicFile::finish() {
  if (fd_ < 0) return;
  if (::fsync(fd_) != 0) fail("sync", what_, tmp_, errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("close", what_, tmp_, errno);
}

void AtomicFile::rename() {
  finish();
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) fail("rename into", what_, path_, errno);
  pending_ = false;
}

void AtomicFile::commit() {
  rename();
  sync_folder(folder_of(path_));
}

void sync_folder(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

void write_file_atomic(const std::filesystem::path& path, std::string_view content, const std::string& what) {
  AtomicFile f(path, what);
  f.write(content.data(), content.size());
  f.commit();
}

MappedFile MappedFile::open(const std::filesystem::path& path, const std::string& what) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(file_error("open", what, path, errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw InputError(file_error("stat", what, path, errno));
  if (!S_ISREG(st.st_mode)) throw InputError(what + " " + path.string() + ": not a regular file");
  MappedFile m;
  m.size_ = static_cast<std::uint64_t>(st.st_size);
  if (m.size_ == 0) return m;  // mmap refuses length 0; the parser reports the empty file
  void* addr = ::mmap(nullptr, static_cast<std::size_t>(m.size_), PROT_READ, MAP_PRIVATE, fd, 0);
  if (addr == MAP_FAILED) throw std::runtime_error(file_error("map", what, path, errno));
  ::madvise(addr, static_cast<std::size_t>(m.size_), MADV_WILLNEED);  // read whole: checksum first
  const std::size_t bytes = static_cast<std::size_t>(m.size_);
  m.owner_ = std::shared_ptr<const void>(addr, [bytes](const void* a) { ::munmap(const_cast<void*>(a), bytes); });
  m.data_ = static_cast<const std::uint8_t*>(addr);
  return m;
}

// ---- The binary header ---------------------------------------------------------------

namespace {

struct CommonHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t header_bytes;
  std::uint64_t data_bytes;
  std::uint64_t checksum;
};
static_assert(sizeof(CommonHeader) == kCommonHeaderBytes);
constexpr std::size_t kChecksumOffset = offsetof(CommonHeader, checksum);

// XXH3-64 of the header (checksum field read as zero) and then `data_bytes` of data.
std::uint64_t checksum_of(const std::uint8_t* header, std::size_t header_bytes, const ByteSpan* pieces,
                          std::size_t count) {
  struct State {
    XXH3_state_t* s = XXH3_createState();
    ~State() { XXH3_freeState(s); }
  } st;
  if (st.s == nullptr) throw std::bad_alloc();
  XXH3_64bits_reset(st.s);
  const std::uint64_t zero = 0;
  XXH3_64bits_update(st.s, header, kChecksumOffset);
  XXH3_64bits_update(st.s, &zero, sizeof zero);
  XXH3_64bits_update(st.s, header + kChecksumOffset + 8, header_bytes - kChecksumOffset - 8);
  for (std::size_t i = 0; i < count; ++i) XXH3_64bits_update(st.s, pieces[i].data, pieces[i].bytes);
  return XXH3_64bits_digest(st.s);
}

}  // namespace

std::uint64_t hash_bytes(const void* data, std::uint64_t bytes) { return XXH3_64bits(data, bytes); }

void write_binary_file(const std::filesystem::path& path, const BinaryFormat& format, const void* header,
                       std::span<const ByteSpan> data) {
  std::vector<std::uint8_t> h(format.header_bytes);
  std::memcpy(h.data(), header, format.header_bytes);
  CommonHeader c{};
  std::memcpy(c.magic, format.magic, sizeof c.magic);
  c.version = format.version;
  c.header_bytes = format.header_bytes;
  for (const auto& piece : data) c.data_bytes += piece.bytes;
  std::memcpy(h.data(), &c, sizeof c);
  c.checksum = checksum_of(h.data(), h.size(), data.data(), data.size());
  std::memcpy(h.data(), &c, sizeof c);
  AtomicFile f(path, format.noun);
  f.write(h.data(), h.size());
  for (const auto& piece : data) f.write(piece.data, piece.bytes);
  f.commit();
}

BinaryView parse_binary(const void* bytes, std::uint64_t size, const BinaryFormat& format, const std::string& name) {
  const std::string where = std::string(format.noun) + " " + name + ": ";
  if (size < format.header_bytes)
    throw InputError(where + std::to_string(size) + " bytes, too short for a " + format.noun + " header (truncated)");
  CommonHeader c;
  std::memcpy(&c, bytes, sizeof c);
  if (std::memcmp(c.magic, format.magic, sizeof c.magic) != 0)
    throw InputError(where + "not a stategraph " + format.noun + " (bad magic)");
  if (c.version != format.version) {
    const std::string origin = c.version < format.version
                                   ? std::string(": written by an older stategraph, ") + format.older_advice
                                   : std::string(": written by a newer stategraph");
    throw InputError(where + "format version " + std::to_string(c.version) + ", this build reads version " +
                     std::to_string(format.version) + origin);
  }
  if (c.header_bytes != format.header_bytes) throw InputError(where + "inconsistent header (header size)");
  if (c.data_bytes != size - format.header_bytes)
    throw InputError(where + "file has " + std::to_string(size) + " bytes, header says " +
                     (c.data_bytes > (std::uint64_t{1} << 62) ? std::string("more")
                                                              : std::to_string(format.header_bytes + c.data_bytes)) +
                     " (truncated or padded)");
  BinaryView v;
  v.header = static_cast<const std::uint8_t*>(bytes);
  v.data = v.header + format.header_bytes;
  v.data_bytes = c.data_bytes;
  return v;
}

bool BinaryView::checksum_ok(const BinaryFormat& format) const {
  CommonHeader c;
  std::memcpy(&c, header, sizeof c);
  const ByteSpan piece{data, data_bytes};
  return checksum_of(header, format.header_bytes, &piece, 1) == c.checksum;
}

}  // namespace stategraph
