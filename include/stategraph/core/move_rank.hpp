// Lehmer ranks (perm_rank) of the states that fixed cell permutations ("moves") make from
// a state whose rank is known, without ranking each of them from scratch: what a BFS
// step asks for every neighbour of every state it scans. Two ways, per move:
//  * Digit window: a move that moves only cells in [lo, hi] changes only Lehmer digits
//    lo..hi (digit i counts the later cells holding a smaller symbol: for i < lo the set
//    of later symbols is unchanged, for i > hi everything is). One reverse pass over the
//    state gives, for every i, the symbols at cells >= i and the rank's part of digits
//    i..n-1; a move then recounts only its hi - lo + 1 digits of the moved state.
//  * Split rank: digits n-m..n-1 rank the relative order of the last m cells (the rank
//    mod m!); a move inside those cells maps that suffix rank through a table of m! rows
//    (suffix rank x move -> suffix rank), one load, and leaves the prefix's digits alone.
//  * Suffix reversal (the pancake flips of results/defs/pancake-N.tws, top at the end): a
//    move that reverses cells lo..n-1, too long for the table. After it, cell c (lo <= c)
//    is followed exactly by the cells i in [lo, c), so its new digit is L_lo(c), the number
//    of those holding a smaller symbol, and its new place has weight (c - lo)!: the moved
//    rank is r - (r mod (n-lo)!) + sum_c L_lo(c) (c - lo)!. L_lo(c) = L_lo+1(c) + [s_lo <
//    s_c], so one pass from cell n-1 down gives every reversal's digits: with AVX-512, the
//    16 cells are one vector, a step adds one compare mask, a reversal's rank one dot
//    product (reversal_ranks). Instead of a digit window's k popcounts per reversal.
// And from the rank alone (MoveRanks::Scanner), for ascending runs of ranks: a table move
// needs only the rank mod m!; a window move inside the first n-k cells changes the rank
// by an amount that depends only on those cells (the symbols at later cells count only
// as a set), i.e. is the same for the k! consecutive ranks that share them. For rules
// whose moves apply only to some states (primeswap: a swap needs a prime sum), the same
// k! ranks share the state but for its last k cells, which hold the prefix's missing
// symbols in the relative order r mod k! (a table of k! orders): the scanner rebuilds
// the state in k steps, and a move inside the first n-k cells applies or not for all
// k! states at once.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <vector>

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) && defined(__AVX512DQ__)
#include <immintrin.h>
#define STATEGRAPH_REVERSAL_SIMD 1
#else
#define STATEGRAPH_REVERSAL_SIMD 0
#endif

#include "stategraph/core/rank.hpp"
#include "stategraph/core/state.hpp"

namespace stategraph {

class MoveRanks {
 public:
  // Cells of the split's suffix by default: 8! = 40,320 rows of 16-bit entries.
  static constexpr int kDefaultSuffix = 8;

