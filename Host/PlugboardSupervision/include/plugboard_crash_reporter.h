#ifndef PLUGBOARD_CRASH_REPORTER_H
#define PLUGBOARD_CRASH_REPORTER_H


/// The supervised child's crash reporter: the signal handlers that write
/// a crash, or a stop request plugin code sent itself, on the progress
/// pipe for the parent to report. They are async-signal-safe C.

/// Whether the progress pipe given to ``plugboard_install_crash_reporter``
/// is still open as itself. Nothing is written to it otherwise.
int plugboard_progress_is_intact(void);

/// In the supervised child: on SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE or
/// SIGABRT, writes a crash line to `fd` (`C<signal>\t<Swift fatal error
/// message, if any>\n`), then where it happened (`W` lines, see
/// ``plugboard_crash_site_write``), then writes out what C stdio's standard
/// output still buffers (so an application's earlier lines are not lost;
/// without stdio's lock), then calls `describe(fd)` (which may write more
/// lines naming what was being resolved), then lets the default action end
/// the process; or, when `SWIFT_BACKTRACE` is set, the previous handler
/// (the Swift runtime's backtracer, which the user asked for). The handler
/// runs on an alternate signal stack (the calling thread's, made here; see
/// ``plugboard_prepare_thread_for_crashes`` for the others), so a stack
/// overflow is reported too. Only the first thread to crash writes; one
/// that crashes meanwhile waits up to three seconds for it.
/// `describe` runs inside a signal handler, last: a two-second alarm ends
/// the process if it does not return.
///
/// Also catches SIGINT, SIGTERM and SIGHUP during bring-up: each ends the
/// process by its default action, but one the process sent itself (plugin
/// code calling `kill(getpid(), …)` or `raise`) first writes `K<signal>` to
/// `fd`, for the parent to blame the plugin.
void plugboard_install_crash_reporter(int fd, void (*describe)(int fd));

/// Gives SIGINT, SIGTERM and SIGHUP back their default action, once
/// bring-up is over (the application, or `run`'s orderly stop, owns them).
void plugboard_release_request_signals(void);

#endif
