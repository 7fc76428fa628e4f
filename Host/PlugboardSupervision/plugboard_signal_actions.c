// The two ways the supervision's C files set a signal's action, shared so
// that each handler is installed the same way.
#define _GNU_SOURCE
#include "plugboard_signal_actions.h"

#include <string.h>

void plugboard_default_action(int signal) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(signal, &action, NULL);
}

void plugboard_install_handler(
    int signal, void (*handler)(int, siginfo_t *, void *), int flags, struct sigaction *previous) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = handler;
  action.sa_flags = SA_SIGINFO | flags;
  sigemptyset(&action.sa_mask);
  sigaction(signal, &action, previous);
}
