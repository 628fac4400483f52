#include "stategraph/io/plot.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "stategraph/io/io.hpp"

extern char** environ;

namespace stategraph {
namespace {

// A gnuplot single-quoted string literal ('' stands for one quote).
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string last_line(const std::string& text) {
  std::istringstream in(text);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r^") != std::string::npos) last = line;
  return last;
}

// Runs argv with stdin and stdout on /dev/null; returns its exit status (-1: killed)
// and its stderr in `err`.
int run_program(const std::vector<std::string>& argv, std::string& err) {
  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0) throw PlotError(std::string("cannot create a pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipefd[1]);
  if (rc != 0) {
    ::close(pipefd[0]);
    throw PlotError("cannot run " + argv[0] + ": " + std::strerror(rc));
  }
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(pipefd[0], buf, sizeof buf);
    if (n > 0)
      err.append(buf, static_cast<std::size_t>(n));
    else if (n < 0 && errno == EINTR)
      continue;
    else
      break;
  }
  ::close(pipefd[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw PlotError(std::string("waitpid: ") + std::strerror(errno));
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

}  // namespace

std::string gnuplot_command() {
  const char* env = std::getenv("STATEGRAPH_GNUPLOT");
  return env && *env ? std::string(env) : std::string("gnuplot");
}

bool gnuplot_available() { return program_available(gnuplot_command()); }

bool program_available(const std::string& cmd) {
  if (cmd.find('/') != std::string::npos) return ::access(cmd.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::istringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + cmd;
    if (::access(candidate.c_str(), X_OK) == 0) return true;
  }
  return false;
}

std::string gnuplot_missing_message() {
  return "plots skipped: " + gnuplot_command() +
         " not found (install Debian package gnuplot-nox, or pass --no-plot); the CSVs are complete";
}

bool looks_like_png(const std::string& b) {
  static const char sig[] = "\x89PNG\r\n\x1a\n";
  if (b.size() < 24 || b.compare(0, 8, std::string(sig, 8)) != 0 || b.compare(12, 4, "IHDR") != 0) return false;
  auto be32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(b[at + static_cast<std::size_t>(i)]);
    return v;
  };
  return be32(16) > 0 && be32(20) > 0;
}

bool looks_like_svg(const std::string& t) {
  std::size_t i = 0;
  for (;;) {  // skip white space, the XML declaration, comments and a doctype
    i = t.find_first_not_of(" \t\r\n", i);
    if (i == std::string::npos) return false;
    std::string end;
    if (t.compare(i, 2, "<?") == 0)
      end = "?>";
    else if (t.compare(i, 4, "<!--") == 0)
      end = "-->";
    else if (t.compare(i, 2, "<!") == 0)
      end = ">";
    else
      break;
    i = t.find(end, i);
    if (i == std::string::npos) return false;
    i += end.size();
  }
  return t.compare(i, 4, "<svg") == 0 && i + 4 < t.size() && std::isspace(static_cast<unsigned char>(t[i + 4])) &&
         t.find("</svg>") != std::string::npos;
}

namespace {

// The images of a source file: stages `source_name` (the script or DOT text), runs
// `draw(staged source, tmp svg, tmp png)` (the tool's exit status; `tool` names it in the
// errors), checks both images, then renames them in and commits the source. Nothing of
// `base` is left in `dir` on a failure.
template <class Draw>
void render_images(const std::filesystem::path& dir, const std::string& base, const std::string& source_name,
                   const std::string& source_text, const std::string& tool, const char* what, Draw&& draw) {
  const std::string pid = std::to_string(::getpid());
  const auto tmp_svg = dir / (base + ".tmp." + pid + ".svg"), tmp_png = dir / (base + ".tmp." + pid + ".png");
  FileSet files(dir);  // the source, staged; renamed only after both images check out
  files.stage(source_name, source_text);
  struct Cleanup {
    std::vector<std::filesystem::path> paths;
    ~Cleanup() {
      for (const auto& p : paths) ::unlink(p.c_str());
    }
  } cleanup{{tmp_svg, tmp_png}};
  std::string err;
  const int status = draw(dir / (source_name + ".tmp." + pid), tmp_svg, tmp_png, err);
  if (status != 0) {
    const std::string why = last_line(err);
    throw PlotError(tool + " failed on " + source_name + " (" +
                    (status < 0 ? std::string("killed") : "exit " + std::to_string(status)) + ")" +
                    (why.empty() ? "" : ": " + why));
  }
  if (!looks_like_svg(slurp(tmp_svg))) throw PlotError(tool + " wrote no valid SVG for " + base);
  if (!looks_like_png(slurp(tmp_png))) throw PlotError(tool + " wrote no valid PNG for " + base);
  if (std::rename(tmp_svg.c_str(), (dir / (base + ".svg")).c_str()) != 0 ||
      std::rename(tmp_png.c_str(), (dir / (base + ".png")).c_str()) != 0)
    throw PlotError(std::string("cannot rename the ") + what + " " + base + " into " + dir.string() + ": " +
                    std::strerror(errno));
  files.commit();
}

}  // namespace

void render_plot(const std::filesystem::path& dir, const std::string& base, const std::string& comment,
                 const std::string& body) {
  std::ostringstream script;
  std::istringstream lines(comment);
  for (std::string line; std::getline(lines, line);) script << "# " << line << "\n";
  script << "# Redraw: cd to this folder, then `gnuplot " << base << ".gp` (writes " << base << ".svg and " << base
         << ".png).\n"
         << "if (!exists(\"out\")) out = " << quoted(base) << "\n"
         << "set terminal svg size 900,540 dynamic enhanced font \"Sans,12\" background rgb \"white\"\n"
         << "set output out.\".svg\"\n"
         << body << "set terminal pngcairo size 900,540 enhanced font \"Sans,10\" background rgb \"white\"\n"
         << "set output out.\".png\"\n"
         << "replot\n"
         << "unset output\n";
  const auto tmp_base = dir / (base + ".tmp." + std::to_string(::getpid()));
  render_images(dir, base, base + ".gp", script.str(), gnuplot_command(), "plot",
                [&](const std::filesystem::path& source, const std::filesystem::path&, const std::filesystem::path&,
                    std::string& err) {
                  // The script writes out.svg and out.png itself: out is the temporary base.
                  return run_program({gnuplot_command(), "-e", "out=" + quoted(tmp_base.string()), source.string()},
                                     err);
                });
}

void render_graph(const std::filesystem::path& dir, const std::string& base, const std::string& dot,
                  const std::string& layout) {
  render_images(dir, base, base + ".dot", dot, layout, "drawing",
                [&](const std::filesystem::path& source, const std::filesystem::path& svg,
                    const std::filesystem::path& png, std::string& err) {
                  for (const auto& [type, out] : {std::pair{"-Tsvg", svg}, std::pair{"-Tpng", png}})
                    if (const int status = run_program({layout, type, "-o", out.string(), source.string()}, err))
                      return status;
                  return 0;
                });
}

std::string distribution_title(const std::string& label, std::uint64_t reachable, std::uint64_t space_size) {
  return label + ": states by distance from the goal (" + std::to_string(reachable) + " of " +
         std::to_string(space_size) + " reachable)";
}

std::string distribution_plot(const std::string& title, const std::vector<std::uint64_t>& layers, bool log_scale) {
  if (layers.empty()) throw std::logic_error("distribution_plot of an empty BFS");
  const std::size_t max_depth = layers.size() - 1;
  std::ostringstream s;
  s << "$data << EOD\n# depth states antipodes(1 = the max depth)\n";
  for (std::size_t d = 0; d < layers.size(); ++d) s << d << " " << layers[d] << " " << (d == max_depth) << "\n";
  s << "EOD\n"
    << "set title " << quoted(title) << " noenhanced\n"
    << "set xlabel \"distance from the goal (moves)\"\n"
    << "set ylabel \"states at that distance" << (log_scale ? " (log scale)" : "") << "\"\n"
    << "set style fill solid 0.85 border -1\n"
    << "set boxwidth 0.8\n"
    << "set grid ytics\n"
    << "set key top left opaque\n"
    << "set xrange [-0.8:" << max_depth << ".8]\n"
    << (log_scale ? "set logscale y\nset yrange [0.7:*]\n" : "set yrange [0:*]\n") << "set format y \"%.0s%c\"\n"
    << "set arrow 1 from " << max_depth << ", graph 0 to " << max_depth
    << ", graph 1 nohead dashtype 2 lw 1.5 lc rgb \"#b22222\" front\n"
    << "set style textbox opaque noborder\n"
    << "set label 1 \"max depth " << max_depth << "\\n"
    << layers.back() << " antipode" << (layers.back() == 1 ? "" : "s") << "\" at " << max_depth
    << ", graph 0.93 right offset -1,0 textcolor rgb \"#b22222\" boxed front\n"
    << "plot $data using 1:($3 == 0 ? $2 : NaN) with boxes lc rgb \"#4682b4\" title \"states\", \\\n"
    << "     $data using 1:($3 == 1 ? $2 : NaN) with boxes lc rgb \"#b22222\" title \"antipodes (at the max depth)\"\n";
  return s.str();
}

std::string compare_seconds_plot(const CompareReport& report, const CompareSummary& summary) {
  std::map<std::pair<std::string, int>, const CompareCell*> cell;
  for (const auto& c : summary.cells) cell[{c.variant, c.threads}] = &c;
  std::ostringstream s;
  s << "$data << EOD\n# variant, then median min max seconds for each thread count:";
  for (int t : report.threads) s << " " << t;
  s << "\n";
  for (const auto& v : report.variants) {
    s << v;
    for (int t : report.threads) {
      const auto it = cell.find({v, t});
      if (it == cell.end())
        s << " NaN NaN NaN";
      else
        s << " " << fmt_double(it->second->median_seconds) << " " << fmt_double(it->second->min_seconds) << " "
          << fmt_double(it->second->max_seconds);
    }
    s << "\n";
  }
  std::string labels;
  for (int t : report.threads) labels += (labels.empty() ? "" : " ") + std::to_string(t);
  s << "EOD\n"
    << "threads = \"" << labels << "\"\n"
    << "set title "
    << quoted(report.rule + " " + std::to_string(report.rows) + "x" + std::to_string(report.cols) + ": " +
              std::to_string(report.space_size) + " states, seconds per full BFS (median of " +
              std::to_string(report.repeat) + ", bars min to max)")
    << " noenhanced\n"
    << "set ylabel \"seconds (log scale)\"\n"
    << "set xlabel \"BFS variant\"\n"
    << "set style data histogram\n"
    << "set style histogram errorbars gap 1.5 lw 1\n"
    << "set style fill solid 0.85 border -1\n"
    << "set datafile missing \"NaN\"\n"
    << "set logscale y\n"
    << "set format y \"%g\"\n"
    << "set grid ytics mytics\n"
    << "set key top right title \"threads\"\n"
    << "plot for [i=1:words(threads)] $data using (column(3*i-1)):(column(3*i)):(column(3*i+1)):xtic(1) "
       "title word(threads, i) lc i\n";
  return s.str();
}

std::string compare_levels_plot(const CompareReport& report) {
  const int threads = report.threads.empty() ? 1 : report.threads.back();
  struct Series {
    std::string variant;
    std::vector<std::string> rows;
  };
  std::vector<Series> series;
  for (const auto& v : report.variants) {
    if (const VariantInfo* info = lookup_variant(v); info && !info->timed_levels) continue;  // e.g. reference
    std::map<int, std::vector<double>> secs;
    std::map<int, Direction> dir;
    for (const auto& run : report.runs)
      if (run.variant == v && run.threads == threads)
        for (const auto& l : run.result.levels) secs[l.depth].push_back(l.seconds), dir.emplace(l.depth, l.direction);
    Series s{v, {}};
    for (const auto& [depth, values] : secs) {
      const double m = median(values);
      if (depth == 0 || !(m > 0)) continue;  // the goal layer is set-up time; untimed levels
      const int pt = dir[depth] == Direction::kBottomUp ? 7 : dir[depth] == Direction::kScan ? 5 : 6;
      s.rows.push_back(std::to_string(depth) + " " + fmt_double(m) + " " + std::to_string(pt));
    }
    if (!s.rows.empty()) series.push_back(std::move(s));
  }
  if (series.empty()) return "";
  std::ostringstream s;
  for (std::size_t i = 0; i < series.size(); ++i) {
    s << "$v" << i << " << EOD\n# " << series[i].variant
      << ": depth, median seconds, point type (6 top-down, 7 bottom-up)\n";
    for (const auto& r : series[i].rows) s << r << "\n";
    s << "EOD\n";
  }
  s << "set title "
    << quoted(report.rule + " " + std::to_string(report.rows) + "x" + std::to_string(report.cols) +
              ": seconds per BFS level at " + std::to_string(threads) + " thread" + (threads == 1 ? "" : "s") +
              " (median of " + std::to_string(report.repeat) + ")")
    << " noenhanced\n"
    << "set xlabel \"BFS level (depth of the layer found)\"\n"
    << "set ylabel \"seconds for the level (log scale)\"\n"
    << "set logscale y\n"
    << "set format y \"%g\"\n"
    << "set grid xtics ytics\n"
    << "set key top left opaque\n"
    << "plot ";
  for (std::size_t i = 0; i < series.size(); ++i)
    s << "$v" << i << " using 1:2:3 with linespoints pt variable ps 1.2 lw 1.5 lc rgb \""
      << kPalette[i % std::size(kPalette)] << "\" title " << quoted(series[i].variant) << ", \\\n     ";
  s << "NaN with points pt 6 ps 1.2 lc rgb \"black\" title \"top-down level\", \\\n"
    << "     NaN with points pt 7 ps 1.2 lc rgb \"black\" title \"bottom-up level\"\n";
  return s.str();
}

}  // namespace stategraph
