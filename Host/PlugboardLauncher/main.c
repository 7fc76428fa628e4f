// plugboard: the launcher. Starts `plugboard-host`, the program that does
// the work, from the folder this executable is in.
//
// A command that brings a deployment up (run, list, check, explain,
// graph) runs supervised: plugin code runs in a child process, and the
// parent reports for it. The host used to fork itself, after the dynamic
// loader had mapped Swift, Foundation and the SDK; the child then took a
// page fault for every page of them it used again, a fifth of `run`'s
// start. This program maps only itself (it is linked statically
// in release builds), so it forks first, and each process then starts the
// host afresh (see plugboard_launch.h); for `run`, the parent's host
// starts once the child's deployment is up (see await_bring_up). Every
// other command line goes to the host unchanged, which also forks by
// itself when it must: this program only has to recognise the plain
// cases, and a command line it does not is still supervised, a little
// later.
#define _GNU_SOURCE
#include "host_libraries.h"
#include "plugboard_launch.h"
#include "refusal.h"
#include "trust.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char host_name[] = "plugboard-host";

// The status plugboard's own failures end with (ExitStatus.crashed):
// `run` must not be mistaken for the application, so EX_SOFTWARE there.
static int failure_status(int argc, char **argv) { return argc > 1 && strcmp(argv[1], "run") == 0 ? 70 : 1; }

// The host beside this executable, in `path`. 0 with a message on failure.
static int locate_host(char *path, size_t size) {
  char self[PATH_MAX];
  ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0) {
    put_error("cannot read", "/proc/self/exe", errno, " (its own executable); is /proc mounted?");
    return 0;
  }
  self[length] = '\0';
  char *slash = strrchr(self, '/');
  if (slash == NULL) return 0;
  slash[1] = '\0';
  if ((size_t)snprintf(path, size, "%s%s", self, host_name) >= size) {
    put("plugboard: the path of its folder is too long\n");
    return 0;
  }
  return 1;
}

// Opens `target`, where `path` leads (every link on the way judged and
// resolved), in `host` its status: the file is judged, read and started
// through this one descriptor, so that what is judged is what runs, even
// if a link on the way is re-pointed meanwhile. -1 with a message on
// failure.
static int open_host(const char *path, const char *target, struct stat *host) {
  int fd = open(target, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd >= 0 && fstat(fd, host) == 0) return fd;
  if (errno == ENOENT) {
    put_error("cannot start", path, errno,
              " — build it beside plugboard (swift build --product plugboard-host), or install both "
              "(Scripts/install-host)");
  } else {
    put_error("cannot inspect", target, errno, "");
  }
  if (fd >= 0) close(fd);
  return -1;
}