  MoveRanks() = default;
  // moves[j][i] = the cell whose symbol move j brings to cell i (t[i] = s[moves[j][i]]),
  // each a permutation of 0..n-1. suffix_cells: m of the split rank, 0 for none (every
  // move by its digit window), at most 8; -1 for min(n, kDefaultSuffix).
  MoveRanks(int n, const std::vector<std::vector<int>>& moves, int suffix_cells = -1) : n_(n) {
    check_perm_size(n);
    const int m = suffix_cells < 0 ? std::min(n, kDefaultSuffix) : suffix_cells;
    if (m > 8 || m > n) throw std::logic_error("MoveRanks: suffix of more than 8 cells or than the state has");
    if (moves.size() > 64) throw std::logic_error("MoveRanks: more than 64 moves (the move masks' width)");
    split_ = n - m;
    for (int i = 0; i < n; ++i) weight_[static_cast<std::size_t>(i)] = kFactorial[static_cast<std::size_t>(n - 1 - i)];
    std::vector<int> inside;  // moves of the table, in column order
    for (std::size_t j = 0; j < moves.size(); ++j) {
      const auto& p = moves[j];
      if (static_cast<int>(p.size()) != n) throw std::logic_error("MoveRanks: a move of the wrong size");
      Move mv;
      mv.lo = n, mv.hi = -1;
      for (int i = 0; i < n; ++i)
        if (p[static_cast<std::size_t>(i)] != i) mv.lo = std::min(mv.lo, i), mv.hi = std::max(mv.hi, i);
      if (mv.hi < 0) mv.lo = mv.hi = n - 1;  // the identity: a window of one cell changes nothing
      for (int i = mv.lo; i <= mv.hi; ++i)
        mv.src[static_cast<std::size_t>(i - mv.lo)] = static_cast<std::uint8_t>(p[static_cast<std::size_t>(i)]);
      if (m > 0 && mv.lo >= split_) {
        mv.column = static_cast<int>(inside.size());
        inside.push_back(static_cast<int>(j));
      }
      moves_.push_back(mv);
    }
    // The scanner's prefix: cells 0..n-k-1 must hold every window move; k! ranks share it.
    int window_hi = -1;
    for (const Move& mv : moves_)
      if (mv.column < 0) window_hi = std::max(window_hi, mv.hi);
    scan_k_ = window_hi < 0 ? 0 : std::min(n - 1 - window_hi, 8);
    // The filtering scanner's last cells (k, or the split's m when there is no window
    // move) and their k! relative orders, cell t in bits [4t, 4t + 4).
    state_k_ = scan_k_ ? scan_k_ : m;
    orders_.resize(kFactorial[static_cast<std::size_t>(state_k_)]);
    for (std::uint64_t o = 0; o < orders_.size(); ++o)
      orders_[o] = static_cast<std::uint32_t>(perm_unrank(o, state_k_));
    for (std::size_t j = 0; j < moves_.size(); ++j) {
      if (moves_[j].hi < n - state_k_) prefix_moves_ |= std::uint64_t{1} << j;
      if (moves_[j].column < 0) window_moves_ |= std::uint64_t{1} << j;
      column_[j] = static_cast<std::int8_t>(moves_[j].column);
      for (int c = moves_[j].hi + 1; c <= n; ++c) below_[static_cast<std::size_t>(c)] |= std::uint64_t{1} << j;
    }
    suffix_moves_ = all_moves() & ~prefix_moves_;
    for (std::size_t j = 0; j < moves_.size(); ++j) {
      const Move& mv = moves_[j];
      bool reversal = mv.column < 0 && mv.hi == n - 1 && mv.lo <= n - 2;
      for (int i = mv.lo; reversal && i <= mv.hi; ++i) reversal = p_of(moves[j], i) == mv.lo + mv.hi - i;
      if (!reversal) continue;
      Reversal v;
      v.lo = mv.lo, v.move = static_cast<int>(j);
      const std::uint64_t f = kFactorial[static_cast<std::size_t>(n - mv.lo)];
      v.inverse = 1.0 / static_cast<double>(f), v.factorial = f;
      for (int c = mv.lo; c < n; ++c) v.weight[static_cast<std::size_t>(c)] = kFactorial[static_cast<std::size_t>(c - mv.lo)];
      reversals_.push_back(v);
      reversal_moves_ |= std::uint64_t{1} << j;
    }
    std::sort(reversals_.begin(), reversals_.end(), [](const Reversal& a, const Reversal& b) { return a.lo > b.lo; });
    // Every window move a reversal: the table's suffix rank is r mod m!, without prepare().
    windows_all_reversals_ = (window_moves_ & ~reversal_moves_) == 0;
    suffix_reciprocal_ = m > 1 ? ~std::uint64_t{0} / kFactorial[static_cast<std::size_t>(m)] + 1 : 0;
    if (reversal_moves_) {
      // suffix_less_[x], byte t: how many of the last m cells before cell split + t hold a
      // smaller symbol, for the suffix order x; suffix_place_ moves byte t to byte split + t.
      suffix_less_.resize(kFactorial[static_cast<std::size_t>(m)]);
      for (std::uint64_t x = 0; x < suffix_less_.size(); ++x) {
        const State u = perm_unrank(x, m);
        std::uint64_t bytes = 0;
        for (int c = 0; c < m; ++c) {
          std::uint64_t count = 0;
          for (int i = 0; i < c; ++i) count += get_cell(u, i) < get_cell(u, c);
          bytes |= count << (8 * c);
        }
        suffix_less_[x] = bytes;
      }
#if STATEGRAPH_REVERSAL_SIMD
      alignas(16) std::array<std::int8_t, 16> place;
      for (int c = 0; c < 16; ++c) place[static_cast<std::size_t>(c)] = static_cast<std::int8_t>(c >= split_ && c < n ? c - split_ : -128);
      suffix_place_ = _mm_load_si128(reinterpret_cast<const __m128i*>(place.data()));
#endif
    }
    for (std::size_t j = 0; j < moves_.size(); ++j)
      for (int c = moves_[j].lo + 1; c <= n; ++c) touching_[static_cast<std::size_t>(c)] |= std::uint64_t{1} << j;
    columns_ = inside.size();
    if (columns_ == 0) return;
    const std::uint64_t rows = kFactorial[static_cast<std::size_t>(m)];
    table_.resize(rows * columns_);
    for (std::uint64_t x = 0; x < rows; ++x) {
      const State u = perm_unrank(x, m);  // the suffix's relative order
      for (std::size_t c = 0; c < columns_; ++c) {
        const auto& p = moves[static_cast<std::size_t>(inside[c])];
        State t = 0;
        for (int i = 0; i < m; ++i) t = set_cell(t, i, get_cell(u, p[static_cast<std::size_t>(split_ + i)] - split_));
        table_[x * columns_ + c] = static_cast<std::uint16_t>(perm_rank(t, m));
      }
    }
  }

