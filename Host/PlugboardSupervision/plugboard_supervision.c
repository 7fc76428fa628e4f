// The parts of plugboard's supervision that run in signal handlers or need
// calls Swift cannot make. Everything a handler does here is
// async-signal-safe (write, kill, sigaction, alarm, raise, nanosleep, and
// the system calls of plugboard_crash_site.c), except the optional
// `describe` callback, which runs last, after the whole crash record is
// written, and is guarded by an alarm.
#define _GNU_SOURCE
#include "plugboard_supervision.h"
#include "plugboard_launch.h"
#include "plugboard_crash_site.h"
#include "plugboard_shutdown.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void signal_default(int signal) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(signal, &action, NULL);
}

// `handler` for `signal`, with its siginfo, nothing else blocked.
static void install(
    int signal, void (*handler)(int, siginfo_t *, void *), int flags, struct sigaction *previous) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = handler;
  action.sa_flags = SA_SIGINFO | flags;
  sigemptyset(&action.sa_mask);
  sigaction(signal, &action, previous);
}

static void on_forwarded(int signal, siginfo_t *info, void *context);

// The child's side of a fork from `parent`, before anything else runs.
static void become_supervised_child(pid_t parent) {
  // Before the parent can forward anything (it blocks the signals it
  // forwards until the fork returned): the forwarding signal's default
  // action would end the process.
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

// MARK: Forwarding (parent)

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
    install(plugboard_forwarded_signals[index], forward, SA_RESTART, NULL);
  }
  install(SIGCHLD, on_child, SA_RESTART | SA_NOCLDSTOP, NULL);
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
  for (int index = 0; index < PLUGBOARD_FORWARDED_SIGNAL_COUNT; index++) signal_default(plugboard_forwarded_signals[index]);
  signal_default(SIGCHLD);
  if (request_pipe[0] >= 0) close(request_pipe[0]);
  if (request_pipe[1] >= 0) close(request_pipe[1]);
  request_pipe[0] = request_pipe[1] = -1;
}

// MARK: Ending by a signal

static volatile sig_atomic_t ending_signal = 0;
static void announce_exit(int status);

void plugboard_end_by_signal_at_exit(int signal) { ending_signal = signal; }

void plugboard_exit(int status) {
  int signal = (int)ending_signal;
  if (signal > 0 && status == 128 + signal) {
    // Nothing of stdio is written after this: flush what is there.
    fflush(NULL);
    signal_default(signal);
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

// MARK: Descriptors of plugboard's own (child)

int plugboard_move_high_floor(void) {
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur > 64) {
    return (int)limit.rlim_cur - 32;
  }
  return 10;
}

int plugboard_move_high(int fd) {
  int moved = fcntl(fd, F_DUPFD_CLOEXEC, plugboard_move_high_floor());
  if (moved < 0) {
    if (fd >= 0) fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
  }
  close(fd);
  return moved;
}

void plugboard_reserve_high_descriptors(void) {
  int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  close(plugboard_move_high(fd));
}

int plugboard_identity(int fd, plugboard_file_identity *identity) {
  struct stat status;
  if (fstat(fd, &status) != 0) return -1;
  identity->device = (unsigned long long)status.st_dev;
  identity->inode = (unsigned long long)status.st_ino;
  return 0;
}

int plugboard_is_same_file(int fd, plugboard_file_identity identity) {
  plugboard_file_identity now;
  return plugboard_identity(fd, &now) == 0 && now.device == identity.device && now.inode == identity.inode;
}

int plugboard_open_from_process(pid_t pid, int fd, plugboard_file_identity identity) {
  if (pid <= 0) return -1;
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)pid, fd);
  int opened = open(path, O_WRONLY | O_CLOEXEC);
  if (opened < 0) return -1;
  if (!plugboard_is_same_file(opened, identity)) {
    close(opened);
    return -1;
  }
  return opened;
}

// plugboard's own copy of standard error, what it refers to, and where to
// take it back from. Set once, before plugin code runs; the copy's number
// stays the same for good, since loggers hold it.
static _Atomic int kept_error = -1;
static plugboard_file_identity kept_error_identity;
static pid_t kept_error_parent = 0;
// One thread at a time takes the copy back.
static pthread_mutex_t kept_error_lock = PTHREAD_MUTEX_INITIALIZER;

