// The distributed BFS driver: the engine's steps on this process's block, and the
// exchanges that route the ranks outside it. MPI calls are made from the calling thread
// only (MPI_THREAD_FUNNELED suffices); layer sizes and statistics go by MPI_Allreduce.
#include "dist_bfs.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <climits>
#include <cstring>
#include <new>
#include <set>
#include <stdexcept>
#include <string>

#include "stategraph/bfs/engine.hpp"
#include "stategraph/bfs/offset_codec.hpp"
#include "stategraph/core/bits.hpp"

namespace stategraph::mpi {

std::uint64_t Partition::base(int p) const { return std::min(n, static_cast<std::uint64_t>(p) * block); }
std::uint64_t Partition::local(int p) const { return std::min(n, static_cast<std::uint64_t>(p + 1) * block) - base(p); }

Partition make_partition(std::uint64_t n, int procs, int me) {
  if (procs < 1 || me < 0 || me >= procs) throw std::logic_error("bad process count or index");
  const std::uint64_t words = (n + 63) / 64;
  Partition part;
  part.n = n;
  part.procs = procs;
  part.me = me;
  part.block =
      std::max<std::uint64_t>(1, (words + static_cast<std::uint64_t>(procs) - 1) / static_cast<std::uint64_t>(procs)) *
      64;
  if (part.block > (std::uint64_t{1} << 32))
    throw InputError("each process would own " + std::to_string(part.block) +
                     " ranks, more than 2^32 (block offsets are 32-bit): use more processes");
  if (words > static_cast<std::uint64_t>(INT_MAX))
    throw InputError("the space has more than 2^31 words of bits: beyond the int counts of MPI_Allgatherv");
  return part;
}

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::uint64_t words_of(std::uint64_t bits) { return (bits + 63) / 64; }

// Budget of one round's send batch (the threads' raw 32-bit remote ranks): a quarter of
// a block bitset (at least 256 KiB) unless given, so the exchange buffers stay a small
// share of the process's memory.
std::uint64_t exchange_budget(const Partition& part, const DistOptions& o) {
  return o.exchange_bytes ? o.exchange_bytes : std::max<std::uint64_t>(std::uint64_t{1} << 18, part.block / 32);
}

// Message encodings: offset_codec.hpp (varint deltas or the destination block's bitmap).
using bfs::encode_offsets;
using bfs::for_each_offset;
constexpr std::uint8_t kVarint = bfs::kOffsetsVarint;
constexpr std::uint8_t kBitmap = bfs::kOffsetsBitmap;

// Runs one MPI call and adds its time to `seconds`.
struct CommClock {
  double seconds = 0;
  template <class F>
  void operator()(F&& f) {
    const auto t = Clock::now();
    f();
    seconds += since(t);
  }
};

template <class R>
class Engine {
 public:
  Engine(const R& rule, const Partition& part, const DistOptions& o, MPI_Comm comm)
      : rule_(rule),
        part_(part),
        o_(o),
        comm_(comm),
        P_(part.procs),
        me_(part.me),
        base_(part.base(part.me)),
        local_(part.local(part.me)) {}

  DistResult run();

 private:
  std::uint64_t topdown(CommLevel& lv, CommClock& cc);
  std::uint64_t bottomup(CommLevel& lv, CommClock& cc);  // the gathered frontier
  std::uint64_t bottomup_query(CommLevel& lv, CommClock& cc);
  std::uint64_t apply(const std::uint8_t* msg, std::size_t size);
  void note_buffers(std::uint64_t bytes) { buffer_peak_ = std::max(buffer_peak_, bytes); }

