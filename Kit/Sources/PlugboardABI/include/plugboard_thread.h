#ifndef PLUGBOARD_THREAD_H
#define PLUGBOARD_THREAD_H

struct plugboard_reader_slot;

/// Internal to PlugboardKit: what the library keeps per thread, read on
/// every resolution. A C thread-local variable rather than two
/// `pthread_getspecific` calls into glibc: with the
/// initial-exec model, reading it is one load relative to the thread
/// pointer, also from a plugin that inlined a resolve. Initial-exec is
/// sound because libPlugboardKit.so is a dependency of the host executable
/// (its block is part of the static TLS); a process that only dlopens a
/// plugin gets the few bytes from glibc's static TLS reserve.
/// The pthread keys remain, for their destructors at thread exit.
typedef struct plugboard_thread_state {
  /// The thread's reader slot (see plugboard_readers.h), or null before its
  /// first lookup.
  struct plugboard_reader_slot *reader;
  /// The thread's resolution context (a retained Swift object), or null.
  void *context;
} plugboard_thread_state;

/// Internal to PlugboardKit: the calling thread's state. Declared here and
/// reached only through `plugboard_thread_current`, since Swift does not
/// import thread-local variables.
extern __thread plugboard_thread_state plugboard_thread __attribute__((tls_model("initial-exec")));

/// Internal to PlugboardKit: the calling thread's state.
static inline __attribute__((always_inline)) plugboard_thread_state *plugboard_thread_current(void) {
  return &plugboard_thread;
}

#endif
