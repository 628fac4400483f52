#include "stategraph/io/graph_export.hpp"

#include <tbb/parallel_for.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/parallel_reduce.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <condition_variable>
#include <deque>
#include <exception>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <variant>

#include "stategraph/analysis/graph.hpp"
#include "stategraph/bfs/engine.hpp"
#include "stategraph/io/files.hpp"
#include "stategraph/rules/rule.hpp"

namespace stategraph {

GraphFormat parse_graph_format(std::string_view name) {
  if (name == "el") return GraphFormat::kEdgeList;
  if (name == "mtx") return GraphFormat::kMatrixMarket;
  if (name == "graphml") return GraphFormat::kGraphML;
  if (name == "dot") return GraphFormat::kDot;
  throw InputError("unknown graph format '" + std::string(name) + "' (el, mtx, graphml, dot)");
}

const char* graph_format_name(GraphFormat f) {
  switch (f) {
    case GraphFormat::kEdgeList: return "el";
    case GraphFormat::kMatrixMarket: return "mtx";
    case GraphFormat::kGraphML: return "graphml";
    case GraphFormat::kDot: return "dot";
  }
  return "?";
}

std::uint64_t graph_vertices_bytes(std::uint64_t space, bool label) {
  return space /* depth */ + Bitset::bytes_for(space) + Bitset::bytes_for(space) /* before: a word per word */ +
         (label ? 4 * space : 0);
}

namespace {

// The ranks of a chunk: what one task of the writers formats (about a few MiB of text).
constexpr std::uint64_t kChunkRanks = std::uint64_t{1} << 16;

template <class F>
void each_member(const GraphVertices& v, std::uint64_t lo, std::uint64_t hi, F&& f) {
  const std::uint64_t* w = v.member.words();
  for (std::uint64_t k = lo; k < hi;) {
    const std::uint64_t word = w[k >> 6] >> (k & 63);
    if (!word) {
      k = (k | 63) + 1;
      continue;
    }
    k += static_cast<unsigned>(std::countr_zero(word));
    if (k >= hi) break;
    f(k);
    ++k;
  }
}

// Per task, for ascending ranks u: f(q) for the rank of each of u's successors (every
// move, with multiplicity). The BFS kernel's own ways (bfs/engine.hpp): from the rank
// alone where the rule has a scanner (StepRanks), sliding's sideways moves as the offset
// of the block move, and the rule's incremental ranks of the unranked state otherwise.
template <class R>
class SuccessorRanks {
 public:
  explicit SuccessorRanks(const R& rule)
      : rule_(rule),
        options_(forward()),
        blocks_(bfs::block_move_size(rule, options_)),
        cursor_(std::max<std::uint64_t>(blocks_, 1)),
        step_(rule, options_, blocks_, false) {}
  SuccessorRanks(const SuccessorRanks&) = delete;  // step_ holds a reference to options_
  SuccessorRanks& operator=(const SuccessorRanks&) = delete;
  bool from_rank_alone() const { return step_.from_rank_alone(); }
  template <class F>
  void operator()(std::uint64_t u, F&& f) {
    if constexpr (bfs::BlockMoveRule<R>) {
      if (blocks_) {
        const std::uint64_t b = cursor_.block(u);
        rule_.for_each_block_move(b, [&](std::uint64_t c) { f(c > b ? u + (c - b) * blocks_ : u - (b - c) * blocks_); });
      }
    }
    step_(u, f);
  }