  const R& rule_;
  const Partition& part_;
  const DistOptions& o_;
  MPI_Comm comm_;
  const int P_, me_;
  const std::uint64_t base_, local_;
  BfsOptions bo_;  // forward = false: walk predecessors, as `analyze` does
  Bitset visited_, frontier_, next_, gathered_;
  std::uint64_t round_states_ = 0;     // frontier states per top-down round
  std::uint64_t bu_question_cap_ = 0;  // questions that end a bottom-up (query) round
  std::uint64_t buffer_peak_ = 0;      // exchange buffers, bytes
};

template <class R>
DistResult Engine<R>::run() {
  bfs::check_batchable(rule_);
  DistResult res;
  LevelRecorder recorder(bo_, res.bfs);
  const std::uint64_t n = part_.n;
  visited_ = Bitset(local_);
  frontier_ = Bitset(local_);
  next_ = Bitset(local_);
  const std::uint64_t budget = exchange_budget(part_, o_);
  round_states_ = P_ == 1
                      ? ~std::uint64_t{0}
                      : std::max<std::uint64_t>(1024, budget / (4 * static_cast<std::uint64_t>(rule_.max_degree())));
  res.round_states = round_states_;
  // A round holds at most 2*cap questions at ~25 bytes each over all its buffers
  // (outbox, waiting list, sorted batch, encoded, received): ~2.5 budgets.
  bu_question_cap_ = std::max<std::uint64_t>(256, budget / 20);

  // Seed: every process knows the goals; each sets the ones in its block.
  std::set<std::uint64_t> goals;
  for (State g : bfs_sources(rule_, bo_)) goals.insert(rule_.rank(g));
  for (std::uint64_t r : goals)
    if (part_.owner(r) == me_) visited_.set(r - base_), frontier_.set(r - base_);
  std::uint64_t count = goals.size();

  int watch_depth = -1;
  std::uint64_t watch_local = ~std::uint64_t{0};
  if (o_.watch) {
    const std::uint64_t w = rule_.rank(*o_.watch);
    if (part_.owner(w) == me_) watch_local = w - base_;
    if (watch_local != ~std::uint64_t{0} && visited_.test(watch_local)) watch_depth = 0;
  }

  std::uint64_t unvisited = n - count, previous = 0, total = count;
  Direction dir = bfs::first_direction(o_.policy);
  for (int depth = 0; recorder.record(count, dir); ++depth) {
    if (o_.policy == DirectionPolicy::kHybrid) dir = bfs::choose_direction(count, previous, unvisited);
    if (unvisited == 0) {  // nothing left to find: the next layer is empty (as in bitset_bfs)
      count = 0;
      continue;
    }
    if (depth == o_.fail_at_depth) throw std::bad_alloc();  // test hook: one process fails mid-run
    const auto t0 = Clock::now();
    CommLevel lv;
    lv.depth = depth + 1;
    lv.direction = dir;
    CommClock cc;
    previous = count;
    const std::uint64_t found = dir == Direction::kTopDown ? topdown(lv, cc)
                                : o_.gather_bottomup       ? bottomup(lv, cc)
                                                           : bottomup_query(lv, cc);
    if (watch_depth < 0 && watch_local != ~std::uint64_t{0} && next_.test(watch_local)) watch_depth = depth + 1;
    std::swap(frontier_, next_);

    std::array<std::uint64_t, 4> sums{found, lv.bytes_sent, lv.remote_ranks, lv.list32_bytes};
    cc([&] { MPI_Allreduce(MPI_IN_PLACE, sums.data(), 4, MPI_UINT64_T, MPI_SUM, comm_); });
    const double wall = since(t0);
    std::array<double, 2> times{wall - cc.seconds, cc.seconds};
    MPI_Allreduce(MPI_IN_PLACE, times.data(), 2, MPI_DOUBLE, MPI_MAX, comm_);
    count = sums[0];
    lv.states = count;
    lv.bytes_sent = sums[1];
    lv.remote_ranks = sums[2];
    lv.list32_bytes = sums[3];
    lv.bitmap_bytes = static_cast<std::uint64_t>(P_ - 1) * words_of(n) * 8;
    lv.compute_seconds = times[0];
    lv.comm_seconds = times[1];
    lv.seconds = since(t0);
    unvisited -= count;
    total += count;
    res.comm.push_back(lv);
    if (o_.on_level) o_.on_level(lv, total);
  }
  recorder.finish();

  MPI_Allreduce(MPI_IN_PLACE, &watch_depth, 1, MPI_INT, MPI_MAX, comm_);
  if (o_.watch) res.watch_depth = watch_depth;
  res.bfs.peak_bytes = 3 * Bitset::bytes_for(local_) + (gathered_.size() ? Bitset::bytes_for(n) : 0) + buffer_peak_;
  std::uint64_t peak = res.bfs.peak_bytes;
  MPI_Allreduce(MPI_IN_PLACE, &peak, 1, MPI_UINT64_T, MPI_MAX, comm_);
  res.peak_bytes_max = peak;
  return res;
}

// Claims the ranks of one received message; returns how many were new. Messages from
// several sources are applied in parallel, so every write is atomic.
template <class R>
std::uint64_t Engine<R>::apply(const std::uint8_t* msg, std::size_t size) {
  if (size == 0) return 0;
  std::uint64_t found = 0;
  std::uint64_t* vw = visited_.words();
  std::uint64_t* nw = next_.words();
  if (msg[0] == kVarint) {
    for_each_offset(msg, size, local_, [&](std::uint64_t l) { found += bfs::claim(visited_, nw, l); });
  } else if (msg[0] == kBitmap) {
    const std::size_t words = (size - 1) / 8;
    if (words != visited_.num_words()) throw std::runtime_error("received a bitmap of the wrong size");
    for (std::size_t w = 0; w < words; ++w) {
      std::uint64_t m;
      std::memcpy(&m, msg + 1 + 8 * w, 8);
      if (!m) continue;
      const std::uint64_t old = std::atomic_ref<std::uint64_t>(vw[w]).fetch_or(m, std::memory_order_relaxed);
      const std::uint64_t fresh = m & ~old;
      if (fresh) {
        bfs::atomic_or_word(nw + w, fresh);
        found += static_cast<std::uint64_t>(std::popcount(fresh));
      }
    }
  } else {
    throw std::runtime_error("received a message with an unknown encoding");
  }
  return found;
}

// Top-down: the process expands its frontier block; a neighbour in its own block is
// claimed locally, one in another block goes to the owner. The remote ranks are batched
// per destination, sorted and deduplicated, encoded as varint deltas of block offsets
// (or the destination's block bitmap when that is smaller) and exchanged with
// MPI_Alltoallv. To keep memory per process ~1/P the frontier is expanded in rounds of
// at most round_states_ states (one Alltoallv each; every process joins max-rounds rounds).
template <class R>
std::uint64_t Engine<R>::topdown(CommLevel& lv, CommClock& cc) {
  bfs::parallel_clear(next_);
  const std::uint64_t* fw = frontier_.words();
  const std::uint64_t W = frontier_.num_words();

  // Rounds of at most round_states_ frontier states; every process joins the max count.
  std::vector<std::uint64_t> cuts{0};
  if (P_ > 1) {
    std::uint64_t acc = 0;
    for (std::uint64_t w = 0; w < W; ++w) {
      acc += static_cast<std::uint64_t>(std::popcount(fw[w]));
      if (acc >= round_states_) cuts.push_back(w + 1), acc = 0;
    }
  }
  if (cuts.back() != W || cuts.size() == 1) cuts.push_back(W);
  int rounds = static_cast<int>(cuts.size()) - 1;
  cc([&] { MPI_Allreduce(MPI_IN_PLACE, &rounds, 1, MPI_INT, MPI_MAX, comm_); });
  lv.rounds = rounds;

  using Outbox = std::vector<std::vector<std::uint32_t>>;
  tbb::enumerable_thread_specific<Outbox> outboxes([this] { return Outbox(static_cast<std::size_t>(P_)); });
  std::vector<std::uint32_t> batch;  // one destination's ranks, sorted and deduplicated
  std::vector<std::uint8_t> sendbuf, recvbuf;
  std::vector<std::uint64_t> bitmap;
  std::vector<int> scount(static_cast<std::size_t>(P_)), sdispl(static_cast<std::size_t>(P_)),
      rcount(static_cast<std::size_t>(P_)), rdispl(static_cast<std::size_t>(P_));
  std::uint64_t found = 0;

  for (int round = 0; round < rounds; ++round) {
    const std::uint64_t lo = round + 1 < static_cast<int>(cuts.size()) ? cuts[static_cast<std::size_t>(round)] : W;
    const std::uint64_t hi = round + 1 < static_cast<int>(cuts.size()) ? cuts[static_cast<std::size_t>(round) + 1] : W;
    // A neighbour in another block goes to this thread's outbox for its owner.
    found += bfs::topdown_step(rule_, bo_, base_, frontier_, visited_, next_, lo, hi, [&] {
      return [this, &out = outboxes.local()](std::uint64_t q) {
        const int d = part_.owner(q);
        out[static_cast<std::size_t>(d)].push_back(static_cast<std::uint32_t>(q - part_.base(d)));
      };
    });
    if (P_ == 1) break;

    // Batch per destination: concatenate the threads' ranks, sort, deduplicate, encode.
    std::uint64_t outbox_bytes = 0;
    for (const Outbox& out : outboxes)
      for (const auto& v : out) outbox_bytes += v.capacity() * sizeof(std::uint32_t);
    sendbuf.clear();
    for (int d = 0; d < P_; ++d) {
      sdispl[static_cast<std::size_t>(d)] = static_cast<int>(sendbuf.size());
      batch.clear();
      if (d != me_) {
        for (Outbox& out : outboxes) {
          auto& v = out[static_cast<std::size_t>(d)];
          batch.insert(batch.end(), v.begin(), v.end());
          v.clear();
        }
      }
      if (!batch.empty()) {
        tbb::parallel_sort(batch.begin(), batch.end());
        batch.erase(std::unique(batch.begin(), batch.end()), batch.end());
        encode_offsets(batch, words_of(part_.local(d)), sendbuf, bitmap);
        lv.remote_ranks += batch.size();
        lv.list32_bytes += 4 * batch.size();
      }
      if (sendbuf.size() > static_cast<std::size_t>(INT_MAX))
        throw std::runtime_error("one round's send batch exceeds 2 GiB (MPI int counts): lower --exchange-buffer");
      scount[static_cast<std::size_t>(d)] = static_cast<int>(sendbuf.size()) - sdispl[static_cast<std::size_t>(d)];
    }
    lv.bytes_sent += sendbuf.size();

    cc([&] { MPI_Alltoall(scount.data(), 1, MPI_INT, rcount.data(), 1, MPI_INT, comm_); });
    std::uint64_t rtotal = 0;
    for (int s = 0; s < P_; ++s) {
      rdispl[static_cast<std::size_t>(s)] = static_cast<int>(rtotal);
      rtotal += static_cast<std::uint64_t>(rcount[static_cast<std::size_t>(s)]);
      if (rtotal > static_cast<std::uint64_t>(INT_MAX))
        throw std::runtime_error("one round's receive batch exceeds 2 GiB (MPI int counts): lower --exchange-buffer");
    }
    recvbuf.resize(rtotal);
    cc([&] {
      MPI_Alltoallv(sendbuf.data(), scount.data(), sdispl.data(), MPI_BYTE, recvbuf.data(), rcount.data(),
                    rdispl.data(), MPI_BYTE, comm_);
    });
    note_buffers(outbox_bytes + batch.capacity() * sizeof(std::uint32_t) + sendbuf.capacity() + recvbuf.capacity() +
                 bitmap.capacity() * 8);
    found += tbb::parallel_reduce(
        tbb::blocked_range<int>(0, P_, 1), std::uint64_t{0},
        [&](const tbb::blocked_range<int>& r, std::uint64_t f) {
          for (int s = r.begin(); s != r.end(); ++s)
            f += apply(recvbuf.data() + rdispl[static_cast<std::size_t>(s)],
                       static_cast<std::size_t>(rcount[static_cast<std::size_t>(s)]));
          return f;
        },
        std::plus<>());
  }
  return found;
}

// Bottom-up "gather": the frontier blocks are gathered into one n-bit frontier on every
// process (MPI_Allgatherv, allocated the first time the search goes bottom-up) and the
// process scans its unvisited ranks against it. Fewer bytes than the questions when the
// unvisited ranks are many, but n bits on every process.
template <class R>
std::uint64_t Engine<R>::bottomup(CommLevel& lv, CommClock& cc) {
  const std::uint64_t n = part_.n;
  // One process: its block is the whole frontier, nothing to gather.
  if (P_ > 1 && gathered_.size() == 0) gathered_ = Bitset(n);  // bad_alloc here aborts the job
  const Bitset& gf = P_ > 1 ? gathered_ : frontier_;
  // Gather every block's frontier into one n-bit frontier on every process.
  std::vector<int> counts(static_cast<std::size_t>(P_)), displs(static_cast<std::size_t>(P_));
  for (int p = 0; p < P_; ++p) {
    counts[static_cast<std::size_t>(p)] = static_cast<int>(words_of(part_.local(p)));
    displs[static_cast<std::size_t>(p)] = static_cast<int>(part_.base(p) / 64);
  }
  if (P_ > 1) {
    std::memcpy(gathered_.words() + part_.base(me_) / 64, frontier_.words(), frontier_.num_words() * 8);
    cc([&] {
      MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gathered_.words(), counts.data(), displs.data(), MPI_UINT64_T,
                     comm_);
    });
  }
  lv.rounds = 1;
  lv.bytes_sent = static_cast<std::uint64_t>(P_ - 1) * frontier_.num_words() * 8;

