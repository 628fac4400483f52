// stategraph: breadth-first search over every state of small permutation puzzles.
#include <CLI/CLI.hpp>
#include <iostream>
#include <new>
#include <vector>

#include "cli/commands.hpp"
#include "stategraph/core/state.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "stategraph: full state-graph analysis of small permutation puzzles on grids\n"
      "(sliding, rotate, primeswap, cardswap) by breadth-first search over ranked states."};
  stategraph::cli::record_invocation(argc, argv);
  app.set_version_flag("--version", stategraph::cli::version_text("stategraph"),
                       "Print the version and the git revision of this build, then exit");
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Print help for every subcommand");
  const std::vector<stategraph::cli::Command> commands = {
      stategraph::cli::add_rules(app),  stategraph::cli::add_analyze(app), stategraph::cli::add_solve(app),
      stategraph::cli::add_table(app),  stategraph::cli::add_compare(app), stategraph::cli::add_plot(app),
      stategraph::cli::add_export(app), stategraph::cli::add_draw(app),    stategraph::cli::add_check_bounds(app),
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "stategraph: error: " << e.what() << " (see --help)\n";
    return 2;
  }
  try {
    for (const auto& command : commands)
      if (command.sub->parsed()) return stategraph::cli::checked_stdout(command.run());
  } catch (const stategraph::InputError& e) {
    std::cerr << "stategraph: error: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "stategraph: error: out of memory (an allocation failed; see --max-memory, --variant twobit)\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "stategraph: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