// Whether `path` may be started, with everything it maps: every link on
// the way to it owned by root or by the owner of this executable, in
// folders only they can write (whoever can re-point one chooses the
// host); where it leads, a regular file, owned by root or the owner,
// writable by no one else, in folders up to `/` that only they can write
// to (or that are sticky); the folders of the path as written too; and
// each library the dynamic loader will map for it from outside the
// system's folders, with every folder it searches (see host_libraries.h).
// The host runs with the rights of whoever runs plugboard, so whoever
// could change any of them could act as them; sudo refuses such files
// too. Each refusal names the file, its owner, its mode and the fix.
// Returns the descriptor the host was vetted through, for start() to
// start; -1 when it may not be started.
static int vet(const char *path) {
  struct stat self, host;
  if (stat("/proc/self/exe", &self) != 0) {
    put_error("cannot inspect", "/proc/self/exe", errno, " (its own executable); is /proc mounted?");
    return -1;
  }
  trust_set_owner(self.st_uid);
  trust_subject own = {path, "", NULL, ""};
  char target[PATH_MAX];
  if (!trust_links(&own, path, "plugboard-host", target)) return -1;
  int fd = open_host(path, target, &host);
  if (fd < 0) return -1;
  int linked = strcmp(target, path) != 0;
  trust_subject subject = linked ? (trust_subject){target, " (where ", path, " leads)"} : own;
  char folder[PATH_MAX], target_folder[PATH_MAX];
  folder_of(path, folder, sizeof folder);
  folder_of(target, target_folder, sizeof target_folder);
  int read_fd = -1;
  if (!trust_file(&subject, &host, "install plugboard-host there (Scripts/install-host)",
                  ", or install both again (Scripts/install-host)") ||
      !trust_folders(&own, folder) || (linked && !trust_folders(&subject, target_folder)) ||
      (read_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0 || !host_libraries_vetted(read_fd, host.st_size, &subject)) {
    close(fd);
    return -1;
  }
  return fd;
}

// Whether the command line plainly names a command that brings a
// deployment up, without --unsupervised or --listen before a `--`. With
// --listen the host forks by itself: the socket must be opened before the
// first child exists, so that the supervising process holds it.
static int supervised(int argc, char **argv) {
  if (argc < 2) return 0;
  int named = 0;
  const char *command;
  for (int index = 0; (command = plugboard_supervised_command(index)) != NULL; index++) {
    if (strcmp(argv[1], command) == 0) named = 1;
  }
  if (!named) return 0;
  for (int index = 2; index < argc && strcmp(argv[index], "--") != 0; index++) {
    if (strcmp(argv[index], "--unsupervised") == 0 || strcmp(argv[index], "--listen") == 0 ||
        strncmp(argv[index], "--listen=", 9) == 0) {
      return 0;
    }
  }
  return 1;
}

// The longest the supervising process of `run` waits for its child's
// deployment to come up before starting its host: a child held up longer
// (a slow plugin, a busy machine) is then watched all the same.
#define BRING_UP_WAIT_MS 250

// Whether the bytes waiting in the pipe `progress` hold the last line of
// the inventory a `run` child sends as its application starts (its
// profile's: "If\t…"), read through a copy (`scratch`), so that the host
// still reads every byte. Plugin code may write such a line too: the host
// then only starts sooner.
static int holds_inventory(int progress, const int scratch[2]) {
  static char bytes[1 << 16];
  ssize_t copied = tee(progress, scratch[1], sizeof bytes, SPLICE_F_NONBLOCK);
  if (copied <= 0) return 0;
  size_t total = 0;
  while (total < (size_t)copied) {
    ssize_t count = read(scratch[0], bytes + total, (size_t)copied - total);
    if (count <= 0) return 1;
    total += (size_t)count;
  }
  for (size_t at = 0; at + 3 <= total; at++) {
    if ((at == 0 || bytes[at - 1] == '\n') && memcmp(bytes + at, "If\t", 3) == 0) return 1;
  }
  return 0;
}

// Before the supervising process of `run` starts its host: waits until
// the child `child` has brought its deployment up (its inventory waits in
// `progress`) or ended, at most BRING_UP_WAIT_MS. Until then the child
// runs the bring-up, and the host's start here, which maps the Swift
// runtime and Foundation as the child's does, competed with it for the
// processors and delayed the application's start for nothing the host
// can do sooner: what the child writes waits in the pipe, its stage
// deadlines are kept from the stage record's times, a signal sent
// meanwhile waits blocked, and the host reaps a child that ended.
static void await_bring_up(int progress, pid_t child) {
#ifdef SYS_pidfd_open
  int ended = (int)syscall(SYS_pidfd_open, child, 0);
#else
  int ended = -1;
#endif
  int scratch[2] = {-1, -1};
  int events = epoll_create1(EPOLL_CLOEXEC);
  // Without any of them, a child that ends would hold the host back the
  // whole wait: start it now.
  if (ended >= 0 && events >= 0 && pipe2(scratch, O_CLOEXEC | O_NONBLOCK) == 0) {
    struct epoll_event written = {.events = EPOLLIN | EPOLLET, .data.fd = progress};
    struct epoll_event gone = {.events = EPOLLIN, .data.fd = ended};
    if (epoll_ctl(events, EPOLL_CTL_ADD, progress, &written) == 0 &&
        epoll_ctl(events, EPOLL_CTL_ADD, ended, &gone) == 0) {
      struct timespec now;
      clock_gettime(CLOCK_MONOTONIC, &now);
      long long deadline = now.tv_sec * 1000LL + now.tv_nsec / 1000000 + BRING_UP_WAIT_MS;
      for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        long long left = deadline - (now.tv_sec * 1000LL + now.tv_nsec / 1000000);
        struct epoll_event event;
        int count = left > 0 ? epoll_wait(events, &event, 1, (int)left) : 0;
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0 || event.data.fd == ended || holds_inventory(progress, scratch)) break;
      }
    }
  }
  for (int index = 0; index < 2; index++) {
    if (scratch[index] >= 0) close(scratch[index]);
  }
  if (events >= 0) close(events);
  if (ended >= 0) close(ended);
}

