// How a supervised process exits. After an orderly stop it ends by the
// signal that asked for it; otherwise it tells its parent, on the progress
// pipe, that the exit-time code (library destructors, atexit handlers:
// plugin code) begins, for the parent to bound.
#define _GNU_SOURCE
#include "plugboard_exit.h"
#include "plugboard_signal_actions.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static volatile sig_atomic_t application_ran = 0;

void plugboard_note_application_running(void) { application_ran = 1; }

// `E<status>`, and a field `a` once the application ran: the child is
// exiting with `status`; exit-time code begins.
static void announce_exit(int status) {
  char line[8];
  size_t used = 0;
  line[used++] = 'E';
  unsigned value = (unsigned)status & 0xff;
  if (value >= 100) line[used++] = (char)('0' + value / 100);
  if (value >= 10) line[used++] = (char)('0' + value / 10 % 10);
  line[used++] = (char)('0' + value % 10);
  if (application_ran) {
    line[used++] = '\t';
    line[used++] = 'a';
  }
  line[used++] = '\n';
  plugboard_write_progress(line, used);
}

static volatile sig_atomic_t ending_signal = 0;

void plugboard_end_by_signal_at_exit(int signal) { ending_signal = signal; }

void plugboard_exit(int status) {
  int signal = (int)ending_signal;
  if (signal > 0 && status == 128 + signal) {
    // Nothing of stdio is written after this: flush what is there.
    fflush(NULL);
    plugboard_default_action(signal);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(signal);
  }
  // What follows in exit() is plugin code (library destructors, atexit
  // handlers), and runs before stdio's last flush: flush first, then tell
  // the supervising parent, which bounds it.
  fflush(NULL);
  announce_exit(status);
  exit(status);
}
