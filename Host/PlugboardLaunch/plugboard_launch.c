// The hand-over from the launcher to the host (see plugboard_launch.h).
// Linked into the launcher, a static executable, so it uses nothing of libc
// that needs the dynamic loader.
#define _GNU_SOURCE
#include "plugboard_launch.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int parse_number(const char *text, const char **rest, long minimum, long maximum, long *value) {
  char *end = NULL;
  errno = 0;
  long parsed = strtol(text, &end, 10);
  if (errno != 0 || end == text || *text == '-' || *text == '+' || *text == ' ') return 0;
  if (parsed < minimum || parsed > maximum) return 0;
  *value = parsed;
  *rest = end;
  return 1;
}

int plugboard_listen_fds_for(pid_t pid) {
  const char *owner = getenv("LISTEN_PID");
  const char *count = getenv("LISTEN_FDS");
  if (owner == NULL || count == NULL) return 0;
  const char *rest = NULL;
  long named = 0;
  if (!parse_number(owner, &rest, 1, INT32_MAX, &named) || *rest != '\0' || named != (long)pid) return 0;
  // Bounded: a count past any real deployment's would keep every
  // descriptor open.
  long passed = 0;
  if (!parse_number(count, &rest, 0, 4096, &passed) || *rest != '\0') return 0;
  return (int)passed;
}

void plugboard_hand_over_listen_fds(pid_t parent) {
  if (plugboard_listen_fds_for(parent) == 0) return;
  char pid[32];
  snprintf(pid, sizeof pid, "%ld", (long)getpid());
  setenv("LISTEN_PID", pid, 1);
}

const char *plugboard_supervised_command(int index) {
  static const char *const commands[] = {"run", "list", "check", "explain", "graph"};
  return index >= 0 && (size_t)index < sizeof commands / sizeof commands[0] ? commands[index] : NULL;
}

const int plugboard_forwarded_signals[PLUGBOARD_FORWARDED_SIGNAL_COUNT] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

static void mask_forwarded_signals(int how) {
  sigset_t set;
  sigemptyset(&set);
  for (int index = 0; index < PLUGBOARD_FORWARDED_SIGNAL_COUNT; index++) sigaddset(&set, plugboard_forwarded_signals[index]);
  // Blocked with them, never unblocked here: the parent has no use for it,
  // and the child unblocks it once its handler is in place (plugboard_fork).
  if (how == SIG_BLOCK) sigaddset(&set, PLUGBOARD_FORWARD_SIGNAL);
  sigprocmask(how, &set, NULL);
}

void plugboard_block_forwarded_signals(void) { mask_forwarded_signals(SIG_BLOCK); }

void plugboard_unblock_forwarded_signals(void) { mask_forwarded_signals(SIG_UNBLOCK); }

int plugboard_launch_record_file(void) {
  int fd = memfd_create("plugboard-stages", MFD_CLOEXEC);
  if (fd < 0) return -1;
  if (ftruncate(fd, PLUGBOARD_STAGE_RECORD_BYTES) != 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

int plugboard_launch_describe(plugboard_launch launch, char *buffer, size_t size) {
  const char *role = launch.role == PLUGBOARD_LAUNCHED_PARENT ? "parent" : "child";
  int length = snprintf(buffer, size, "%s %ld %d %d", role, (long)launch.peer, launch.record, launch.progress);
  return length < 0 || (size_t)length >= size ? -1 : length;
}

// Whether `fd` is open and of `type` (S_IFREG, S_IFIFO); for a file, of the
// record's size.
static int is_descriptor(int fd, mode_t type) {
  struct stat status;
  if (fstat(fd, &status) != 0 || (status.st_mode & S_IFMT) != type) return 0;
  return type != S_IFREG || status.st_size == PLUGBOARD_STAGE_RECORD_BYTES;
}

// Whether `pid` is a child of this process (ended or not): waitid fails
// with ECHILD for anyone else's. WNOWAIT leaves an ended one to be reaped.
static int is_own_child(pid_t pid) {
  siginfo_t info;
  memset(&info, 0, sizeof info);
  return waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0;
}

plugboard_launch plugboard_launch_take(int *present) {
  plugboard_launch none = {PLUGBOARD_LAUNCHED_NONE, 0, -1, -1};
  const char *value = getenv(PLUGBOARD_LAUNCH_VARIABLE);
  *present = value != NULL;
  if (value == NULL) return none;
  // Copied before it is removed: the environment owns the text.
  char text[64];
  size_t length = strnlen(value, sizeof text);
  if (length < sizeof text) memcpy(text, value, length + 1);
  unsetenv(PLUGBOARD_LAUNCH_VARIABLE);
  if (length >= sizeof text) return none;

  plugboard_launch launch = none;
  const char *rest = NULL;
  if (strncmp(text, "parent ", 7) == 0) {
    launch.role = PLUGBOARD_LAUNCHED_PARENT;
    rest = text + 7;
  } else if (strncmp(text, "child ", 6) == 0) {
    launch.role = PLUGBOARD_LAUNCHED_CHILD;
    rest = text + 6;
  } else {
    return none;
  }
  long peer = 0, record = 0, progress = 0;
  if (!parse_number(rest, &rest, 1, INT32_MAX, &peer) || *rest++ != ' ') return none;
  if (!parse_number(rest, &rest, 3, 8192, &record) || *rest++ != ' ') return none;
  if (!parse_number(rest, &rest, 3, 8192, &progress) || *rest != '\0') return none;
  launch.peer = (pid_t)peer;
  launch.record = (int)record;
  launch.progress = (int)progress;

  // The launcher puts them right after socket activation's descriptors, so
  // that closing what the host inherited keeps exactly these two.
  int first = 3 + plugboard_listen_fds_for(getpid());
  if (launch.record != first || launch.progress != first + 1) return none;
  if (!is_descriptor(launch.record, S_IFREG) || !is_descriptor(launch.progress, S_IFIFO)) return none;
  int related = launch.role == PLUGBOARD_LAUNCHED_PARENT ? is_own_child(launch.peer) : getppid() == launch.peer;
  return related ? launch : none;
}
