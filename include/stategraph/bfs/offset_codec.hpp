// Sets of block offsets in bytes: what stategraph-mpi sends to the owner of a block and
// what the disk variant appends to a segment's update file. One encoded set is a tag
// byte and then either the sorted offsets as LEB128 varint deltas or the destination
// block's whole bitmap (little-endian 64-bit words), whichever is smaller.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace stategraph::bfs {

inline constexpr std::uint8_t kOffsetsVarint = 1;  // sorted offsets as LEB128 varint deltas
inline constexpr std::uint8_t kOffsetsBitmap = 2;  // the destination block's bitmap, whole words

inline std::uint64_t offset_words(std::uint64_t bits) { return (bits + 63) / 64; }

// Bytes of the varint deltas of sorted offsets.
template <class T>
std::size_t varint_bytes(const std::vector<T>& v) {
  std::size_t s = 0;
  T prev = 0;
  for (T x : v) {
    std::uint64_t d = x - prev;
    prev = x;
    do ++s, d >>= 7;
    while (d);
  }
  return s;
}

// Appends one destination's sorted, distinct block offsets to `out` in the cheaper of
// the two encodings (dest_words: the words of the destination block's bitmap); `bitmap`
// is scratch space. Nothing is appended for an empty batch.
template <class T>
void encode_offsets(const std::vector<T>& batch, std::uint64_t dest_words, std::vector<std::uint8_t>& out,
                    std::vector<std::uint64_t>& bitmap) {
  if (batch.empty()) return;
  const std::size_t as_varint = 1 + varint_bytes(batch);
  const std::size_t as_bitmap = 1 + 8 * dest_words;
  const std::size_t at = out.size();
  if (as_varint <= as_bitmap) {
    out.resize(at + as_varint);
    std::uint8_t* p = out.data() + at;
    *p++ = kOffsetsVarint;
    T prev = 0;
    for (T x : batch) {
      std::uint64_t v = x - prev;
      prev = x;
      while (v >= 0x80) *p++ = static_cast<std::uint8_t>(v | 0x80), v >>= 7;
      *p++ = static_cast<std::uint8_t>(v);
    }
  } else {
    bitmap.assign(dest_words, 0);
    for (T x : batch) bitmap[x >> 6] |= std::uint64_t{1} << (x & 63);
    out.resize(at + as_bitmap);
    out[at] = kOffsetsBitmap;
    std::memcpy(out.data() + at + 1, bitmap.data(), 8 * dest_words);
  }
}

// Calls f(offset) for the `bytes` bytes of varint deltas that next() returns one by one
// (an encoded set's payload, in memory or streamed from a file); std::runtime_error
// "<source>: ..." on a malformed list or an offset at or past `local`. `max_bits`: the
// widest offset expected.
template <class NextByte, class F>
void for_each_varint_offset(NextByte&& next, std::uint64_t bytes, std::uint64_t local, F&& f, const std::string& source,
                            int max_bits) {
  std::uint64_t l = 0;
  while (bytes > 0) {
    std::uint64_t d = 0;
    for (int shift = 0;; shift += 7) {
      if (bytes == 0 || shift >= max_bits) throw std::runtime_error(source + ": malformed varint list");
      const std::uint8_t b = next();
      --bytes;
      d |= static_cast<std::uint64_t>(b & 0x7F) << shift;
      if (!(b & 0x80)) break;
    }
    l += d;
    if (l >= local) throw std::runtime_error(source + ": a rank outside its block");
    f(l);
  }
}

// Calls f(offset) for every offset of one encoded set of `size` bytes, in ascending
// order; std::runtime_error "<source>: ..." on a malformed set or an offset at or past
// `local` (the destination block's size). `max_bits`: the widest offset expected.
template <class F>
void for_each_offset(const std::uint8_t* msg, std::size_t size, std::uint64_t local, F&& f,
                     const std::string& source = "received message", int max_bits = 32) {
  if (size == 0) return;
  if (msg[0] == kOffsetsVarint) {
    const std::uint8_t* p = msg + 1;
    for_each_varint_offset([&] { return *p++; }, size - 1, local, f, source, max_bits);
  } else if (msg[0] == kOffsetsBitmap) {
    const std::size_t words = (size - 1) / 8;
    if (words != offset_words(local) || (size - 1) % 8) throw std::runtime_error(source + ": bitmap of the wrong size");
    for (std::size_t w = 0; w < words; ++w) {
      std::uint64_t m;
      std::memcpy(&m, msg + 1 + 8 * w, 8);
      for (; m; m &= m - 1) f(w * 64 + static_cast<unsigned>(std::countr_zero(m)));
    }
  } else {
    throw std::runtime_error(source + ": unknown encoding");
  }
}

}  // namespace stategraph::bfs
