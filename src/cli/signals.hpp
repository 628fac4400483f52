// SIGINT / SIGTERM during a long command: the handler only stores the signal number in
// an atomic flag that the BFS polls (BfsOptions::stop), so the search stops at a safe
// point, nothing half-written is committed, and the command exits 128 + signal. The
// handler is one-shot (SA_RESETHAND): a second Ctrl-C kills the process at once.
#pragma once

#include <atomic>
#include <string>

namespace stategraph::cli {

class StopOnSignals {
 public:
  StopOnSignals();   // installs the handlers for SIGINT and SIGTERM
  ~StopOnSignals();  // restores the previous handlers
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;

  const std::atomic<int>& flag() const;
  int signal() const { return flag().load(std::memory_order_relaxed); }
};

std::string signal_name(int sig);  // "SIGINT", "SIGTERM", "signal 7"

// Test hook: when STATEGRAPH_TEST_SIGNAL_AT_DEPTH=D:SIG is set, raises SIG once after
// the level at depth D has been recorded (used by tests/cli_test.sh). Returns the depth
// (-1 when unset) and stores SIG.
int test_signal_depth(int& sig);
// compare's test hook (compare.cpp): STATEGRAPH_TEST_SIGNAL_AT_LINE=N:SIG raises SIG right
// after the N-th progress line (counted with --quiet too), between two runs.

}  // namespace stategraph::cli