int plugboard_keep_standard_error(pid_t parent) {
  if (atomic_load(&kept_error) >= 0) return 0;
  plugboard_file_identity identity;
  if (plugboard_identity(STDERR_FILENO, &identity) != 0) return -1;
  int copy = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, plugboard_move_high_floor());
  if (copy < 0) return -1;
  kept_error_identity = identity;
  kept_error_parent = parent;
  atomic_store(&kept_error, copy);
  return 0;
}

int plugboard_standard_error(void) {
  int copy = atomic_load(&kept_error);
  if (copy < 0) return STDERR_FILENO;
  if (plugboard_is_same_file(copy, kept_error_identity)) return copy;
  pthread_mutex_lock(&kept_error_lock);
  int result = copy;
  // Another thread may have taken it back meanwhile.
  if (!plugboard_is_same_file(copy, kept_error_identity)) {
    int taken = plugboard_open_from_process(kept_error_parent, STDERR_FILENO, kept_error_identity);
    // Over whatever plugin code put at plugboard's number, as the
    // runtime's descriptors are put back (plugboard_runtime_descriptors.h).
    if (taken < 0 || dup3(taken, copy, O_CLOEXEC) < 0) result = STDERR_FILENO;
    if (taken >= 0) close(taken);
  }
  pthread_mutex_unlock(&kept_error_lock);
  return result;
}

// MARK: Crash reporting (child)

// The Swift runtime keeps the message of the last fatal error here (on
// platforms without Apple's crash reporter), for crash reporters to read.
extern _Atomic(const char *) *swift_getFatalErrorMessageBuffer(void) __attribute__((weak));

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT};
#define CRASH_SIGNAL_COUNT (sizeof crash_signals / sizeof crash_signals[0])
static struct sigaction previous_actions[CRASH_SIGNAL_COUNT];
static int crash_fd = -1;
// What crash_fd was when installed: plugin code may close it, and a file it
// opens then may take its number.
static plugboard_file_identity crash_fd_identity;
static void (*crash_describe)(int fd);
// Which thread writes the crash record: the first to crash. Set once.
static atomic_int crashing = 0;
// Set when the record is written: a thread that crashed meanwhile waits
// for it, rather than end the process with the record half written.
static volatile sig_atomic_t crash_written = 0;
static int chain_previous = 0;

int plugboard_progress_is_intact(void) { return crash_fd >= 0 && plugboard_is_same_file(crash_fd, crash_fd_identity); }

static void write_all(int fd, const char *bytes, size_t count) {
  // Never into a file of plugin code's that took the progress pipe's number.
  if (fd == crash_fd && !plugboard_progress_is_intact()) return;
  while (count > 0) {
    ssize_t written = write(fd, bytes, count);
    if (written <= 0) return;
    bytes += written;
    count -= (size_t)written;
  }
}

static volatile sig_atomic_t application_ran = 0;

void plugboard_note_application_running(void) { application_ran = 1; }

