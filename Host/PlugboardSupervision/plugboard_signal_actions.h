// Declarations the C files of the supervision share with each other and
// not with Swift (which sees only include/). Every function here is
// async-signal-safe: the handlers call them.
#ifndef PLUGBOARD_SIGNAL_ACTIONS_H
#define PLUGBOARD_SIGNAL_ACTIONS_H

#include <signal.h>
#include <stddef.h>

#define PLUGBOARD_INTERNAL __attribute__((visibility("hidden")))

/// Gives `signal` its default action back.
PLUGBOARD_INTERNAL void plugboard_default_action(int signal);

/// `handler` for `signal`, with its siginfo, nothing else blocked; the
/// action it replaces in `previous`, unless NULL.
PLUGBOARD_INTERNAL void plugboard_install_handler(
    int signal, void (*handler)(int, siginfo_t *, void *), int flags, struct sigaction *previous);

/// In a new supervised child, before anything else runs: handles the
/// parent's forwarded signals (plugboard_forwarding.c), and takes one the
/// parent queued meanwhile.
PLUGBOARD_INTERNAL void plugboard_accept_forwarded_signals(void);

/// Whether the child is still bringing the deployment up, its stop
/// requests caught by the crash reporter (plugboard_crash_reporter.c).
PLUGBOARD_INTERNAL int plugboard_is_bringing_up(void);

/// Writes `count` bytes on the progress pipe of
/// ``plugboard_install_crash_reporter``, while it is intact; nothing
/// otherwise.
PLUGBOARD_INTERNAL void plugboard_write_progress(const char *bytes, size_t count);

#endif