  return bfs::bottomup_step(rule_, bo_, base_, gf, visited_, next_, 0, visited_.num_words());
}

// Bottom-up "query" (the default), without the gathered frontier: each unvisited rank looks
// for a parent in the own frontier block first; only when it finds none are its
// parents in other blocks asked for. The questions go to their owners (sorted,
// deduplicated block offsets, encoded like the top-down batches, one MPI_Alltoallv),
// each owner answers one bit per question from its frontier block (a second
// MPI_Alltoallv, in question order), and the asking process claims every rank with an
// answered parent. A level runs in rounds of at most ~2*bu_question_cap_ questions, so
// the buffers stay within a few exchange budgets; memory per process stays ~1/P.
template <class R>
std::uint64_t Engine<R>::bottomup_query(CommLevel& lv, CommClock& cc) {
  bfs::parallel_clear(next_);
  std::uint64_t* nw = next_.words();
  const std::uint64_t W = visited_.num_words();

  struct Question {  // rank `child` of the own block waits for the answer about `offset` in block `dest`
    std::uint32_t child, offset;
    int dest;
  };
  struct Local {
    std::vector<std::vector<std::uint32_t>> out;  // per destination
    std::vector<Question> asked;
  };
  tbb::enumerable_thread_specific<Local> locals([this] {
    return Local{std::vector<std::vector<std::uint32_t>>(static_cast<std::size_t>(P_)), {}};
  });
  const std::size_t P = static_cast<std::size_t>(P_);
  std::vector<std::vector<std::uint32_t>> sent(P), received(P);  // questions, sorted, per process
  std::vector<std::uint8_t> sendbuf, recvbuf, answers, replies;
  std::vector<std::uint64_t> bitmap;
  std::vector<int> scount(P), sdispl(P), rcount(P), rdispl(P), acount(P), adispl(P), qcount(P), qdispl(P);
  std::uint64_t found = 0;

  // A round scans `step` words at a time until it has asked bu_question_cap_ questions
  // or reached the end of the block; one step asks at most step*64*max_degree <= cap,
  // so a round holds at most twice the cap. Rounds go on until every process is done.
  const std::uint64_t step =
      P_ == 1 ? W
              : std::max<std::uint64_t>(1, bu_question_cap_ / (64 * static_cast<std::uint64_t>(rule_.max_degree())));
  std::uint64_t cursor = 0;
  auto asked = [&] {  // questions asked in this round so far
    std::uint64_t total = 0;
    for (const Local& mine : locals) total += mine.asked.size();
    return total;
  };
  for (;;) {
    ++lv.rounds;
    // 1. Local parents (the engine's bottom-up step on this block); a state with none in
    //    the frontier asks about each of its remote parents. Each word belongs to one task.
    for (std::uint64_t questions = 0; cursor < W && questions < bu_question_cap_;) {
      const std::uint64_t lo = cursor, hi = std::min(W, cursor + step);
      cursor = hi;
      found += bfs::bottomup_step(rule_, bo_, base_, frontier_, visited_, next_, lo, hi, [&] {
        return [this, &mine = locals.local()](std::uint64_t l, std::uint64_t q) {
          const int d = part_.owner(q);
          const auto off = static_cast<std::uint32_t>(q - part_.base(d));
          mine.out[static_cast<std::size_t>(d)].push_back(off);
          mine.asked.push_back({static_cast<std::uint32_t>(l), off, d});
        };
      });
      questions = asked();
    }
    if (P_ == 1) break;

    // 2. Questions per destination: concatenated, sorted, deduplicated, encoded.
    std::uint64_t local_bytes = 0;
    for (const Local& mine : locals) {
      local_bytes += mine.asked.capacity() * sizeof(Question);
      for (const auto& v : mine.out) local_bytes += v.capacity() * sizeof(std::uint32_t);
    }
    sendbuf.clear();
    for (std::size_t d = 0; d < P; ++d) {
      sdispl[d] = static_cast<int>(sendbuf.size());
      auto& batch = sent[d];
      batch.clear();
      for (Local& mine : locals) {
        batch.insert(batch.end(), mine.out[d].begin(), mine.out[d].end());
        mine.out[d].clear();
      }
      tbb::parallel_sort(batch.begin(), batch.end());
      batch.erase(std::unique(batch.begin(), batch.end()), batch.end());
      encode_offsets(batch, words_of(part_.local(static_cast<int>(d))), sendbuf, bitmap);
      lv.remote_ranks += batch.size();
      lv.list32_bytes += 4 * batch.size();
      if (sendbuf.size() > static_cast<std::size_t>(INT_MAX))
        throw std::runtime_error("one round's questions exceed 2 GiB (MPI int counts): lower --exchange-buffer");
      scount[d] = static_cast<int>(sendbuf.size()) - sdispl[d];
      qcount[d] = static_cast<int>((batch.size() + 7) / 8);  // the answer bytes expected from d
    }
    cc([&] { MPI_Alltoall(scount.data(), 1, MPI_INT, rcount.data(), 1, MPI_INT, comm_); });
    std::uint64_t rtotal = 0, qtotal = 0;
    for (std::size_t s = 0; s < P; ++s) {
      rdispl[s] = static_cast<int>(rtotal);
      qdispl[s] = static_cast<int>(qtotal);
      rtotal += static_cast<std::uint64_t>(rcount[s]);
      qtotal += static_cast<std::uint64_t>(qcount[s]);
      if (rtotal > static_cast<std::uint64_t>(INT_MAX))
        throw std::runtime_error(
            "one round's received questions exceed 2 GiB (MPI int counts): lower --exchange-buffer");
    }
    recvbuf.resize(rtotal);
    cc([&] {
      MPI_Alltoallv(sendbuf.data(), scount.data(), sdispl.data(), MPI_BYTE, recvbuf.data(), rcount.data(),
                    rdispl.data(), MPI_BYTE, comm_);
    });

    // 3. Answer: one bit per received question, in the order asked, from the own frontier block.
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, P, 1), [&](const tbb::blocked_range<std::size_t>& r) {
      for (std::size_t s = r.begin(); s != r.end(); ++s) {
        received[s].clear();
        for_each_offset(recvbuf.data() + rdispl[s], static_cast<std::size_t>(rcount[s]), local_,
                        [&](std::uint64_t l) { received[s].push_back(static_cast<std::uint32_t>(l)); });
      }
    });
    std::uint64_t atotal = 0;
    for (std::size_t s = 0; s < P; ++s) {
      adispl[s] = static_cast<int>(atotal);
      acount[s] = static_cast<int>((received[s].size() + 7) / 8);
      atotal += static_cast<std::uint64_t>(acount[s]);
    }
    answers.assign(atotal, 0);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, P, 1), [&](const tbb::blocked_range<std::size_t>& r) {
      for (std::size_t s = r.begin(); s != r.end(); ++s)
        for (std::size_t i = 0; i < received[s].size(); ++i)
          if (frontier_.test(received[s][i]))
            answers[static_cast<std::size_t>(adispl[s]) + i / 8] |= static_cast<std::uint8_t>(1u << (i % 8));
    });
    replies.resize(qtotal);
    cc([&] {
      MPI_Alltoallv(answers.data(), acount.data(), adispl.data(), MPI_BYTE, replies.data(), qcount.data(),
                    qdispl.data(), MPI_BYTE, comm_);
    });
    lv.bytes_sent += sendbuf.size() + answers.size();
    std::uint64_t received_bytes = 0;
    for (const auto& v : received) received_bytes += v.capacity() * sizeof(std::uint32_t);
    std::uint64_t sent_bytes = 0;
    for (const auto& v : sent) sent_bytes += v.capacity() * sizeof(std::uint32_t);
    note_buffers(local_bytes + sent_bytes + received_bytes + sendbuf.capacity() + recvbuf.capacity() +
                 answers.capacity() + replies.capacity() + bitmap.capacity() * 8);

    // 4. Claim every rank with a parent answered "in the frontier".
    for (Local& mine : locals) {
      found += tbb::parallel_reduce(
          tbb::blocked_range<std::size_t>(0, mine.asked.size(), 4096), std::uint64_t{0},
          [&](const tbb::blocked_range<std::size_t>& r, std::uint64_t f) {
            for (std::size_t k = r.begin(); k != r.end(); ++k) {
              const Question& q = mine.asked[k];
              const auto& batch = sent[static_cast<std::size_t>(q.dest)];
              const std::size_t i =
                  static_cast<std::size_t>(std::lower_bound(batch.begin(), batch.end(), q.offset) - batch.begin());
              const std::uint8_t byte =
                  replies[static_cast<std::size_t>(qdispl[static_cast<std::size_t>(q.dest)]) + i / 8];
              if ((byte >> (i % 8)) & 1u) f += bfs::claim(visited_, nw, q.child);
            }
            return f;
          },
          std::plus<>());
      mine.asked.clear();
    }
    int more = cursor < W ? 1 : 0;
    cc([&] { MPI_Allreduce(MPI_IN_PLACE, &more, 1, MPI_INT, MPI_MAX, comm_); });
    if (!more) break;
  }
  return found;
}

}  // namespace

std::uint64_t bytes_per_process(const AnyRule& rule, const Partition& part, const DistOptions& o) {
  (void)rule;
  std::uint64_t bytes = 3 * Bitset::bytes_for(part.local(part.me));
  if (o.policy != DirectionPolicy::kTopDown && o.gather_bottomup && part.procs > 1) bytes += Bitset::bytes_for(part.n);
  if (part.procs > 1) bytes += 3 * exchange_budget(part, o);  // outboxes, send and receive batches
  return bytes;
}

DistResult distributed_bfs(const AnyRule& rule, const Partition& part, const DistOptions& o, MPI_Comm comm) {
  return std::visit([&](const auto& r) { return Engine<std::decay_t<decltype(r)>>(r, part, o, comm).run(); }, rule);
}

}  // namespace stategraph::mpi