 private:
  static BfsOptions forward() {
    BfsOptions o;
    o.forward = true;  // successors
    return o;
  }
  const R& rule_;
  const BfsOptions options_;
  const std::uint64_t blocks_;
  bfs::BlockCursor cursor_;
  bfs::StepRanks<R> step_;
};

// f(u, q) for the edges of the vertices of ranks [lo, hi), in rank order of u (see
// count_graph_edges for which moves count).
template <class R, class F>
void each_edge(const R& rule, const GraphVertices& v, std::uint64_t lo, std::uint64_t hi, F&& f) {
  SuccessorRanks<R> successors(rule);
  const bool directed = rule.directed();
  each_member(v, lo, hi, [&](std::uint64_t u) {
    successors(u, [&](std::uint64_t q) {
      if (!v.closed && !v.member.test(q)) return;
      if (directed || u <= q) f(u, q);
    });
  });
}

void put(std::string& s, std::uint64_t x) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  s.append(buf, r.ptr);
}

// One output's text of one chunk: the first `used` bytes of buf. Texts are recycled from
// chunk to chunk (stream_chunks), so buf keeps its size: an edge chunk's lines are written
// over the last chunk's bytes, with no zero fill and no page faults of a fresh buffer.
struct Text {
  std::string buf;
  std::size_t used = 0;
  std::string_view view() const { return {buf.data(), used}; }
};

// Lines of text written into a Text through a cursor: room() makes space for one more
// line (growing the buffer, at least doubling it), num/put write without checks, and
// finish() records what was written. An edge line through std::string's appends and a
// to_chars into a scratch buffer cost twice as much (sliding 3x4's edge list).
class LineWriter {
 public:
  explicit LineWriter(Text& t) : t_(&t) {}
  static constexpr std::size_t kLine = 96;  // at least the longest edge line of any format
  void room() {
    std::string& s = t_->buf;
    if (s.size() - used_ < kLine) s.resize(std::max<std::size_t>(2 * s.size(), used_ + (std::size_t{1} << 16)));
  }
  void num(std::uint64_t x) { used_ = static_cast<std::size_t>(std::to_chars(at(), at() + 24, x).ptr - t_->buf.data()); }
  void put(char c) { t_->buf[used_++] = c; }
  void put(std::string_view text) {
    std::memcpy(at(), text.data(), text.size());
    used_ += text.size();
  }
  void finish() { t_->used = used_; }

 private:
  char* at() { return t_->buf.data() + used_; }
  Text* t_;
  std::size_t used_ = 0;
};

std::string xml_escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string dot_escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// A graph file written through one aligned buffer of kBuffer bytes. Where the file system
// takes it, the file is opened with O_DIRECT and every full buffer goes to the disk
// without passing through the page cache: the kernel's copy into the cache and its dirty
// page throttling cost a sliding 3x4 edge list (6.5 GB) more system time than formatting
// took (copy_folio_from_iter_atomic, 31% of the samples). The last block is written
// padded to the alignment and the file cut back to its size. Elsewhere (O_DIRECT refused,
// as on tmpfs), plain writes of the same buffer.
class Output {
 public:
  static constexpr std::size_t kAlign = 4096, kBuffer = std::size_t{8} << 20;
  explicit Output(std::filesystem::path path) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_DIRECT, 0644);
    direct_ = fd_ >= 0;
    if (fd_ < 0 && errno == EINVAL) fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) throw std::runtime_error(file_error("create", "graph file", path_, errno));
    buffer_.reset(static_cast<char*>(std::aligned_alloc(kAlign, kBuffer)));
    if (!buffer_) {
      ::close(fd_);
      throw std::bad_alloc();
    }
  }
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;
  ~Output() {
    if (fd_ >= 0) ::close(fd_);
  }
  void write(std::string_view s) {
    while (!s.empty()) {
      const std::size_t n = std::min(s.size(), kBuffer - used_);
      std::memcpy(buffer_.get() + used_, s.data(), n);
      used_ += n, s.remove_prefix(n);
      if (used_ == kBuffer) put(kBuffer);
    }
  }
  void close() {
    const std::uint64_t size = written_ + used_;
    if (used_) put(direct_ ? (used_ + kAlign - 1) / kAlign * kAlign : used_);
    if ((direct_ && ::ftruncate(fd_, static_cast<off_t>(size)) != 0) || ::fsync(fd_) != 0) {
      const int err = errno;
      ::close(fd_), fd_ = -1;
      throw std::runtime_error(file_error("write", "graph file", path_, err));
    }
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw std::runtime_error(file_error("close", "graph file", path_, errno));
  }

 private:
  struct Free {
    void operator()(char* p) const { std::free(p); }
  };
  // Writes the buffer's first `bytes` (past used_: zeros of the padding), then empties it.
  void put(std::size_t bytes) {
    if (bytes > used_) std::memset(buffer_.get() + used_, 0, bytes - used_);
    for (std::size_t done = 0; done < bytes;) {
      const ssize_t w = ::write(fd_, buffer_.get() + done, bytes - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) throw std::runtime_error(file_error("write", "graph file", path_, w < 0 ? errno : ENOSPC));
      done += static_cast<std::size_t>(w);
    }
    written_ += used_;
    used_ = 0;
  }
  std::filesystem::path path_;
  int fd_ = -1;
  bool direct_ = false;
  std::unique_ptr<char, Free> buffer_;
  std::size_t used_ = 0;
  std::uint64_t written_ = 0;
};

