#ifndef PLUGBOARD_SHUTDOWN_H
#define PLUGBOARD_SHUTDOWN_H

#include <signal.h>
#include <sys/types.h>


/// Orderly shut-down of `plugboard run` on SIGINT and SIGTERM.
///
/// Installs handlers for SIGINT and SIGTERM: the first one writes its
/// signal number, as one byte, to a pipe and returns (the process goes on,
/// and its Swift side shuts down in order, then ends by that signal through
/// `plugboard_exit`); a second *request* restores the default action and
/// re-raises, so the process ends by that signal at once. A signal that
/// reaches the process both directly and forwarded by the supervising
/// parent (one sent to the whole process group) is one request: copies are
/// told apart by their original sender, which the parent's forwarded copy
/// carries (see ``plugboard_shutdown_forwarded``). Returns the pipe's read end (close-on-exec, non-blocking), the same
/// on every call, or -1 when no pipe could be made (the signals then keep
/// their default action).
int plugboard_catch_shutdown_signals(void);

/// For the forwarding signal's handler: SIGINT or SIGTERM that `sender`
/// sent the supervising parent, which passed it on. Returns 1 when the
/// shut-down handlers are installed and took it (as a new request, or as
/// the copy of one already counted), 0 otherwise.
int plugboard_shutdown_forwarded(int signal, pid_t sender);

#endif
