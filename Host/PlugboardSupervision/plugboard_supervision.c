// The parts of plugboard's supervision that run in signal handlers or need
// calls Swift cannot make. Everything a handler does here is
// async-signal-safe (write, kill, sigaction, alarm, raise), except the
// optional `describe` callback, which is guarded by an alarm.
#define _GNU_SOURCE
#include "plugboard_supervision.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

pid_t plugboard_fork(void) { return fork(); }

int plugboard_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
  return (int)syscall(SYS_pidfd_open, pid, 0);
#else
  (void)pid;
  return -1;
#endif
}

// MARK: Forwarding (parent)

static volatile sig_atomic_t forward_target = 0;

static void forward(int signal, siginfo_t *info, void *context) {
  (void)context;
  pid_t child = (pid_t)forward_target;
  if (child <= 0) return;
  // SI_USER, SI_QUEUE, SI_TKILL: sent by a process. Anything else (the
  // terminal's SI_KERNEL) was delivered to the whole process group already.
  if (info != NULL && info->si_code > 0) return;
  if (info != NULL && info->si_pid == child) return;
  kill(child, signal);
}

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

static void mask_forwarded_signals(int how) {
  sigset_t set;
  sigemptyset(&set);
  for (size_t index = 0; index < sizeof forwarded / sizeof forwarded[0]; index++) {
    sigaddset(&set, forwarded[index]);
  }
  sigprocmask(how, &set, NULL);
}

void plugboard_block_forwarded_signals(void) { mask_forwarded_signals(SIG_BLOCK); }

void plugboard_unblock_forwarded_signals(void) { mask_forwarded_signals(SIG_UNBLOCK); }

void plugboard_forward_signals(pid_t child) {
  forward_target = child;
  for (size_t index = 0; index < sizeof forwarded / sizeof forwarded[0]; index++) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = forward;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(forwarded[index], &action, NULL);
  }
}

// MARK: Crash reporting (child)

// The Swift runtime keeps the message of the last fatal error here (on
// platforms without Apple's crash reporter), for crash reporters to read.
extern _Atomic(const char *) *swift_getFatalErrorMessageBuffer(void) __attribute__((weak));

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT};
#define CRASH_SIGNAL_COUNT (sizeof crash_signals / sizeof crash_signals[0])
static struct sigaction previous_actions[CRASH_SIGNAL_COUNT];
static int crash_fd = -1;
static void (*crash_describe)(int fd);
static volatile sig_atomic_t crashing = 0;
static int chain_previous = 0;

static void write_all(int fd, const char *bytes, size_t count) {
  while (count > 0) {
    ssize_t written = write(fd, bytes, count);
    if (written <= 0) return;
    bytes += written;
    count -= (size_t)written;
  }
}

// The message with tabs and newlines escaped, so it stays one field of one line.
static void write_escaped(int fd, const char *text, size_t limit) {
  char buffer[256];
  size_t used = 0;
  for (size_t index = 0; text[index] != '\0' && index < limit; index++) {
    char c = text[index];
    const char *escape = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\\' ? "\\\\" : NULL;
    size_t need = escape ? 2 : 1;
    if (used + need > sizeof buffer) {
      write_all(fd, buffer, used);
      used = 0;
    }
    if (escape) {
      buffer[used++] = escape[0];
      buffer[used++] = escape[1];
    } else {
      buffer[used++] = c;
    }
  }
  write_all(fd, buffer, used);
}

static void restore_previous(int signal) {
  for (size_t index = 0; index < CRASH_SIGNAL_COUNT; index++) {
    if (crash_signals[index] == signal) sigaction(signal, &previous_actions[index], NULL);
  }
}

static void signal_default(int signal) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(signal, &action, NULL);
}

static void on_crash(int signal, siginfo_t *info, void *context) {
  (void)context;
  if (!crashing) {
    crashing = 1;
    char line[16];
    size_t used = 0;
    line[used++] = 'C';
    if (signal >= 10) line[used++] = (char)('0' + signal / 10);
    line[used++] = (char)('0' + signal % 10);
    line[used++] = '\t';
    write_all(crash_fd, line, used);
    if (swift_getFatalErrorMessageBuffer != NULL) {
      const char *message = atomic_load(swift_getFatalErrorMessageBuffer());
      if (message != NULL) write_escaped(crash_fd, message, 4096);
    }
    write_all(crash_fd, "\n", 1);
    if (crash_describe != NULL) {
      alarm(2);
      crash_describe(crash_fd);
      alarm(0);
    }
    // What the application printed before the crash is still in stdio's
    // buffer when standard output is a file or a pipe. Flushing takes
    // stdio's lock, which the crashed code may hold: the alarm ends a wait
    // for it, and the crash line above is already written.
    alarm(2);
    fflush(stdout);
    alarm(0);
  }
  if (chain_previous) {
    restore_previous(signal);
  } else {
    signal_default(signal);
  }
  // A fault returns to the faulting instruction, which faults again and
  // meets the restored action; a signal sent by raise or abort must be sent
  // again.
  if (info == NULL || info->si_code <= 0) raise(signal);
}

void plugboard_install_crash_reporter(int fd, void (*describe)(int fd)) {
  crash_fd = fd;
  crash_describe = describe;
  // The Swift runtime's backtracer writes pages of registers and threads
  // for a crash the supervisor already reports in one line; keep it only
  // when the user asked for it.
  chain_previous = getenv("SWIFT_BACKTRACE") != NULL;
  for (size_t index = 0; index < CRASH_SIGNAL_COUNT; index++) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_crash;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(crash_signals[index], &action, &previous_actions[index]);
  }
}