// `E<status>`, and a field `a` once the application ran: the child is
// exiting with `status`; exit-time code begins.
static void announce_exit(int status) {
  if (crash_fd < 0 || !plugboard_progress_is_intact()) return;
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
  write_all(crash_fd, line, used);
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

// `<tag><signal><end>`, the start of a progress line (or the whole of one).
static void write_signal_tag(char tag, int signal, char end) {
  char line[8];
  size_t used = 0;
  line[used++] = tag;
  if (signal >= 10) line[used++] = (char)('0' + signal / 10 % 10);
  line[used++] = (char)('0' + signal % 10);
  line[used++] = end;
  write_all(crash_fd, line, used);
}

static void write_crash_line(const char *line, unsigned long length) { write_all(crash_fd, line, length); }

// What the application printed before the crash and stdio still holds
// (standard output is a file or a pipe), written straight from stdio's
// buffer: fflush would take stdio's lock, which the crashed code may hold.
// The pointers are read as they are; a thread that was filling the buffer
// at the crash may leave its last line cut.
static void write_standard_output_buffer(void) {
#ifdef __GLIBC__
  FILE *stream = stdout;
  if (stream == NULL) return;
  const char *start = stream->_IO_write_base;
  const char *end = stream->_IO_write_ptr;
  if (start == NULL || end == NULL || end <= start || end - start > (1 << 20)) return;
  int fd = stream->_fileno;
  if (fd < 0) return;
  write_all(fd, start, (size_t)(end - start));
  // Written: the default action's end writes nothing more, but a chained
  // handler (the Swift backtracer) might flush.
  stream->_IO_write_ptr = stream->_IO_write_base;
#endif
}

static void on_crash(int signal, siginfo_t *info, void *context) {
  int expected = 0;
  if (atomic_compare_exchange_strong(&crashing, &expected, 1)) {
    write_signal_tag('C', signal, '\t');
    if (swift_getFatalErrorMessageBuffer != NULL) {
      const char *message = atomic_load(swift_getFatalErrorMessageBuffer());
      if (message != NULL) write_escaped(crash_fd, message, 4096);
    }
    write_all(crash_fd, "\n", 1);
    // Where it happened: the faulting address and the frames, each with
    // its library, for the parent to blame the plugin by address.
    if (plugboard_progress_is_intact()) plugboard_crash_site_write(signal, info, context, write_crash_line);
    write_standard_output_buffer();
    // The resolution chain, from Swift values: written last, so that a
    // describer that allocates and finds the allocator's lock taken costs
    // only the chain (the alarm ends the wait), never the record above.
    if (crash_describe != NULL) {
      alarm(2);
      crash_describe(crash_fd);
      alarm(0);
    }
    crash_written = 1;
  } else {
    // Another thread is writing the record: up to three seconds for it to
    // finish before this fault ends the process.
    struct timespec pause = {0, 10 * 1000 * 1000};
    for (int round = 0; round < 300 && !crash_written; round++) nanosleep(&pause, NULL);
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

// A stop request during bring-up ends the child, as the default action
// would; one the process sent itself (a plugin calling kill(getpid(), …) or
// raise) is first written down as `K<signal>`, so that the parent blames the
// plugin in its stage instead of taking it for the operator's request.
static void on_request(int signal, siginfo_t *info, void *context) {
  (void)context;
  if (info != NULL && info->si_code <= 0 && info->si_pid == getpid()) write_signal_tag('K', signal, '\n');
  // Blocked while this handler runs: delivered again, to the default
  // action, as it returns.
  signal_default(signal);
  raise(signal);
}

// Whether on_request is SIGINT's, SIGTERM's and SIGHUP's handler.
static volatile sig_atomic_t bringing_up = 0;

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
    if (bringing_up && (real == SIGINT || real == SIGTERM || real == SIGHUP)) signal_default(real);
    raise(real);
  }
  errno = saved;
}

static const int request_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define REQUEST_SIGNAL_COUNT (sizeof request_signals / sizeof request_signals[0])

void plugboard_release_request_signals(void) {
  bringing_up = 0;
  for (size_t index = 0; index < REQUEST_SIGNAL_COUNT; index++) signal_default(request_signals[index]);
}

void plugboard_install_crash_reporter(int fd, void (*describe)(int fd)) {
  // Before the handler can run: the maps file open and this thread's
  // alternate stack, so that a stack overflow still reaches the handler.
  plugboard_crash_site_prepare();
  crash_fd = fd;
  if (plugboard_identity(fd, &crash_fd_identity) != 0) crash_fd = -1;
  crash_describe = describe;
  // The Swift runtime's backtracer writes pages of registers and threads
  // for a crash the supervisor already reports in one line; keep it only
  // when the user asked for it.
  chain_previous = getenv("SWIFT_BACKTRACE") != NULL;
  for (size_t index = 0; index < CRASH_SIGNAL_COUNT; index++) {
    install(crash_signals[index], on_crash, SA_ONSTACK, &previous_actions[index]);
  }
  for (size_t index = 0; index < REQUEST_SIGNAL_COUNT; index++) {
    install(request_signals[index], on_request, SA_RESTART, NULL);
  }
  bringing_up = 1;
}