  std::size_t moves() const { return moves_.size(); }
  // Bit j: move j moves one of the cells 0..c-1. The other moves keep the first c Lehmer
  // digits, so a state's neighbours by them stay in its block of (n-c)! ranks.
  std::uint64_t moves_touching(int c) const { return touching_[static_cast<std::size_t>(std::clamp(c, 0, n_))]; }
  // Moves ranked through the suffix table (the others by their digit window).
  std::size_t table_moves() const { return columns_; }

  // What a state's moves share: after[i] = the symbols at cells >= i (bit v for symbol
  // v), tail[i] = sum over j >= i of d_j (n-1-j)! (tail[0] is the rank).
  struct Scan {
    std::array<std::uint32_t, kMaxCells + 1> after;
    std::array<std::uint64_t, kMaxCells + 1> tail;
  };
  void prepare(State s, Scan& sc) const {
    std::uint32_t after = 0;
    std::uint64_t tail = 0;
    sc.after[static_cast<std::size_t>(n_)] = 0, sc.tail[static_cast<std::size_t>(n_)] = 0;
    for (int i = n_ - 1; i >= 0; --i) {
      const unsigned v = get_cell(s, i);
      tail += static_cast<std::uint64_t>(std::popcount(after & ((1u << v) - 1))) * weight_[static_cast<std::size_t>(i)];
      after |= 1u << v;
      sc.after[static_cast<std::size_t>(i)] = after, sc.tail[static_cast<std::size_t>(i)] = tail;
    }
  }

