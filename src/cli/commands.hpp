// The CLI's subcommands. Each registers its options on the app and returns the
// function that runs it once parsing succeeded. Errors travel as exceptions:
// InputError -> exit 2, other std::exception -> exit 1 (see main.cpp).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "options.hpp"

namespace stategraph::cli {

struct Command {
  CLI::App* sub;             // the parsed subcommand
  std::function<int()> run;  // runs it; returns the exit code
};

Command add_rules(CLI::App& app);
Command add_analyze(CLI::App& app);
Command add_solve(CLI::App& app);         // solve.cpp
Command add_table(CLI::App& app);         // solve.cpp: table build
Command add_compare(CLI::App& app);       // compare.cpp
Command add_plot(CLI::App& app);          // plot.cpp
Command add_export(CLI::App& app);        // export.cpp
Command add_draw(CLI::App& app);          // export.cpp
Command add_check_bounds(CLI::App& app);  // check_bounds.cpp

// Flushes standard output and turns a write error (a full disk, /dev/full, a closed
// pipe) into std::runtime_error naming it; returns `code` otherwise (signals.cpp).
int checked_stdout(int code);

}  // namespace stategraph::cli
