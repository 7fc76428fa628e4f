// The signal handler behind an orderly shut-down. It runs in signal
// context, so it uses only async-signal-safe calls (write, sigaction, raise).
#define _GNU_SOURCE
#include "plugboard_shutdown.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static int shutdown_pipe[2] = {-1, -1};
static volatile sig_atomic_t shutdown_requested = 0;

static void on_shutdown(int signal) {
  int saved = errno;
  if (shutdown_requested) {
    // Asked twice: the operator means it. The signal is blocked while its
    // handler runs, so the re-raised one ends the process on return.
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signal, &action, NULL);
    raise(signal);
    errno = saved;
    return;
  }
  shutdown_requested = signal;
  unsigned char byte = (unsigned char)signal;
  ssize_t written = write(shutdown_pipe[1], &byte, 1);
  (void)written;
  errno = saved;
}

int plugboard_catch_shutdown_signals(void) {
  if (shutdown_pipe[0] >= 0) return shutdown_pipe[0];
  if (pipe2(shutdown_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return -1;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_shutdown;
  sigemptyset(&action.sa_mask);
  // One handler at a time, so the second signal always sees the first's mark.
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, NULL);
  sigaction(SIGTERM, &action, NULL);
  return shutdown_pipe[0];
}
