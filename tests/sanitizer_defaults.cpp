// Default options of the sanitizers, compiled into every executable of a sanitized build
// (CMake option STATEGRAPH_SANITIZE); the environment's *SAN_OPTIONS still override them.
// Halting on the first report makes a test fail instead of logging and going on.
extern "C" {
const char* __asan_default_options() { return "halt_on_error=1:detect_stack_use_after_return=1"; }
const char* __ubsan_default_options() { return "halt_on_error=1:print_stacktrace=1"; }
const char* __tsan_default_options() { return "halt_on_error=1:second_deadlock_stack=1"; }
// ThreadSanitizer suppressions: none compiled in. Against the distribution's
// uninstrumented oneTBB, TSan reports races on TBB's own task and body objects (README,
// "Sanitizers"); tests/tsan.supp lists them for TSAN_OPTIONS=suppressions=...
const char* __tsan_default_suppressions() { return ""; }
}