using Texts = std::shared_ptr<std::vector<Text>>;

// The chunks' texts, recycled: the writer gives each back once written.
class TextPool {
 public:
  explicit TextPool(std::size_t outputs) : outputs_(outputs) {}
  Texts take() {
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        Texts t = std::move(free_.back());
        free_.pop_back();
        return t;
      }
    }
    return std::make_shared<std::vector<Text>>(outputs_);
  }
  void give(Texts t) {
    std::lock_guard lock(mutex_);
    free_.push_back(std::move(t));
  }

 private:
  std::size_t outputs_;
  std::mutex mutex_;
  std::vector<Texts> free_;
};

// Writes each pushed chunk's texts[i] to outs[i], in push order, on a thread of its own:
// a writer of gigabytes waits in write() while the kernel throttles its dirty pages to the
// disk's speed, and on the pipeline's own serial stage that wait kept one of its threads
// from formatting. At most kQueued chunks wait; push() then blocks (so memory stays
// bounded). A write error stops the thread; push() and finish() rethrow it.
class ChunkWriter {
 public:
  static constexpr std::size_t kQueued = 8;
  ChunkWriter(std::vector<Output*>& outs, TextPool& pool) : outs_(outs), pool_(pool), thread_([this] { run(); }) {}
  ChunkWriter(const ChunkWriter&) = delete;
  ChunkWriter& operator=(const ChunkWriter&) = delete;
  ~ChunkWriter() {  // without finish(): on an error, the chunks still queued are dropped
    {
      std::lock_guard lock(mutex_);
      queue_.clear();
    }
    stop();
  }
  void push(Texts texts) {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [&] { return queue_.size() < kQueued || error_; });
    if (error_) std::rethrow_exception(error_);
    queue_.push_back(std::move(texts));
    ready_.notify_one();
  }
  // Waits until every pushed chunk is written; rethrows a write error.
  void finish() {
    stop();
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void stop() {
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
    }
    ready_.notify_one();
    if (thread_.joinable()) thread_.join();
  }
  void run() {
    for (;;) {
      Texts texts;
      {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [&] { return !queue_.empty() || closing_; });
        if (queue_.empty()) return;
        texts = std::move(queue_.front());
        queue_.pop_front();
      }
      room_.notify_one();
      try {
        for (std::size_t i = 0; i < outs_.size(); ++i) outs_[i]->write((*texts)[i].view());
        pool_.give(std::move(texts));
      } catch (...) {
        std::lock_guard lock(mutex_);
        error_ = std::current_exception();
        queue_.clear();
        room_.notify_all();
        return;
      }
    }
  }
  std::vector<Output*>& outs_;
  TextPool& pool_;
  std::mutex mutex_;
  std::condition_variable ready_, room_;
  std::deque<Texts> queue_;
  bool closing_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: it starts once the rest is built
};