  // perm_rank of move j applied to s, whose rank is r and Scan sc.
  std::uint64_t rank(std::size_t j, State s, std::uint64_t r, const Scan& sc) const {
    const Move& mv = moves_[j];
    if (mv.column >= 0) {
      const std::uint64_t x = sc.tail[static_cast<std::size_t>(split_)];
      return r - x + table_[x * columns_ + static_cast<std::size_t>(mv.column)];
    }
    std::uint32_t after = sc.after[static_cast<std::size_t>(mv.hi + 1)];
    std::uint64_t sum = 0;
    for (int i = mv.hi; i >= mv.lo; --i) {
      const unsigned v = get_cell(s, mv.src[static_cast<std::size_t>(i - mv.lo)]);
      sum += static_cast<std::uint64_t>(std::popcount(after & ((1u << v) - 1))) * weight_[static_cast<std::size_t>(i)];
      after |= 1u << v;
    }
    return r - (sc.tail[static_cast<std::size_t>(mv.lo)] - sc.tail[static_cast<std::size_t>(mv.hi + 1)]) + sum;
  }

  // f(rank) for each move j, in order, that applies(j) accepts; f may return true to stop.
  template <class Applies, class F>
  void for_each_rank(State s, std::uint64_t r, Applies&& applies, F&& f) const {
    std::uint64_t moves = 0;
    for (std::size_t j = 0; j < moves_.size(); ++j) moves |= static_cast<std::uint64_t>(applies(j) ? 1 : 0) << j;
    for_each_rank_of(s, r, moves, f);
  }

  // Bit j: move j is a suffix reversal ranked by reversal_ranks (none without AVX-512).
  std::uint64_t reversal_moves() const { return STATEGRAPH_REVERSAL_SIMD ? reversal_moves_ : 0; }
  // out[j] = perm_rank of move j applied to s (rank r) for every suffix reversal j of
  // `moves`, from the smaller-symbol counts L_lo(c) of one pass down the cells (see the
  // top of this file); the AVX-512 pass when compiled in, else the same counts in scalar.
  void reversal_ranks(State s, std::uint64_t r, std::uint64_t moves, std::uint64_t* out) const {
#if STATEGRAPH_REVERSAL_SIMD
    reversal_ranks_simd(s, r, moves, out);
#else
    reversal_ranks_scalar(s, r, moves, out);
#endif
  }
  void reversal_ranks_scalar(State s, std::uint64_t r, std::uint64_t moves, std::uint64_t* out) const {
    std::array<std::uint64_t, kMaxCells> less{};  // L_i(c) after the step of cell i
    std::size_t next = 0;
    for (int i = n_ - 1; i >= 0 && next < reversals_.size(); --i) {
      const unsigned v = get_cell(s, i);
      for (int c = i + 1; c < n_; ++c) less[static_cast<std::size_t>(c)] += get_cell(s, c) > v;
      for (; next < reversals_.size() && reversals_[next].lo == i; ++next) {
        const Reversal& rv = reversals_[next];
        if (!((moves >> rv.move) & 1)) continue;
        std::uint64_t sum = 0;
        for (int c = i; c < n_; ++c) sum += less[static_cast<std::size_t>(c)] * rv.weight[static_cast<std::size_t>(c)];
        out[rv.move] = r - rv.remainder(r) + sum;
      }
    }
  }
#if STATEGRAPH_REVERSAL_SIMD
// GCC 12's AVX-512 headers trip -Wmaybe-uninitialized on their own _mm512_undefined_*
// (clang has no such warning, and would warn about the unknown name).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
  void reversal_ranks_simd(State s, std::uint64_t r, std::uint64_t moves, std::uint64_t* out) const {
    if (!(moves & reversal_moves_)) return;
    // The cells as 16 bytes (cell c in byte c): the nibbles of s, low and high interleaved.
    const __m128i packed = _mm_cvtsi64_si128(static_cast<long long>(s));
    const __m128i nibble = _mm_set1_epi8(15);
    const __m128i cells =
        _mm_unpacklo_epi8(_mm_and_si128(packed, nibble), _mm_and_si128(_mm_srli_epi16(packed, 4), nibble));
    const __m128i one = _mm_set1_epi8(1);
    // Every reversal starts before the split (the others are table moves), and L_split(c)
    // depends only on the last m cells' order, the rank mod m!: the pass starts there.
    const std::uint64_t x = r - divide(r, suffix_reciprocal_) * kFactorial[static_cast<std::size_t>(n_ - split_)];
    __m128i less = _mm_shuffle_epi8(_mm_cvtsi64_si128(static_cast<long long>(suffix_less_[x])), suffix_place_);
    std::size_t next = 0;
    for (int i = split_ - 1; i >= 0 && next < reversals_.size(); --i) {
      const __m128i v = _mm_set1_epi8(static_cast<char>(get_cell(s, i)));
      const auto later = static_cast<__mmask16>(0xFFFFu << (i + 1));  // cells c > i
      less = _mm_mask_add_epi8(less, _mm_cmpgt_epu8_mask(cells, v) & later, less, one);
      for (; next < reversals_.size() && reversals_[next].lo == i; ++next) {
        const Reversal& rv = reversals_[next];
        if (!((moves >> rv.move) & 1)) continue;
        const __m512i low = _mm512_mullo_epi64(_mm512_cvtepu8_epi64(less), _mm512_load_si512(rv.weight.data()));
        const __m512i high =
            _mm512_mullo_epi64(_mm512_cvtepu8_epi64(_mm_srli_si128(less, 8)), _mm512_load_si512(rv.weight.data() + 8));
        const auto sum = static_cast<std::uint64_t>(_mm512_reduce_add_epi64(_mm512_add_epi64(low, high)));
        out[rv.move] = r - rv.remainder(r) + sum;
      }
    }
  }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

