// parse_state (--state) and the rules' own parse (--start, table and checkpoint text).
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const stategraph::AnyRule& rule = fuzz::rule_for(data[0]);
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    fuzz::check_state(rule, stategraph::parse_state(rule, text));
  } catch (const stategraph::InputError& e) {
    fuzz::check_message(e);
  }
  try {  // cardswap --start: a rule built from the text
    const stategraph::CardSwap card(stategraph::Grid(2, 3), text);
    fuzz::check_state(stategraph::AnyRule(card), card.start());
  } catch (const stategraph::InputError& e) {
    fuzz::check_message(e);
  }
  return 0;
}