// Runs make(chunk, texts) for chunks 0..chunks-1 in parallel and writes texts[i].view() to
// outs[i] in chunk order (through a ChunkWriter); make finds recycled texts (any used,
// any buf). False when stopped.
template <class Make>
bool stream_chunks(std::uint64_t chunks, std::vector<Output*>& outs, const std::atomic<int>* stop, Make&& make) {
  std::uint64_t next = 0;
  bool stopped = false;
  TextPool pool(outs.size());
  ChunkWriter writer(outs, pool);
  tbb::parallel_pipeline(
      16,
      tbb::make_filter<void, std::uint64_t>(tbb::filter_mode::serial_in_order,
                                            [&](tbb::flow_control& fc) -> std::uint64_t {
                                              if (stop && stop->load(std::memory_order_relaxed)) stopped = true;
                                              if (next == chunks || stopped) {
                                                fc.stop();
                                                return 0;
                                              }
                                              return next++;
                                            }) &
          tbb::make_filter<std::uint64_t, Texts>(tbb::filter_mode::parallel,
                                                 [&](std::uint64_t k) {
                                                   Texts texts = pool.take();
                                                   make(k, *texts);
                                                   return texts;
                                                 }) &
          tbb::make_filter<Texts, void>(tbb::filter_mode::serial_in_order,
                                        [&](const Texts& texts) { writer.push(texts); }));
  writer.finish();
  return !stopped;
}

}  // namespace

GraphVertices choose_vertices(const AnyRule& rule, const VertexChoice& choice) {
  GraphVertices v;
  v.space = rule_size(rule);
  v.dense = choice.dense;
  BfsOptions o = choice.bfs;
  o.want_depths = true;
  BfsResult bfs = find_variant(choice.variant).run(rule, o);
  v.depth = std::move(bfs.depth);
  const bool label = choice.label || choice.kind == VertexChoice::kComponent;
  if (label) {
    v.component.assign(v.space, 0);
    ComponentOptions co;
    co.collect_limit = std::uint64_t{1} << 20;
    std::uint32_t index = 0;
    co.on_component = [&](ComponentInfo&, std::vector<std::uint64_t>& ranks) {
      for (std::uint64_t k : ranks) v.component[k] = index;
      ++index;
    };
    co.on_large_component = [&](std::size_t i, ComponentInfo&, Bitset&& mask) {
      const std::uint64_t* w = mask.words();
      tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, mask.num_words(), 1 << 14), [&](const auto& r) {
        for (std::uint64_t k = r.begin(); k != r.end(); ++k)
          for (std::uint64_t bits = w[k]; bits; bits &= bits - 1)
            v.component[k * 64 + static_cast<unsigned>(std::countr_zero(bits))] = static_cast<std::uint32_t>(i);
      });
    };
    v.components = find_components(rule, co).size();
    if (choice.kind == VertexChoice::kComponent && choice.component >= v.components)
      throw InputError("--component " + std::to_string(choice.component) + ": the space has " +
                       std::to_string(v.components) + " component" + (v.components == 1 ? "" : "s") + " (0.." +
                       std::to_string(v.components - 1) + ")");
  }
  v.member = Bitset(v.space);
  std::uint64_t* mw = v.member.words();
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, v.member.num_words(), 1 << 12), [&](const auto& r) {
    for (std::uint64_t w = r.begin(); w != r.end(); ++w) {
      std::uint64_t m = 0;
      for (std::uint64_t b = 0; b < 64 && w * 64 + b < v.space; ++b) {
        const std::uint64_t k = w * 64 + b;
        bool in = true;
        if (choice.kind == VertexChoice::kReached) in = v.depth[k] != kUnreached;
        if (choice.kind == VertexChoice::kComponent) in = v.component[k] == choice.component;
        m |= static_cast<std::uint64_t>(in) << b;
      }
      mw[w] = m;
    }
  });
  v.before.resize(v.member.num_words());
  std::uint64_t total = 0;
  for (std::uint64_t w = 0; w < v.member.num_words(); ++w)
    v.before[w] = total, total += static_cast<std::uint64_t>(std::popcount(mw[w]));
  v.count = total;
  // An undirected rule's BFS reaches, and its labelling finds, whole components.
  v.closed = !rule_directed(rule) || v.count == v.space;
  return v;
}

