#ifndef PLUGBOARD_SHUTDOWN_H
#define PLUGBOARD_SHUTDOWN_H

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
/// carries. Returns the pipe's read end (close-on-exec, non-blocking), the same
/// on every call, or -1 when no pipe could be made (the signals then keep
/// their default action).
int plugboard_catch_shutdown_signals(void);

#endif