  // f(rank) for each move j whose bit is set in `moves` (j < moves()), in order; f may
  // return true to stop. A mask computed without branches spares rules whose moves depend
  // on the state (primeswap) a mispredicted branch per move.
  // Suffix reversals come from one reversal_ranks pass; when every other move is a table
  // move, the state's Scan is only the suffix rank (r mod m!).
  template <class F>
  void for_each_rank_of(State s, std::uint64_t r, std::uint64_t moves, F&& f) const {
    if (!moves) return;
    Scan sc;
    const std::uint64_t reversals = moves & reversal_moves();
    if (!reversals) {
      prepare(s, sc);
      for (; moves; moves &= moves - 1)
        if (emit_neighbour(f, rank(static_cast<std::size_t>(std::countr_zero(moves)), s, r, sc))) return;
      return;
    }
    std::array<std::uint64_t, 64> reversed;
    reversal_ranks(s, r, reversals, reversed.data());
    if (!windows_all_reversals_) {
      prepare(s, sc);
      for (; moves; moves &= moves - 1) {
        const auto j = static_cast<std::size_t>(std::countr_zero(moves));
        if (emit_neighbour(f, (reversals >> j) & 1 ? reversed[j] : rank(j, s, r, sc))) return;
      }
      return;
    }
    // The rest are table moves: the suffix rank x is r mod m!.
    const std::uint64_t x = r - divide(r, suffix_reciprocal_) * kFactorial[static_cast<std::size_t>(n_ - split_)];
    const std::uint16_t* row = table_.data() + x * columns_;
    for (; moves; moves &= moves - 1) {
      const auto j = static_cast<std::size_t>(std::countr_zero(moves));
      if (emit_neighbour(f, (reversals >> j) & 1 ? reversed[j] : r - x + row[column_[j]])) return;
    }
  }

