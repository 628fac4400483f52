// Shared by the libFuzzer targets: the rules a fuzz input is parsed against, chosen by
// its first byte, and the contract every parser must keep — return a value or throw
// InputError with a one-line message; any other exception, a crash or a sanitizer
// report is a finding. Built with -DSTATEGRAPH_FUZZ=ON (clang), run by tests/fuzz/run.sh.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "stategraph/solve/solve.hpp"

namespace fuzz {

inline const stategraph::AnyRule& rule_for(std::uint8_t selector) {
  using stategraph::make_solve_rule;
  static const stategraph::AnyRule rules[] = {
      make_solve_rule("sliding"),         make_solve_rule("rotate"),         make_solve_rule("primeswap"),
      make_solve_rule("cardswap"),        make_solve_rule("sliding", 2, 3),  make_solve_rule("rotate", 2, 4),
      make_solve_rule("primeswap", 4, 4), make_solve_rule("cardswap", 3, 3), make_solve_rule("sliding", 4, 4),
  };
  return rules[selector % (sizeof rules / sizeof rules[0])];
}

[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz finding: %s\n", what.c_str());
  std::abort();
}

inline void check_message(const stategraph::InputError& e) {
  const std::string_view m = e.what();
  if (m.empty() || m.find('\n') != std::string_view::npos)
    finding("InputError message not one line: " + std::string(m));
}

// Every accepted state must lie in the rule's space and survive rank/unrank and
// format/parse round trips.
inline void check_state(const stategraph::AnyRule& rule, stategraph::State s) {
  std::visit(
      [&](const auto& r) {
        if (!r.in_space(s)) {
          if constexpr (std::is_same_v<std::decay_t<decltype(r)>, stategraph::Sliding>) return;  // other parity: -1
          finding("parsed state outside the space: " + r.format(s));
        }
        const std::uint64_t k = r.rank(s);
        if (k >= r.size() || r.unrank(k) != s) finding("rank/unrank round trip failed for " + r.format(s));
        if (r.parse(r.format(s)) != s) finding("format/parse round trip failed for " + r.format(s));
      },
      rule);
}

}  // namespace fuzz
