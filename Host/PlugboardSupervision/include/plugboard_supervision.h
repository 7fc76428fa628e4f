#ifndef PLUGBOARD_SUPERVISION_H
#define PLUGBOARD_SUPERVISION_H

#include <sys/types.h>

/// The process primitives the supervisor needs and Swift cannot call
/// directly (`fork` is unavailable in Swift, `syscall` is variadic), and the
/// signal handlers, which must be async-signal-safe C.

/// fork(2). Called only while the process has a single thread.
pid_t plugboard_fork(void);

/// pidfd_open(2): a descriptor that polls readable when `pid` exits, or -1.
int plugboard_pidfd_open(pid_t pid);

/// In the supervising parent: SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to
/// the parent by another process (kill, a service manager) are passed on
/// to `child`. Signals the terminal sends reach the child directly, as it
/// shares the parent's process group, so they are not passed on twice.
void plugboard_forward_signals(pid_t child);

/// Blocks SIGINT, SIGTERM, SIGHUP and SIGQUIT in the calling thread, from
/// just before the fork until the parent forwards them: one sent to the
/// parent in between waits, instead of ending the parent while the child
/// runs on.
void plugboard_block_forwarded_signals(void);

/// Unblocks SIGINT, SIGTERM, SIGHUP and SIGQUIT in the calling thread. A
/// process started from a thread that blocks them (a Dispatch worker's
/// `posix_spawn`) inherits the mask; a supervisor that promises to pass
/// them on must be able to receive them, and the child to act on them.
void plugboard_unblock_forwarded_signals(void);

/// In the supervised child: on SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE or
/// SIGABRT, writes a crash line to `fd` (`C<signal>\t<Swift fatal error
/// message, if any>\n`), then calls `describe(fd)` (which may write more
/// lines naming what was being resolved), flushes C stdio's standard output
/// (so an application's earlier lines are not lost), then lets the default action end
/// the process; or, when `SWIFT_BACKTRACE` is set, the previous handler
/// (the Swift runtime's backtracer, which the user asked for).
/// `describe` runs inside a signal handler: a two-second alarm ends the
/// process if it does not return.
void plugboard_install_crash_reporter(int fd, void (*describe)(int fd));

#endif