  // f(rank) for each move, in order, of the state whose rank is r, from r alone: for
  // ascending runs of ranks (it keeps the last prefix's window deltas); one per task.
  // usable() is false when some window move reaches into the last 3 cells (a prefix
  // would be shared by fewer than 3! ranks); then the state's own ranks are the way.
  class Scanner {
   public:
    Scanner() = default;
    explicit Scanner(const MoveRanks& m)
        : m_(&m),
          kf_(kFactorial[static_cast<std::size_t>(m.scan_k_)]),
          delta_(m.moves_.size(), 0),
          prefix_(m.n_, m.n_ - m.scan_k_),
          state_prefix_(m.n_, m.n_ - m.state_k_) {
      mf_ = kFactorial[static_cast<std::size_t>(m.n_ - m.split_)];
      sf_ = kFactorial[static_cast<std::size_t>(m.state_k_)];
      k_reciprocal_ = kf_ > 1 ? ~std::uint64_t{0} / kf_ + 1 : 0;
      m_reciprocal_ = mf_ > 1 ? ~std::uint64_t{0} / mf_ + 1 : 0;
      s_reciprocal_ = sf_ > 1 ? ~std::uint64_t{0} / sf_ + 1 : 0;
    }
    bool usable() const {
      if (!m_) return false;
      for (const Move& mv : m_->moves_)
        if (mv.column < 0 && m_->scan_k_ < 3) return false;
      return true;
    }
    template <class F>
    void operator()(std::uint64_t r, F&& f) {
      const auto& moves = m_->moves_;
      if (kf_ > 1) {
        const std::uint64_t p = divide(r, k_reciprocal_);
        if (p != prefix_.index()) load(p);
      }
      const std::uint64_t x = mf_ > 1 ? r - divide(r, m_reciprocal_) * mf_ : 0;  // the suffix's rank
      const std::uint16_t* row = m_->table_.data() + x * m_->columns_;
      for (std::size_t j = 0; j < moves.size(); ++j) {
        const int c = moves[j].column;
        const std::uint64_t q = c >= 0 ? r - x + row[c] : r + static_cast<std::uint64_t>(delta_[j]);
        if (emit_neighbour(f, q)) return;
      }
    }

    // The same for the moves that apply to the state of rank r: applicable(s, among) returns
    // the bit mask of the moves j of `among` (bit j) that apply to state s. Moves inside the
    // first n-k cells are asked once per k! ranks, with the state of the first of them.
    template <class Applicable, class F>
    void operator()(std::uint64_t r, Applicable&& applicable, F&& f) {
      const MoveRanks& m = *m_;
      const std::uint64_t p = sf_ > 1 ? divide(r, s_reciprocal_) : r;
      if (p != state_prefix_.index()) load_state(p, applicable);
      const std::uint64_t x = mf_ > 1 ? r - divide(r, m_reciprocal_) * mf_ : 0;  // the suffix's rank
      const std::uint16_t* row = m.table_.data() + x * m.columns_;
      __builtin_prefetch(row, 0, 3);  // read after the state is rebuilt and its moves asked
      const std::uint32_t order = m.orders_[r - p * sf_];
      const std::uint64_t pool = state_prefix_.pool();
      State s = state_prefix_.cells();
      for (int t = 0, shift = 4 * (m.n_ - m.state_k_); t < m.state_k_; ++t, shift += 4)
        s |= ((pool >> (4 * ((order >> (4 * t)) & 15))) & 15) << shift;
      std::uint64_t apply = fixed_ | applicable(s, m.suffix_moves_);
      for (; apply; apply &= apply - 1) {
        const auto j = static_cast<std::size_t>(std::countr_zero(apply));
        const int c = m.column_[j];
        const std::uint64_t q = c >= 0 ? r - x + row[c] : r + static_cast<std::uint64_t>(delta_[j]);
        if (emit_neighbour(f, q)) return;
      }
    }

