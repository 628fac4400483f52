// Checkpoint files (analyze --resume): header, levels and checksum checks, then a
// resume into the variant the file names, which must refuse inconsistent buffers.
// Odd-sized inputs skip the checksum, so mutations reach the checks behind it.
#include "fuzz_common.hpp"
#include "stategraph/bfs/checkpoint.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const stategraph::LoadedCheckpoint c = stategraph::parse_checkpoint(data, size, "fuzz", (size & 1) == 0);
    if (c.identity.space > 5000000) return 0;  // keep each run small
    const stategraph::AnyRule rule = stategraph::make_rule(
        c.identity.rule, c.identity.rows, c.identity.cols,
        c.identity.rule == "cardswap" ? stategraph::RuleOptions{"A*/**/ B"} : stategraph::RuleOptions{});
    if (stategraph::rule_size(rule) != c.identity.space ||
        !stategraph::variant_supports_checkpoints(c.identity.variant))
      return 0;
    stategraph::BfsOptions o;
    o.want_depths = c.identity.want_depths;
    o.resume = &c;
    stategraph::find_variant(c.identity.variant).run(rule, o);
  } catch (const stategraph::InputError& e) {
    fuzz::check_message(e);
  }
  return 0;
}
