// Plots drawn by gnuplot (Debian package gnuplot-nox; target stategraph_tools, apart
// from the core library): stategraph writes a self-contained gnuplot script (data
// inline) and runs gnuplot on it, which writes the figure as SVG and PNG.
//
// Script and
// images go to temporary names first and are renamed into place only when gnuplot
// exited 0 and both images check out, so a failure leaves the folder as it was.
//   <base>.gp   the script; `cd <dir> && gnuplot <base>.gp` redraws both images
//   <base>.svg  <base>.png
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "stategraph/analysis/compare.hpp"

namespace stategraph {

class PlotError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The gnuplot program: $STATEGRAPH_GNUPLOT when set and not empty, else "gnuplot".
std::string gnuplot_command();
// Whether gnuplot_command() names an executable (a path, or a name found on PATH).
bool gnuplot_available();
// The one-line message printed when plots are skipped for want of gnuplot.
std::string gnuplot_missing_message();
// Whether `cmd` names an executable (a path, or a name found on PATH).
bool program_available(const std::string& cmd);

// Writes <dir>/<base>.dot and, by the Graphviz layout program `layout` (sfdp, neato,
// dot...), <base>.svg and <base>.png; the images are checked before they are renamed in.
// Throws PlotError with the program's last error line.
void render_graph(const std::filesystem::path& dir, const std::string& base, const std::string& dot,
                  const std::string& layout);

// Writes <dir>/<base>.gp, .svg and .png from a script body (data blocks, settings and
// one `plot` command; the terminals and outputs are added here). `comment` becomes the
// script's first lines (what made it). Throws PlotError with gnuplot's last error line.
void render_plot(const std::filesystem::path& dir, const std::string& base, const std::string& comment,
                 const std::string& body);

// "rotate-3x3: states by distance from the goal (362880 of 362880 reachable)".
std::string distribution_title(const std::string& label, std::uint64_t reachable, std::uint64_t space_size);

// Bodies for render_plot.
// distribution: one bar per depth (states at that distance from the goal), the max
// depth marked by a dashed line and its bar (the antipodes) in another colour.
std::string distribution_plot(const std::string& title, const std::vector<std::uint64_t>& layers, bool log_scale);
// compare_seconds: median seconds per variant, one bar per thread count, min-max bars.
std::string compare_seconds_plot(const CompareReport& report, const CompareSummary& summary);
// compare_levels: median seconds of each BFS level per variant at the largest thread
// count, the direction of each level as the point's shape (open: top-down, filled:
// bottom-up); reference is left out (it does not time its levels), and so is depth 0
// (set-up). Empty string when no variant is left.
std::string compare_levels_plot(const CompareReport& report);

// Checks of the images render_plot produces (also used by the tests' callers).
bool looks_like_png(const std::string& bytes);  // signature + IHDR with non-zero size
bool looks_like_svg(const std::string& text);   // root element <svg ...> (after prolog)

}  // namespace stategraph
