// parse_queries: every solve input format (first byte picks the rule and keep_going).
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const stategraph::AnyRule& rule = fuzz::rule_for(data[0] >> 1);
  const bool keep_going = data[0] & 1;
  const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    const auto queries = stategraph::parse_queries(rule, input, keep_going);
    int last = 0;
    for (const auto& q : queries) {
      if (q.number <= last) fuzz::finding("query numbers not increasing");
      last = q.number;
      if (q.error.empty())
        fuzz::check_state(rule, q.state);
      else if (!keep_going)
        fuzz::finding("error entry without keep_going");
    }
  } catch (const stategraph::InputError& e) {
    fuzz::check_message(e);
  }
  return 0;
}
