// Bit storage over ranks: a bitset with plain and atomic (fetch_or) set, word access
// and popcount. Words are 64 bits; bit i lives in word i / 64 at bit i % 64.
// Limit: up to 2^63 bits (the word count must fit std::size_t); memory is reserved
// up front and zeroed, and a failed allocation surfaces as std::bad_alloc before any
// BFS work starts.
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>

namespace stategraph {

class Bitset {
 public:
  Bitset() = default;
  explicit Bitset(std::uint64_t bits)
      : bits_(bits), words_((bits + 63) / 64), data_(new std::uint64_t[words_]()) {}

  Bitset(Bitset&&) noexcept = default;
  Bitset& operator=(Bitset&&) noexcept = default;
  Bitset(const Bitset&) = delete;  // big buffers are never copied by accident
  Bitset& operator=(const Bitset&) = delete;

  static std::uint64_t bytes_for(std::uint64_t bits) { return (bits + 63) / 64 * 8; }

  std::uint64_t size() const { return bits_; }
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
  std::unique_ptr<std::uint64_t[]> data_;
};

}  // namespace stategraph