   private:
    // floor(r / d) by the reciprocal ceil(2^64 / d): exact for r < 2^64 / d (kReciprocal),
    // and ranks are below 16! < 2^45, d at most 8! < 2^16.
    static std::uint64_t divide(std::uint64_t r, std::uint64_t reciprocal) {
      return static_cast<std::uint64_t>((static_cast<UInt128>(r) * reciprocal) >> 64);
    }
    // The filtering scan's prefix p (ranks p k! .. p k! + k! - 1): its first n-k cells from
    // its Lehmer digits (those of p in the bases n, n-1, ..., k+1), the k symbols left
    // over, the moves inside the cells that apply, and the deltas of the window moves
    // among them (of the first rank, whose last k cells are ascending: digits 0). The
    // moves below the first cell that changed keep their answer and delta.
    template <class Applicable>
    void load_state(std::uint64_t p, Applicable& applicable) {
      const MoveRanks& m = *m_;
      const int h = m.n_ - m.state_k_;
      const std::uint64_t keep = m.below_[static_cast<std::size_t>(state_prefix_.seek(p))];
      const State digits = state_prefix_.digits();  // the last k digits are 0
      const std::uint64_t pool = state_prefix_.pool();
      const State s0 = state_prefix_.cells() | ((pool & ((State{1} << (4 * m.state_k_)) - 1)) << (4 * h));
      fixed_ = (fixed_ & keep) | applicable(s0, m.prefix_moves_ & ~keep);
      const std::uint64_t window = fixed_ & m.window_moves_ & ~keep;  // all inside the prefix: kf_ = sf_
      if (!window) return;
      Scan sc;  // only after[i] and tail[i] for i <= h are read: window moves end before h
      std::uint32_t after = 0;
      for (int t = 0; t < m.state_k_; ++t) after |= 1u << get_cell(pool, t);
      sc.after[static_cast<std::size_t>(h)] = after, sc.tail[static_cast<std::size_t>(h)] = 0;
      for (int i = h - 1; i >= 0; --i) {
        after |= 1u << get_cell(s0, i);
        sc.after[static_cast<std::size_t>(i)] = after;
        sc.tail[static_cast<std::size_t>(i)] =
            sc.tail[static_cast<std::size_t>(i) + 1] + get_cell(digits, i) * m.weight_[static_cast<std::size_t>(i)];
      }
      const std::uint64_t r0 = p * sf_;
      for (std::uint64_t w = window; w; w &= w - 1) {
        const auto j = static_cast<std::size_t>(std::countr_zero(w));
        delta_[j] = static_cast<std::int64_t>(m.rank(j, s0, r0, sc)) - static_cast<std::int64_t>(r0);
      }
    }
    // The window deltas of prefix p, from the state of its first rank (last k cells
    // ascending); the moves below the first cell that changed keep theirs.
    void load(std::uint64_t p) {
      const std::uint64_t redo = m_->window_moves_ & ~m_->below_[static_cast<std::size_t>(prefix_.seek(p))];
      if (!redo) return;
      const State s =
          prefix_.cells() | ((prefix_.pool() & ((State{1} << (4 * m_->scan_k_)) - 1)) << (4 * (m_->n_ - m_->scan_k_)));
      const std::uint64_t r0 = p * kf_;  // the prefix's first rank: its window deltas hold for all
      Scan sc;
      m_->prepare(s, sc);
      for (std::uint64_t w = redo; w; w &= w - 1) {
        const auto j = static_cast<std::size_t>(std::countr_zero(w));
        delta_[j] = static_cast<std::int64_t>(m_->rank(j, s, r0, sc)) - static_cast<std::int64_t>(r0);
      }
    }
    const MoveRanks* m_ = nullptr;
    std::uint64_t kf_ = 1, mf_ = 1, k_reciprocal_ = 0, m_reciprocal_ = 0;
    std::vector<std::int64_t> delta_;  // per window move, for the prefix loaded
    LehmerPrefix prefix_{1, 0};        // the window deltas' prefix (k! ranks)
    // The filtering scan's prefix (k! ranks): its cells, the symbols of its last k cells
    // in ascending order (the pool), and which of its moves inside the first n-k cells apply.
    std::uint64_t sf_ = 1, s_reciprocal_ = 0;
    LehmerPrefix state_prefix_{1, 0};
    std::uint64_t fixed_ = 0;
  };
  Scanner scanner() const { return Scanner(*this); }

