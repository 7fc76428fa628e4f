// The signal handler behind an orderly shut-down. It runs in signal
// context, so it uses only async-signal-safe calls (write, sigaction, raise,
// getppid).
#define _GNU_SOURCE
#include "plugboard_shutdown.h"
#include "plugboard_launch.h"
#include "plugboard_exit.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

static int shutdown_pipe[2] = {-1, -1};
static volatile sig_atomic_t shutdown_requested = 0;

// Who asked, to tell a second request from a second copy of the first. A
// signal to the whole process group (a service manager's, `timeout`'s,
// `kill -TERM -PGID`) reaches this process directly and again through the
// supervising parent, which forwards it with `sigqueue` carrying the
// original sender. For each sender: how many signals came directly, and how
// many through the parent. Its requests are the direct ones once there is
// one (the copies are theirs: `timeout` signals the parent twice, directly
// and through the group, and this process once), else the forwarded ones
// (a signal sent to the parent alone reaches it only that way).
#define SENDER_COUNT 16
static struct {
  pid_t pid;
  unsigned direct;
  unsigned forwarded;
} senders[SENDER_COUNT];
static size_t sender_count = 0;

static unsigned requests_of(size_t index) {
  return senders[index].direct > 0 ? senders[index].direct : senders[index].forwarded;
}

// Whether a delivery of `signal` from `sender` (through the parent when
// `forwarded`) is a new request rather than a copy of one already counted.
// Called with SIGINT, SIGTERM and the forwarding signal blocked, so nothing
// else touches the table meanwhile.
static atomic_flag table_lock = ATOMIC_FLAG_INIT;

static int count_request(pid_t sender, int forwarded);

// Handlers on two threads may run at once: the table is taken in turns (a
// handler's mask keeps the same thread from coming back in while it holds it).
static int is_new_request(pid_t sender, int forwarded) {
  while (atomic_flag_test_and_set_explicit(&table_lock, memory_order_acquire)) {}
  int fresh = count_request(sender, forwarded);
  atomic_flag_clear_explicit(&table_lock, memory_order_release);
  return fresh;
}

static int count_request(pid_t sender, int forwarded) {
  size_t index = 0;
  while (index < sender_count && senders[index].pid != sender) index++;
  if (index == sender_count) {
    if (sender_count == SENDER_COUNT) return 1;
    senders[index].pid = sender;
    senders[index].direct = 0;
    senders[index].forwarded = 0;
    sender_count++;
  }
  unsigned before = requests_of(index);
  if (forwarded) {
    senders[index].forwarded++;
  } else {
    senders[index].direct++;
  }
  return requests_of(index) > before;
}

static void request(int signal) {
  if (shutdown_requested) {
    // Asked twice: the operator means it. The signal is blocked while a
    // handler runs, so the re-raised one ends the process on return.
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signal, &action, NULL);
    raise(signal);
    return;
  }
  shutdown_requested = signal;
  // Once stopped in order, the process ends by this signal.
  plugboard_end_by_signal_at_exit(signal);
  unsigned char byte = (unsigned char)signal;
  ssize_t written = write(shutdown_pipe[1], &byte, 1);
  (void)written;
}

static void on_shutdown(int signal, siginfo_t *info, void *context) {
  (void)context;
  int saved = errno;
  // The terminal's signals (SI_KERNEL) are sent once, to the group.
  int fresh = info == NULL || info->si_code > 0 || is_new_request(info->si_pid, 0);
  if (fresh) request(signal);
  errno = saved;
}

int plugboard_shutdown_forwarded(int signal, pid_t sender) {
  if (shutdown_pipe[0] < 0 || (signal != SIGINT && signal != SIGTERM)) return 0;
  if (is_new_request(sender, 1)) request(signal);
  return 1;
}

int plugboard_catch_shutdown_signals(void) {
  if (shutdown_pipe[0] >= 0) return shutdown_pipe[0];
  if (pipe2(shutdown_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return -1;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_shutdown;
  sigemptyset(&action.sa_mask);
  // One handler at a time, so the second signal always sees the first's mark.
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
  sigaddset(&action.sa_mask, PLUGBOARD_FORWARD_SIGNAL);
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(SIGINT, &action, NULL);
  sigaction(SIGTERM, &action, NULL);
  return shutdown_pipe[0];
}
