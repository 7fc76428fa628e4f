#ifndef PLUGBOARD_SUPERVISION_H
#define PLUGBOARD_SUPERVISION_H

#include <sys/types.h>

/// The process primitives the supervisor needs and Swift cannot call
/// directly (`fork` is unavailable in Swift, `syscall` is variadic), and the
/// signal handlers, which must be async-signal-safe C.

/// fork(2). Called only while the process has a single thread. The child
/// asks for SIGKILL when the parent dies (`PR_SET_PDEATHSIG`), and ends at
/// once if the parent died before that took effect; it handles the
/// parent's forwarded signals (``plugboard_forward_signals``) from the
/// start.
pid_t plugboard_fork(void);

/// In a child the launcher forked from `parent`, which then started the
/// host (see plugboard_launch.h): what ``plugboard_fork`` does in its
/// child. The launcher asked for SIGKILL on the parent's death already;
/// exec keeps it.
void plugboard_adopt_as_child(pid_t parent);

/// Makes this process the subreaper of its descendants
/// (`PR_SET_CHILD_SUBREAPER`): what plugin code in a child starts, and the
/// child leaves behind, becomes this process's child, not init's. 0 on
/// success.
int plugboard_become_subreaper(void);

/// Kills (SIGKILL) and reaps every child of this process, and those that
/// come to it as their parents die, until it has none: for after the
/// supervised child was reaped, when what is left was started by plugin
/// code. Returns how many it reaped.
int plugboard_end_descendants(void);

/// ``plugboard_reap_strays`` with two supervised children, during a
/// reload: reaps the ended children that are neither.
void plugboard_reap_strays_except(pid_t first, pid_t second);

/// Reaps the children that ended, except `child` (left for its own
/// `waitpid`): processes plugin code left behind, which came to this
/// subreaper, must not stay zombies while the child runs.
void plugboard_reap_strays(pid_t child);

/// pidfd_open(2): a descriptor that polls readable when `pid` exits, or -1.
int plugboard_pidfd_open(pid_t pid);

/// In the supervising parent: SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to
/// the parent by another process (kill, a service manager) are passed on
/// to `child` as ``PLUGBOARD_FORWARD_SIGNAL`` (queued with `sigqueue`, so
/// never merged with, and lost to, the same signal sent to the child
/// directly), whose value carries the signal and its original sender's
/// pid: the child can tell the copy from the same signal sent to the
/// whole process group. The child's handler for it is installed by
/// ``plugboard_fork``. Signals the terminal sends reach the child directly, as
/// it shares the parent's process group, so they are not passed on twice.
/// The first SIGINT, SIGTERM or SIGHUP from anyone but the child is kept
/// as the stop request (``plugboard_stop_request``). Each of those, and each
/// SIGCHLD, writes a byte to a wake-up pipe whose read end (non-blocking,
/// close-on-exec; the same for every child) this returns, or -1 when it
/// could not be made.
int plugboard_forward_signals(pid_t child);

/// In the supervised child: the application is running (its status is the
/// one exit announces).
void plugboard_note_application_running(void);

/// The first stop request (SIGINT, SIGTERM or SIGHUP) the parent received,
/// or 0.
int plugboard_stop_request(void);

/// Passes the forwarded signals on to `second` too (0: no longer): the new
/// child a reload brings up beside the running one, so that a stop
/// request reaches both. ``plugboard_forward_signals`` forgets it.
void plugboard_forward_also(pid_t second);

/// From now on, SIGHUP sent to the parent by a process (`kill -HUP`,
/// systemd's reload) is neither passed on nor a stop request: it asks for
/// a reload (``plugboard_take_reload_request``) and wakes the parent,
/// which decides, knowing whether the child is up yet (see
/// ``plugboard_hangup_stops``). A hangup of the terminal, which reached the
/// whole group, still stops.
void plugboard_reload_on_hangup(void);

/// 1 when a reload was asked for since the last call, else 0.
int plugboard_take_reload_request(void);

/// The SIGHUP kept for a reload came while the child was still coming
/// up: it is the stop request it was before reloads, passed on to the
/// child with its sender as the handler would have.
void plugboard_hangup_stops(void);

/// In a new child, which inherits them from a parent that already
/// supervised one: gives the forwarded signals and SIGCHLD back their
/// default action and closes the wake-up pipe.
void plugboard_stop_forwarding(void);

/// Makes ``plugboard_exit`` end the process by `signal` when it is given
/// 128 + `signal`: after an orderly stop, plugboard ends as the request
/// asked, and a shell, `timeout` or a service manager sees a death by that
/// signal, not an exit status.
void plugboard_end_by_signal_at_exit(int signal);

/// exit(3), except after ``plugboard_end_by_signal_at_exit`` with the
/// matching status: then stdio is flushed, the signal's default action
/// restored and the signal raised (exit(3) only if that did not end the
/// process). Before exit(3), stdio is flushed and, in a supervised child,
/// `E<status>` is written on the progress pipe (with a field `a` after
/// ``plugboard_note_application_running``): the exit-time code that
/// follows (library destructors, atexit handlers) is plugin code, which
/// the parent bounds.
void plugboard_exit(int status) __attribute__((noreturn));

/// A file's identity, to know a descriptor still refers to it.
typedef struct {
  unsigned long long device;
  unsigned long long inode;
} plugboard_file_identity;

/// `fd` moved to a high number (32 below the soft limit on descriptors),
/// close-on-exec, out of the way of the low numbers plugin code takes; `fd`
/// itself when it cannot be moved.
int plugboard_move_high(int fd);

/// The lowest number `plugboard_move_high` moves a descriptor to.
int plugboard_move_high_floor(void);

/// Grows the process's descriptor table to hold the numbers
/// `plugboard_move_high` uses, now. Call it while the process has one
/// thread: Linux grows the table of a process with several threads only
/// after an RCU grace period, and `run --unsupervised` waited 6 to 16 ms
/// for one when it first moved a descriptor high from a worker thread.
void plugboard_reserve_high_descriptors(void);

/// The identity of what `fd` refers to; -1 when it is not open.
int plugboard_identity(int fd, plugboard_file_identity *identity);

/// Whether `fd` still refers to `identity`: plugin code may have closed
/// it, and a file it opened may have taken the number.
int plugboard_is_same_file(int fd, plugboard_file_identity identity);

/// Opens descriptor `fd` of process `pid` anew, through /proc, for
/// writing and close-on-exec, if it still refers to `identity`: the
/// supervising parent's standard output or error, which no plugin code
/// touches, for a child whose own copy plugin code closed or replaced.
/// -1 when it cannot (another user's process, a socket, another file).
int plugboard_open_from_process(pid_t pid, int fd, plugboard_file_identity identity);

/// In a process about to run plugin code, before any runs: keeps a copy of
/// descriptor 2 at a high number, close-on-exec, for plugboard's own
/// diagnostics (``plugboard_standard_error``), so that plugin code that
/// points descriptor 2 elsewhere (`dup2(open("/dev/null"), 2)`) does not
/// take them with it. `parent` is the supervising process, whose standard
/// error is the same file and out of plugin code's reach (0 for none).
/// Once: later calls do nothing. 0, or -1 when no copy could be made.
int plugboard_keep_standard_error(pid_t parent);

/// The descriptor plugboard's diagnostics go to: descriptor 2 until
/// ``plugboard_keep_standard_error``; then the kept copy while it still
/// refers to standard error. A copy that plugin code closed or replaced is
/// taken back from the supervising parent, at the same number (callers may
/// hold it); when that cannot be done, descriptor 2 is the last resort.
/// Thread-safe.
int plugboard_standard_error(void);

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