std::uint64_t count_graph_edges(const AnyRule& rule, const GraphVertices& v, const std::atomic<int>* stop) {
  return std::visit(
      [&](const auto& r) {
        const std::uint64_t chunks = (v.space + kChunkRanks - 1) / kChunkRanks;
        return tbb::parallel_reduce(
            tbb::blocked_range<std::uint64_t>(0, chunks, 1), std::uint64_t{0},
            [&](const auto& range, std::uint64_t n) {
              for (std::uint64_t c = range.begin(); c != range.end(); ++c) {
                if (stop && stop->load(std::memory_order_relaxed)) return n;
                each_edge(r, v, c * kChunkRanks, std::min(v.space, (c + 1) * kChunkRanks),
                          [&](std::uint64_t, std::uint64_t) { ++n; });
              }
              return n;
            },
            std::plus<>());
      },
      rule);
}

bool graph_edges_from_ranks(const AnyRule& rule) {
  return std::visit([](const auto& r) { return SuccessorRanks<std::decay_t<decltype(r)>>(r).from_rank_alone(); },
                    rule);
}

std::uint64_t graph_edges_bound(const AnyRule& rule, const GraphVertices& v) {
  return v.count * static_cast<std::uint64_t>(std::visit([](const auto& r) { return r.max_degree(); }, rule));
}

