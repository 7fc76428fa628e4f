// Signals between the supervising parent and its child. In the parent:
// stop requests sent to it are passed on to the child, a SIGHUP may be
// kept for a reload instead, and either wakes the parent's poll through a
// pipe. In the child: the handler that takes the parent's copies. All of
// it runs in signal handlers, and calls only async-signal-safe functions
// (write, sigqueue, sigaction, raise).
#define _GNU_SOURCE
#include "plugboard_forwarding.h"
#include "plugboard_launch.h"
#include "plugboard_shutdown.h"
#include "plugboard_signal_actions.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

// MARK: The parent

static volatile sig_atomic_t forward_target = 0;
// A second child that gets the forwarded signals too: the new one, while
// a reload brings it up beside the running one.
static volatile sig_atomic_t forward_second = 0;
// Whether SIGHUP sent by a process asks for a reload instead of a stop,
// and whether one asked since the parent last looked.
static volatile sig_atomic_t reload_on_hangup = 0;
static atomic_int reload_requested = 0;
// Who sent the last SIGHUP kept for a reload: passed on with it, should the
// parent find the child still coming up and make it a stop request.
static volatile sig_atomic_t hangup_sender = 0;
// The first stop request (SIGINT, SIGTERM or SIGHUP) the parent received,
// from anyone but its child, and the pipe that wakes the parent's poll.
static volatile sig_atomic_t stop_request = 0;
static int request_pipe[2] = {-1, -1};

static void wake(void) {
  unsigned char byte = 0;
  ssize_t written = write(request_pipe[1], &byte, 1);
  (void)written;
}

// A process plugin code left behind ended (this parent is a subreaper):
// wake the follower, which reaps it.
static void on_child(int signal, siginfo_t *info, void *context) {
  (void)signal;
  (void)info;
  (void)context;
  int saved = errno;
  wake();
  errno = saved;
}

static int is_stop_signal(int signal) { return signal == SIGINT || signal == SIGTERM || signal == SIGHUP; }

static void forward(int signal, siginfo_t *info, void *context) {
  (void)context;
  int saved = errno;
  pid_t child = (pid_t)forward_target;
  pid_t second = (pid_t)forward_second;
  int sent_by_process = info == NULL || info->si_code <= 0;
  int from_child = info != NULL && sent_by_process && (info->si_pid == child || (second > 0 && info->si_pid == second));
  if (child <= 0 || from_child) {
    errno = saved;
    return;
  }
  // `kill -HUP` or a service manager's reload: the parent's alone, never
  // passed on. A terminal's hangup reached the whole group and stops.
  if (signal == SIGHUP && reload_on_hangup && sent_by_process) {
    hangup_sender = info != NULL ? info->si_pid : 0;
    atomic_store(&reload_requested, 1);
    wake();
    errno = saved;
    return;
  }
  if (is_stop_signal(signal)) {
    if (stop_request == 0) stop_request = signal;
    wake();
  }
  // SI_USER, SI_QUEUE, SI_TKILL: sent by a process. Anything else (the
  // terminal's SI_KERNEL) was delivered to the whole process group already.
  // The copy carries its original sender, so that the child can tell it
  // from the same request reaching it directly (a signal to the group).
  if (info == NULL || info->si_code <= 0) {
    // The signal and its sender, on a queued real-time signal: see
    // on_forwarded.
    union sigval value;
    value.sival_int = (signal << 24) | ((info != NULL ? (int)info->si_pid : 0) & 0xffffff);
    sigqueue(child, PLUGBOARD_FORWARD_SIGNAL, value);
    if (second > 0) sigqueue(second, PLUGBOARD_FORWARD_SIGNAL, value);
  }
  errno = saved;
}

int plugboard_forward_signals(pid_t child) {
  if (request_pipe[0] < 0 && pipe2(request_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    request_pipe[0] = request_pipe[1] = -1;
  }
  forward_target = child;
  forward_second = 0;
  for (int index = 0; index < PLUGBOARD_FORWARDED_SIGNAL_COUNT; index++) {
    plugboard_install_handler(plugboard_forwarded_signals[index], forward, SA_RESTART, NULL);
  }
  plugboard_install_handler(SIGCHLD, on_child, SA_RESTART | SA_NOCLDSTOP, NULL);
  return request_pipe[0];
}

int plugboard_stop_request(void) { return (int)stop_request; }

void plugboard_forward_also(pid_t second) { forward_second = second; }

void plugboard_reload_on_hangup(void) { reload_on_hangup = 1; }

int plugboard_take_reload_request(void) { return atomic_exchange(&reload_requested, 0); }

void plugboard_hangup_stops(void) {
  pid_t child = (pid_t)forward_target;
  if (stop_request == 0) stop_request = SIGHUP;
  if (child <= 0) return;
  union sigval value;
  value.sival_int = (SIGHUP << 24) | ((int)hangup_sender & 0xffffff);
  sigqueue(child, PLUGBOARD_FORWARD_SIGNAL, value);
}

void plugboard_stop_forwarding(void) {
  forward_target = 0;
  forward_second = 0;
  reload_on_hangup = 0;
  atomic_store(&reload_requested, 0);
  for (int index = 0; index < PLUGBOARD_FORWARDED_SIGNAL_COUNT; index++) plugboard_default_action(plugboard_forwarded_signals[index]);
  plugboard_default_action(SIGCHLD);
  if (request_pipe[0] >= 0) close(request_pipe[0]);
  if (request_pipe[1] >= 0) close(request_pipe[1]);
  request_pipe[0] = request_pipe[1] = -1;
}

// MARK: The child

// A signal someone sent the supervising parent, which passed it on: the
// value holds the signal (high byte) and its sender. SIGINT and SIGTERM go
// to the orderly shut-down when it is in place (which counts requests by
// sender); during bring-up a stop signal ends the process by its default
// action (it is no fault of a plugin); otherwise the signal is raised, to
// meet whatever action the process has for it.
static void on_forwarded(int signal, siginfo_t *info, void *context) {
  (void)signal;
  (void)context;
  if (info == NULL || info->si_code != SI_QUEUE || info->si_pid != getppid()) return;
  int saved = errno;
  int real = (info->si_value.sival_int >> 24) & 0x7f;
  pid_t sender = (pid_t)(info->si_value.sival_int & 0xffffff);
  if (real <= 0 || real >= 32) {
    errno = saved;
    return;
  }
  if (!plugboard_shutdown_forwarded(real, sender)) {
    if (plugboard_is_bringing_up() && (real == SIGINT || real == SIGTERM || real == SIGHUP)) plugboard_default_action(real);
    raise(real);
  }
  errno = saved;
}

void plugboard_accept_forwarded_signals(void) {
  sigset_t blocked;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGINT);
  sigaddset(&blocked, SIGTERM);
  sigaddset(&blocked, SIGHUP);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_forwarded;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  action.sa_mask = blocked;
  sigaction(PLUGBOARD_FORWARD_SIGNAL, &action, NULL);
  // Blocked since before the fork (plugboard_block_forwarded_signals): a
  // copy the parent queued meanwhile is delivered now, to the handler.
  sigset_t forwarding;
  sigemptyset(&forwarding);
  sigaddset(&forwarding, PLUGBOARD_FORWARD_SIGNAL);
  sigprocmask(SIG_UNBLOCK, &forwarding, NULL);
}
