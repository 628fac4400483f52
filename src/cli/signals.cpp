#include "signals.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>

#include "commands.hpp"

namespace stategraph::cli {
namespace {

std::atomic<int> g_stop{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free flag");

struct sigaction g_old_int {
}, g_old_term{};

extern "C" void on_stop_signal(int sig) { g_stop.store(sig, std::memory_order_relaxed); }

}  // namespace

StopOnSignals::StopOnSignals() {
  g_stop.store(0, std::memory_order_relaxed);
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND | SA_RESTART;
  ::sigaction(SIGINT, &sa, &g_old_int);
  ::sigaction(SIGTERM, &sa, &g_old_term);
}

StopOnSignals::~StopOnSignals() {
  ::sigaction(SIGINT, &g_old_int, nullptr);
  ::sigaction(SIGTERM, &g_old_term, nullptr);
}

const std::atomic<int>& StopOnSignals::flag() const { return g_stop; }

int checked_stdout(int code) {
  std::cout.flush();
  errno = 0;
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout.good();
  if (failed)
    throw std::runtime_error(std::string("cannot write standard output: ") +
                             (errno ? std::strerror(errno) : "write error"));
  return code;
}

std::string signal_name(int sig) {
  if (sig == SIGINT) return "SIGINT";
  if (sig == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(sig);
}

int test_signal_depth(int& sig) {
  const char* hook = std::getenv("STATEGRAPH_TEST_SIGNAL_AT_DEPTH");
  if (!hook) return -1;
  char* end = nullptr;
  const long depth = std::strtol(hook, &end, 10);
  if (end == hook || *end != ':') return -1;
  sig = static_cast<int>(std::strtol(end + 1, nullptr, 10));
  return static_cast<int>(depth);
}

}  // namespace stategraph::cli