bool write_graph_files(const AnyRule& rule, const GraphVertices& v, std::uint64_t edges, const GraphFiles& files,
                       const std::atomic<int>* stop, std::uint64_t* written) {
  const bool directed = rule_directed(rule);
  const std::uint64_t chunks = (v.space + kChunkRanks - 1) / kChunkRanks;
  std::vector<std::unique_ptr<Output>> owned;
  std::vector<GraphFormat> formats;
  std::vector<Output*> graph_outs;
  for (const auto& [format, path] : files.graphs) {
    owned.push_back(std::make_unique<Output>(path));
    graph_outs.push_back(owned.back().get());
    formats.push_back(format);
  }
  auto format_of = [&](std::size_t i) { return formats[i]; };
  return std::visit(
      [&](const auto& r) {
        // Headers.
        for (std::size_t i = 0; i < formats.size(); ++i) {
          std::string h;
          switch (format_of(i)) {
            case GraphFormat::kEdgeList: break;
            case GraphFormat::kMatrixMarket:
              h = std::string("%%MatrixMarket matrix coordinate pattern ") + (directed ? "general" : "symmetric") +
                  "\n% stategraph export: " + std::string(rule_name(rule)) + " " + rule_grid(rule).label() +
                  (directed ? ", row u column v for each move u -> v" : ", one entry per move pair (lower triangle)") +
                  "; ids are 1 + " + (v.dense ? "the vertex id of vertices.csv" : "the rank") + "\n";
              put(h, v.id_bound()), h += ' ', put(h, v.id_bound()), h += ' ', put(h, edges), h += '\n';
              break;
            case GraphFormat::kGraphML:
              h = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                  "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
                  "  <key id=\"rank\" for=\"node\" attr.name=\"rank\" attr.type=\"long\"/>\n"
                  "  <key id=\"state\" for=\"node\" attr.name=\"state\" attr.type=\"string\"/>\n"
                  "  <key id=\"depth\" for=\"node\" attr.name=\"depth\" attr.type=\"int\"/>\n"
                  "  <key id=\"component\" for=\"node\" attr.name=\"component\" attr.type=\"int\"/>\n"
                  "  <graph id=\"" +
                  std::string(rule_name(rule)) + "-" + rule_grid(rule).label() + "\" edgedefault=\"" +
                  (directed ? "directed" : "undirected") + "\">\n";
              break;
            case GraphFormat::kDot:
              h = std::string(directed ? "digraph" : "graph") + " \"" + std::string(rule_name(rule)) + "-" +
                  rule_grid(rule).label() + "\" {\n";
              break;
          }
          graph_outs[i]->write(h);
        }
        // Vertices: the GraphML and DOT nodes, and vertices.csv.
        std::unique_ptr<Output> vertices_out;
        std::vector<Output*> node_outs;
        std::vector<int> node_kind;  // 0 graphml, 1 dot, 2 csv
        for (std::size_t i = 0; i < formats.size(); ++i) {
          if (format_of(i) == GraphFormat::kGraphML) node_outs.push_back(graph_outs[i]), node_kind.push_back(0);
          if (format_of(i) == GraphFormat::kDot) node_outs.push_back(graph_outs[i]), node_kind.push_back(1);
        }
        if (!files.vertices.empty()) {
          vertices_out = std::make_unique<Output>(files.vertices);
          vertices_out->write("id,rank,state,depth,component\n");
          node_outs.push_back(vertices_out.get()), node_kind.push_back(2);
        }
        if (!node_outs.empty()) {
          const bool done = stream_chunks(chunks, node_outs, stop, [&](std::uint64_t c, std::vector<Text>& t) {
            for (Text& x : t) x.buf.clear();
            auto unrank = make_unranker(r);
            each_member(v, c * kChunkRanks, std::min(v.space, (c + 1) * kChunkRanks), [&](std::uint64_t k) {
              const std::string state = r.format(unrank(k));
              const std::uint64_t id = v.id(k);
              const bool reached = v.depth[k] != kUnreached;
              for (std::size_t i = 0; i < node_outs.size(); ++i) {
                std::string& s = t[i].buf;
                if (node_kind[i] == 0) {
                  s += "    <node id=\"n", put(s, id), s += "\"><data key=\"rank\">", put(s, k);
                  s += "</data><data key=\"state\">" + xml_escaped(state) + "</data>";
                  if (reached) s += "<data key=\"depth\">", put(s, v.depth[k]), s += "</data>";
                  if (!v.component.empty()) s += "<data key=\"component\">", put(s, v.component[k]), s += "</data>";
                  s += "</node>\n";
                } else if (node_kind[i] == 1) {
                  s += "  ", put(s, id), s += " [label=\"" + dot_escaped(state) + "\"";
                  if (reached) s += ", depth=", put(s, v.depth[k]);
                  if (!v.component.empty()) s += ", component=", put(s, v.component[k]);
                  s += "];\n";
                } else {
                  put(s, id), s += ',', put(s, k), s += ',';
                  // A state holding a comma or a quote is quoted (CSV).
                  if (state.find_first_of(",\"") != std::string::npos) {
                    s += '"';
                    for (char ch : state) s += ch == '"' ? std::string("\"\"") : std::string(1, ch);
                    s += '"';
                  } else {
                    s += state;
                  }
                  s += ',';
                  if (reached) put(s, v.depth[k]);
                  s += ',';
                  if (!v.component.empty()) put(s, v.component[k]);
                  s += '\n';
                }
              }
            });
            for (Text& x : t) x.used = x.buf.size();
          });
          if (!done) return false;
        }
        // Edges; each chunk records its edge count in counts[c].
        std::vector<std::uint64_t> counts(chunks, 0);
        const bool done = stream_chunks(chunks, graph_outs, stop, [&](std::uint64_t c, std::vector<Text>& t) {
          std::vector<LineWriter> w(t.begin(), t.end());
          std::uint64_t count = 0;  // not ++counts[c]: neighbouring chunks' counts share a cache line
          each_edge(r, v, c * kChunkRanks, std::min(v.space, (c + 1) * kChunkRanks),
                    [&](std::uint64_t u, std::uint64_t q) {
                      ++count;
                      const std::uint64_t a = v.id(u), b = v.id(q);
                      for (std::size_t i = 0; i < formats.size(); ++i) {
                        LineWriter& s = w[i];
                        s.room();
                        switch (format_of(i)) {
                          case GraphFormat::kEdgeList: s.num(a), s.put(' '), s.num(b), s.put('\n'); break;
                          case GraphFormat::kMatrixMarket:
                            if (directed)
                              s.num(a + 1), s.put(' '), s.num(b + 1);
                            else  // symmetric: the lower triangle, row >= column
                              s.num(std::max(a, b) + 1), s.put(' '), s.num(std::min(a, b) + 1);
                            s.put('\n');
                            break;
                          case GraphFormat::kGraphML:
                            s.put("    <edge source=\"n"), s.num(a), s.put("\" target=\"n"), s.num(b), s.put("\"/>\n");
                            break;
                          case GraphFormat::kDot:
                            s.put("  "), s.num(a), s.put(directed ? " -> " : " -- "), s.num(b), s.put(";\n");
                            break;
                        }
                      }
                    });
          for (LineWriter& s : w) s.finish();
          counts[c] = count;
        });
        if (!done) return false;
        if (written) {
          *written = 0;
          for (std::uint64_t n : counts) *written += n;
        }
        for (std::size_t i = 0; i < formats.size(); ++i) {
          if (format_of(i) == GraphFormat::kGraphML) graph_outs[i]->write("  </graph>\n</graphml>\n");
          if (format_of(i) == GraphFormat::kDot) graph_outs[i]->write("}\n");
          graph_outs[i]->close();
        }
        if (vertices_out) vertices_out->close();
        return true;
      },
      rule);
}