 private:
  // floor(r / d) by the reciprocal ceil(2^64 / d) (0 for d = 1): exact for r < 2^64 / d,
  // so for ranks below 16! < 2^45 and d at most 8! < 2^16, the split's m!.
  static std::uint64_t divide(std::uint64_t r, std::uint64_t reciprocal) {
    return reciprocal ? static_cast<std::uint64_t>((static_cast<UInt128>(r) * reciprocal) >> 64) : r;
  }
  static int p_of(const std::vector<int>& p, int i) { return p[static_cast<std::size_t>(i)]; }
  // A suffix reversal: move `move` reverses cells lo..n-1; weight[c] = (c - lo)! for c >= lo.
  struct alignas(64) Reversal {
    std::array<std::uint64_t, 16> weight{};
    std::uint64_t factorial = 1;  // (n - lo)!, up to 16!: past divide()'s exact range
    double inverse = 1;           // 1 / factorial
    int lo = 0, move = 0;
    // r mod factorial: the quotient by a double product (r < 2^45 is exact in a double, the
    // product within one of the true quotient), then corrected by one either way.
    std::uint64_t remainder(std::uint64_t r) const {
      const auto q = static_cast<std::uint64_t>(static_cast<double>(r) * inverse);
      auto rem = static_cast<std::int64_t>(r - q * factorial);
      const auto f = static_cast<std::int64_t>(factorial);
      rem += rem < 0 ? f : 0;
      rem -= rem >= f ? f : 0;
      return static_cast<std::uint64_t>(rem);
    }
  };
  std::vector<Reversal> reversals_;  // by lo, descending (the pass's order)
  std::uint64_t reversal_moves_ = 0;
  bool windows_all_reversals_ = false;
  std::uint64_t suffix_reciprocal_ = 0;   // of m!
  std::vector<std::uint64_t> suffix_less_;  // see the constructor
#if STATEGRAPH_REVERSAL_SIMD
  __m128i suffix_place_{};
#endif
  struct Move {
    int lo = 0, hi = -1;
    int column = -1;                            // column in the suffix table, -1: digit window
    std::array<std::uint8_t, kMaxCells> src{};  // src[i - lo] = the cell moved to cell i
  };
  int n_ = 0, split_ = 0;
  int scan_k_ = 0;                        // Scanner: k, the cells after its prefix (0: no window move)
  int state_k_ = 0;                       // the filtering Scanner's k: scan_k_, or m without window moves
  std::vector<std::uint32_t> orders_;     // [o] = perm_unrank(o, state_k_)
  std::uint64_t prefix_moves_ = 0;        // bit j: move j inside the first n - state_k_ cells
  std::uint64_t window_moves_ = 0;        // bit j: move j ranked by its digit window
  std::uint64_t suffix_moves_ = 0;        // bit j: one of the other moves
  std::array<std::int8_t, 64> column_{};  // moves_[j].column, packed for the filtering scan
  // below_[c], bit j: move j moves only cells below c, so what it does to the rank (its
  // window delta) and whether it applies depend only on cells 0..c-1, which a scanner's
  // next prefix often shares with the last (LehmerPrefix::seek).
  std::array<std::uint64_t, kMaxCells + 1> below_{};
  std::array<std::uint64_t, kMaxCells + 1> touching_{};  // moves_touching(c)
  std::uint64_t all_moves() const {
    return moves_.size() >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << moves_.size()) - 1;
  }
  std::array<std::uint64_t, kMaxCells> weight_{};  // (n-1-i)!
  std::vector<Move> moves_;
  std::size_t columns_ = 0;
  std::vector<std::uint16_t> table_;  // [suffix rank * columns_ + column] -> suffix rank
};

}  // namespace stategraph
