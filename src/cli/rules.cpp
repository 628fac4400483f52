#include <iomanip>
#include <iostream>

#include "commands.hpp"
#include "stategraph/rules/rule.hpp"

namespace stategraph::cli {

Command add_rules(CLI::App& app) {
  auto* sub = app.add_subcommand("rules", "List the move rules, their default sizes and space sizes");
  return {sub, [] {
            std::cout << std::left << std::setw(11) << "rule" << std::setw(9) << "default" << std::setw(14)
                      << "space_size"
                      << "moves\n";
            for (const auto& info : rule_table()) {
              const AnyRule rule = make_rule(info.name);
              std::cout << std::setw(11) << info.name << std::setw(9) << rule_grid(rule).label() << std::setw(14)
                        << rule_size(rule) << info.summary << "\n";
            }
            std::cout << std::setw(11) << "file:PATH" << std::setw(9) << "-" << std::setw(14) << "-"
                      << "a permutation puzzle read from a twsearch/ksolve-style definition (one set, n <= 16)\n";
            return 0;
          }};
}

}  // namespace stategraph::cli