// Whether this process's environment gives a setting's value itself
// (`PLUGBOARD_CONFIG_…`, not a `…_FILE` path): the host then makes the
// supervising process non-dumpable as it starts, so that no other process
// of the user reads the value from /proc/<pid>/environ, and it must start
// at once rather than after the child's bring-up.
static int holds_settings(void) {
  static const char prefix[] = "PLUGBOARD_CONFIG_";
  static const char file[] = "_FILE";
  for (char **entry = environ; *entry != NULL; entry++) {
    const char *equals = strchr(*entry, '=');
    if (equals == NULL || strncmp(*entry, prefix, sizeof prefix - 1) != 0) continue;
    size_t length = (size_t)(equals - *entry);
    if (length >= sizeof file - 1 && memcmp(equals - (sizeof file - 1), file, sizeof file - 1) == 0) continue;
    return 1;
  }
  return 0;
}

// Puts `fd` (above `target`) at `target`, without close-on-exec. 0 on failure.
static int place(int fd, int target) { return dup2(fd, target) == target; }

// Starts the host vetted through `host` as `launch` describes; returns
// only on failure.
static void start(int host, char **argv, plugboard_launch launch) {
  char value[64];
  if (plugboard_launch_describe(launch, value, sizeof value) < 0) return;
  if (setenv(PLUGBOARD_LAUNCH_VARIABLE, value, 1) != 0) return;
  fexecve(host, argv, environ);
}

int main(int argc, char **argv) {
  char host[PATH_MAX];
  int vetted = locate_host(host, sizeof host) ? vet(host) : -1;
  if (vetted < 0) return failure_status(argc, argv);
  // A variable from outside must not reach the host as if this program had set it.
  unsetenv(PLUGBOARD_LAUNCH_VARIABLE);
  if (supervised(argc, argv)) {
    int first = 3 + plugboard_listen_fds_for(getpid());
    int record = plugboard_launch_record_file();
    int ends[2];
    if (record >= 0 && pipe2(ends, O_CLOEXEC) == 0) {
      // Above the two places they go to, so that placing one cannot
      // overwrite the other; close-on-exec, so only the placed copies
      // reach the host.
      int high_record = fcntl(record, F_DUPFD_CLOEXEC, first + 2);
      int high_read = fcntl(ends[0], F_DUPFD_CLOEXEC, first + 2);
      int high_write = fcntl(ends[1], F_DUPFD_CLOEXEC, first + 2);
      int high_host = fcntl(vetted, F_DUPFD_CLOEXEC, first + 2);
      prctl(PR_SET_CHILD_SUBREAPER, 1);
      // Until the host's parent forwards them, a signal sent to it waits
      // (across exec) rather than ending it with the child running on.
      sigset_t previous;
      sigprocmask(SIG_BLOCK, NULL, &previous);
      plugboard_block_forwarded_signals();
      pid_t parent = getpid();
      pid_t pid = high_record >= 0 && high_read >= 0 && high_write >= 0 && high_host >= 0 ? fork() : -1;
      if (pid == 0) {
        // As plugboard_fork's child: never outlive the parent. The parent's
        // forwarded copies wait for the host's handler: the forwarding
        // signal is blocked with the others, across exec.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) raise(SIGKILL);
        plugboard_hand_over_listen_fds(parent);
        if (place(high_record, first) && place(high_write, first + 1)) {
          start(high_host, argv, (plugboard_launch){PLUGBOARD_LAUNCHED_CHILD, parent, first, first + 1});
        }
        put_error("cannot start", host, errno, "");
        _exit(failure_status(argc, argv));
      }
      if (pid > 0) {
        if (strcmp(argv[1], "run") == 0 && !holds_settings()) await_bring_up(high_read, pid);
        if (place(high_record, first) && place(high_read, first + 1)) {
          start(high_host, argv, (plugboard_launch){PLUGBOARD_LAUNCHED_PARENT, pid, first, first + 1});
        }
        int saved = errno;
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        put_error("cannot start", host, saved, "");
        return failure_status(argc, argv);
      }
      // No fork: the host supervises by itself.
      sigprocmask(SIG_SETMASK, &previous, NULL);
      prctl(PR_SET_CHILD_SUBREAPER, 0);
    }
  }
  fexecve(vetted, argv, environ);
  put_error("cannot start", host, errno, "");
  return failure_status(argc, argv);
}
