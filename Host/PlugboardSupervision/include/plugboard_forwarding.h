#ifndef PLUGBOARD_FORWARDING_H
#define PLUGBOARD_FORWARDING_H

#include <sys/types.h>

/// The supervising parent's signal handling: stop requests passed on to
/// the child, SIGHUP kept for a reload, and the pipe that wakes the parent
/// for either. The handlers are async-signal-safe C.

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

#endif
