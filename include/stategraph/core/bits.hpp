// Bit storage over ranks: a bitset with plain and atomic (fetch_or) set, word access
// and popcount. Words are 64 bits; bit i lives in word i / 64 at bit i % 64.
//
// Limit: up to 2^63 bits (the word count must fit std::size_t); memory is reserved
// up front and zeroed, and a failed allocation surfaces as std::bad_alloc before any
// BFS work starts. Arrays of 4 MiB and more are mapped on 2 MiB boundaries with
// transparent huge pages asked for (madvise), which spares a random access its TLB miss.
#pragma once

#include <sys/mman.h>

#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>

namespace stategraph {

// Zeroed, committed storage for `words` words (see above); freed by WordsDeleter.
struct WordsDeleter {
  void* map = nullptr;  // the mapping, when the words are mapped
  std::size_t bytes = 0;
  void operator()(std::uint64_t* p) const {
    if (map) {
      munmap(map, bytes);
    } else {
      delete[] p;
    }
  }
};
using WordsPtr = std::unique_ptr<std::uint64_t[], WordsDeleter>;

inline WordsPtr allocate_words(std::uint64_t words) {
  constexpr std::size_t kHuge = std::size_t{2} << 20, kThreshold = std::size_t{4} << 20;
  const std::size_t bytes = static_cast<std::size_t>(words) * sizeof(std::uint64_t);
  if (bytes < kThreshold) return WordsPtr(new std::uint64_t[words](), WordsDeleter{});
  const std::size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge, mapped = rounded + kHuge;
  void* map = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) throw std::bad_alloc();
  const std::uintptr_t start = (reinterpret_cast<std::uintptr_t>(map) + kHuge - 1) / kHuge * kHuge;
  auto* data = reinterpret_cast<std::uint64_t*>(start);
  madvise(data, rounded, MADV_HUGEPAGE);  // a hint: without transparent huge pages, 4 KiB pages
  std::memset(data, 0, bytes);            // commit now, not in the middle of a search
  return WordsPtr(data, WordsDeleter{map, mapped});
}

// n values of a trivially copyable T in allocate_words' storage (huge pages from 4 MiB
// on), each `value`: the arrays that random look-ups read, such as a masked search's
// distances (a page walk per look-up on 4 KiB pages).
template <class T>
class HugeArray {
 public:
  HugeArray() = default;
  explicit HugeArray(std::uint64_t n, T value = T{})
      : n_(n), words_(allocate_words((n * sizeof(T) + sizeof(std::uint64_t) - 1) / sizeof(std::uint64_t))) {
    if (value != T{})
      for (std::uint64_t i = 0; i < n; ++i) data()[i] = value;
  }
  std::uint64_t size() const { return n_; }
  T* data() { return reinterpret_cast<T*>(words_.get()); }
  const T* data() const { return reinterpret_cast<const T*>(words_.get()); }
  T& operator[](std::uint64_t i) { return data()[i]; }
  const T& operator[](std::uint64_t i) const { return data()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + n_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + n_; }
  const T& back() const { return data()[n_ - 1]; }

 private:
  std::uint64_t n_ = 0;
  WordsPtr words_;
};

class Bitset {
 public:
  Bitset() = default;
  explicit Bitset(std::uint64_t bits)
      : bits_(bits), words_((bits + 63) / 64), capacity_(words_), data_(allocate_words(words_)) {}

  Bitset(Bitset&&) noexcept = default;
  Bitset& operator=(Bitset&&) noexcept = default;
  Bitset(const Bitset&) = delete;  // big buffers are never copied by accident
  Bitset& operator=(const Bitset&) = delete;

  static std::uint64_t bytes_for(std::uint64_t bits) { return (bits + 63) / 64 * 8; }

  std::uint64_t size() const { return bits_; }
  // Words it can hold without a new allocation.
  std::uint64_t capacity_words() const { return capacity_; }
  // Becomes a set of `bits` bits in the same buffer (at most capacity_words() words):
  // the words it keeps hold what they held, the bits past `bits` in the last word are
  // not cleared.
  void reshape(std::uint64_t bits) {
    if ((bits + 63) / 64 > capacity_) throw std::length_error("Bitset::reshape past its capacity");
    bits_ = bits, words_ = (bits + 63) / 64;
  }
  std::uint64_t num_words() const { return words_; }
  std::uint64_t* words() { return data_.get(); }
  const std::uint64_t* words() const { return data_.get(); }

  bool test(std::uint64_t i) const { return (data_[i >> 6] >> (i & 63)) & 1u; }
  void set(std::uint64_t i) { data_[i >> 6] |= std::uint64_t{1} << (i & 63); }

  // Sets bit i with an atomic fetch_or; true when this call changed it from 0 to 1.
  bool atomic_set(std::uint64_t i) {
    const std::uint64_t mask = std::uint64_t{1} << (i & 63);
    std::atomic_ref<std::uint64_t> word(data_[i >> 6]);
    if (word.load(std::memory_order_relaxed) & mask) return false;  // cheap pre-check
    return (word.fetch_or(mask, std::memory_order_relaxed) & mask) == 0;
  }

  std::uint64_t count() const {
    std::uint64_t c = 0;
    for (std::uint64_t w = 0; w < words_; ++w) c += static_cast<std::uint64_t>(std::popcount(data_[w]));
    return c;
  }

  void clear() { std::memset(data_.get(), 0, words_ * sizeof(std::uint64_t)); }

 private:
  std::uint64_t bits_ = 0;
  std::uint64_t words_ = 0;
  std::uint64_t capacity_ = 0;
  WordsPtr data_;
};

}  // namespace stategraph