std::string drawing_dot(const AnyRule& rule, const GraphVertices& v, std::uint64_t edges) {
  const bool directed = rule_directed(rule);
  int deepest = 0;
  for (std::uint64_t k = 0; k < v.space; ++k)
    if (v.member.test(k) && v.depth[k] != kUnreached) deepest = std::max<int>(deepest, v.depth[k]);
  const bool labels = v.count <= 150;
  const std::string label = std::string(rule_name(rule)) + " " + rule_grid(rule).label();
  std::string s = std::string(directed ? "digraph" : "graph") + " \"" + label + "\" {\n";
  s += "  graph [outputorder=edgesfirst, overlap=false, splines=false, bgcolor=white, fontname=\"Sans\", "
       "fontsize=14, labelloc=t, label=\"" +
       label + ": " + std::to_string(v.count) + " states" +
       (v.count < v.space ? " (those that reach the goal, of " + std::to_string(v.space) + ")" : std::string()) +
       ", " + std::to_string(edges) + (directed ? " moves (arcs)" : " moves") +
       ".\\nColour: distance to the goal, blue 0 to red " + std::to_string(deepest) + ". " +
       (labels ? "Thick black frames: the goal (blue) and the " + std::to_string(deepest) + "-move antipodes (red)."
               : "Large ringed disc: the goal; black squares: the " + std::to_string(deepest) + "-move antipodes.") +
       "\"];\n";
  s += std::string("  node [style=filled, fontname=\"Sans\", fontsize=7, penwidth=0.3, ") +
       (labels ? "shape=box, margin=0.02, width=0.2, height=0.15" : "shape=circle, label=\"\", width=0.09, fixedsize=true") +
       "];\n";
  s += std::string("  edge [color=\"#00000050\", penwidth=0.5") + (directed ? ", arrowsize=0.3" : "") + "];\n";
  std::visit(
      [&](const auto& r) {
        for (std::uint64_t k = 0; k < v.space; ++k) {
          if (!v.member.test(k)) continue;
          const std::string state = r.format(r.unrank(k));
          const int d = v.depth[k] == kUnreached ? -1 : v.depth[k];
          char color[40];
          if (d < 0)
            std::snprintf(color, sizeof color, "#bbbbbb");
          else  // hue 0.66 (blue) at depth 0 down to 0 (red) at the deepest
            std::snprintf(color, sizeof color, "%.3f 0.75 0.95",
                          0.66 * (1.0 - (deepest ? static_cast<double>(d) / deepest : 0.0)));
          s += "  ", put(s, v.id(k)), s += " [fillcolor=\"" + std::string(color) + "\", tooltip=\"" +
                                           dot_escaped(state) + " (depth " + std::to_string(d) + ")\"";
          if (labels) s += ", label=\"" + dot_escaped(state) + "\"";
          if (d == 0)
            s += labels ? ", penwidth=2.5, color=black" : ", width=0.3, penwidth=2.5, color=black";
          else if (d == deepest)
            s += labels ? ", penwidth=1.5, color=black, shape=box" : ", shape=square, width=0.2, penwidth=1.2, color=black";
          s += "];\n";
        }
        for (std::uint64_t k = 0; k < v.space; k += kChunkRanks)
          each_edge(r, v, k, std::min(v.space, k + kChunkRanks), [&](std::uint64_t a, std::uint64_t b) {
            s += "  ", put(s, v.id(a)), s += directed ? " -> " : " -- ", put(s, v.id(b)), s += ";\n";
          });
      },
      rule);
  s += "}\n";
  return s;
}

}  // namespace stategraph
