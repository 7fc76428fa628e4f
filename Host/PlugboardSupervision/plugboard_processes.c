// The supervisor's processes: the fork of the supervised child (which
// must set itself up before anything else runs in it), and the processes
// plugin code leaves behind, which come to plugboard as their subreaper
// and are ended and reaped here.
#define _GNU_SOURCE
#include "plugboard_processes.h"
#include "plugboard_signal_actions.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

// The child's side of a fork from `parent`, before anything else runs.
static void become_supervised_child(pid_t parent) {
  // Before the parent can forward anything (it blocks the signals it
  // forwards until the fork returned): the forwarding signal's default
  // action would end the process.
  plugboard_accept_forwarded_signals();
  // The child must not outlive the parent (a `kill -9` of plugboard, an
  // OOM kill): it would run on under init, the application unsupervised,
  // a plugin still loading with no stage limit. A parent that died before
  // this took effect left this process to another already.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) raise(SIGKILL);
}

pid_t plugboard_fork(void) {
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) become_supervised_child(parent);
  return pid;
}

void plugboard_adopt_as_child(pid_t parent) { become_supervised_child(parent); }

int plugboard_become_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1); }

// The pids of this process's children now, from /proc/self/task/*/children
// (the parent has one thread); at most `capacity`. -1 when it cannot be read.
static int read_children(pid_t *children, int capacity) {
  char path[64];
  snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buffer[4096];
  int count = 0;
  long value = -1;
  ssize_t length;
  while ((length = read(fd, buffer, sizeof buffer)) > 0 && count < capacity) {
    for (ssize_t index = 0; index < length && count < capacity; index++) {
      char c = buffer[index];
      if (c >= '0' && c <= '9') {
        value = (value < 0 ? 0 : value * 10) + (c - '0');
      } else if (value >= 0) {
        children[count++] = (pid_t)value;
        value = -1;
      }
    }
  }
  if (value >= 0 && count < capacity) children[count++] = (pid_t)value;
  close(fd);
  return count;
}

int plugboard_end_descendants(void) {
  int ended = 0;
  for (;;) {
    pid_t children[256];
    int count = read_children(children, 256);
    for (int index = 0; index < count; index++) kill(children[index], SIGKILL);
    // Each one reaped lets its own children come to this subreaper; the
    // next round finds them.
    int status;
    pid_t reaped = waitpid(-1, &status, count > 0 ? 0 : WNOHANG);
    if (reaped < 0 && errno == EINTR) continue;
    if (reaped <= 0) return ended;
    ended++;
  }
}

void plugboard_reap_strays_except(pid_t first, pid_t second) {
  pid_t children[256];
  int count = read_children(children, 256);
  for (int index = 0; index < count; index++) {
    if (children[index] == first || children[index] == second) continue;
    int status;
    waitpid(children[index], &status, WNOHANG);
  }
}

void plugboard_reap_strays(pid_t child) {
  for (;;) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0) return;
    // The supervised child is the follower's to reap, with its status.
    if (info.si_pid == child) return;
    int status;
    waitpid(info.si_pid, &status, WNOHANG);
  }
}

int plugboard_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
  return (int)syscall(SYS_pidfd_open, pid, 0);
#else
  (void)pid;
  return -1;
#endif
}

int plugboard_pidfd_send_signal(int pidfd, int signal) {
#ifdef SYS_pidfd_send_signal
  return (int)syscall(SYS_pidfd_send_signal, pidfd, signal, NULL, 0);
#else
  (void)pidfd;
  (void)signal;
  errno = ENOSYS;
  return -1;
#endif
}
