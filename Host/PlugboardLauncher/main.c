// plugboard: the launcher. Starts `plugboard-host`, the program that does
// the work, from the folder this executable is in.
//
// A command that brings a deployment up (run, list, check, explain,
// graph) runs supervised: plugin code runs in a child process, and the
// parent reports for it. The host used to fork itself, after the dynamic
// loader had mapped Swift, Foundation and the SDK; the child then took a
// page fault for every page of them it used again (issue 27: a fifth of
// `run`'s start). This program maps only itself (it is linked statically
// in release builds), so it forks first, and each process then starts the
// host afresh (see plugboard_launch.h). Every other command line goes to
// the host unchanged, which also forks by itself when it must: this
// program only has to recognise the plain cases, and a command line it
// does not is still supervised, a little later.
#define _GNU_SOURCE
#include "plugboard_launch.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char host_name[] = "plugboard-host";

// `text` on standard error, each byte outside printable ASCII as \xHH: a
// path is the operator's, but a terminal must never receive control bytes.
static void put_escaped(const char *text) {
  char buffer[4 * PATH_MAX + 64];
  size_t used = 0;
  for (const unsigned char *byte = (const unsigned char *)text; *byte != '\0' && used + 4 < sizeof buffer; byte++) {
    if (*byte >= 0x20 && *byte < 0x7F) {
      buffer[used++] = (char)*byte;
    } else {
      used += (size_t)snprintf(buffer + used, sizeof buffer - used, "\\x%02X", *byte);
    }
  }
  (void)!write(STDERR_FILENO, buffer, used);
}

static void put(const char *text) { (void)!write(STDERR_FILENO, text, strlen(text)); }

// "plugboard: <doing> <path>: <error><advice>", one line.
static void put_error(const char *doing, const char *path, int error, const char *advice) {
  put("plugboard: ");
  put(doing);
  put(" ");
  put_escaped(path);
  put(": ");
  put(strerror(error));
  put(advice);
  put("\n");
}

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

// "its group", "others" or "group and others": who, besides the owner,
// may write a file of `mode`; NULL for no one.
static const char *writers(mode_t mode) {
  int group = (mode & S_IWGRP) != 0, others = (mode & S_IWOTH) != 0;
  return group && others ? "group and others" : group ? "its group" : others ? "others" : NULL;
}

// " (mode 0775, owner uid 0)", as the host's own refusals say it.
static void put_mode(const struct stat *status) {
  char detail[64];
  snprintf(detail, sizeof detail, " (mode %04o, owner uid %u)", (unsigned)(status->st_mode & 07777),
           (unsigned)status->st_uid);
  put(detail);
}

// Whether `path` may be started: a regular file, owned by root or by the
// owner of this executable, writable by no one else, in a folder that only
// they can write to (or that is sticky). The host runs with the rights of
// whoever runs plugboard, so whoever could change it could act as them;
// sudo refuses such files too. Each refusal names the file, its owner, its
// mode and the fix.
static int vet(const char *path) {
  struct stat host, self, folder;
  if (stat(path, &host) != 0) {
    put_error("cannot start", path, errno,
              " — build it beside plugboard (swift build --product plugboard-host), or install both "
              "(Scripts/install-host)");
    return 0;
  }
  char parent[PATH_MAX];
  snprintf(parent, sizeof parent, "%s", path);
  char *slash = strrchr(parent, '/');
  if (slash == parent) slash[1] = '\0';
  else if (slash != NULL) *slash = '\0';
  if (stat("/proc/self/exe", &self) != 0 || stat(parent, &folder) != 0) {
    put_error("cannot inspect", parent, errno, "");
    return 0;
  }
  const char *problem = NULL;
  if (!S_ISREG(host.st_mode)) {
    put("plugboard: ");
    put_escaped(path);
    put(" is not a regular file — install plugboard-host there (Scripts/install-host)\n");
    return 0;
  }
  if (host.st_uid != 0 && host.st_uid != self.st_uid) {
    char owner[48];
    snprintf(owner, sizeof owner, "(uid %u)", (unsigned)self.st_uid);
    put("plugboard: ");
    put_escaped(path);
    put(" is owned by neither root nor the owner of plugboard ");
    put(owner);
    put_mode(&host);
    put("; its owner could run code as whoever runs plugboard — chown root ");
    put_escaped(path);
    put(", or install both again (Scripts/install-host)\n");
    return 0;
  }
  if ((problem = writers(host.st_mode)) != NULL) {
    put("plugboard: ");
    put_escaped(path);
    put(" is writable by ");
    put(problem);
    put_mode(&host);
    put("; anyone who can write it can run code as whoever runs plugboard — chmod go-w ");
    put_escaped(path);
    put("\n");
    return 0;
  }
  if ((folder.st_uid != 0 && folder.st_uid != self.st_uid) ||
      ((problem = writers(folder.st_mode)) != NULL && (folder.st_mode & S_ISVTX) == 0)) {
    put("plugboard: ");
    put_escaped(path);
    put(" lies in the folder ");
    put_escaped(parent);
    if (problem != NULL) {
      put(", which is writable by ");
      put(problem);
    } else {
      put(", which is owned by neither root nor the owner of plugboard");
    }
    put_mode(&folder);
    put("; anyone who can write there can replace it — ");
    put(problem != NULL ? "chmod go-w " : "chown root ");
    put_escaped(parent);
    put("\n");
    return 0;
  }
  return 1;
}

// Whether the command line plainly names a command that brings a
// deployment up, without --unsupervised before a `--`.
static int supervised(int argc, char **argv) {
  if (argc < 2) return 0;
  int named = 0;
  const char *command;
  for (int index = 0; (command = plugboard_supervised_command(index)) != NULL; index++) {
    if (strcmp(argv[1], command) == 0) named = 1;
  }
  if (!named) return 0;
  for (int index = 2; index < argc && strcmp(argv[index], "--") != 0; index++) {
    if (strcmp(argv[index], "--unsupervised") == 0) return 0;
  }
  return 1;
}

// Puts `fd` (above `target`) at `target`, without close-on-exec. 0 on failure.
static int place(int fd, int target) { return dup2(fd, target) == target; }

// Starts the host as `launch` describes; returns only on failure.
static void start(const char *host, char **argv, plugboard_launch launch) {
  char value[64];
  if (plugboard_launch_describe(launch, value, sizeof value) < 0) return;
  if (setenv(PLUGBOARD_LAUNCH_VARIABLE, value, 1) != 0) return;
  execv(host, argv);
}

int main(int argc, char **argv) {
  char host[PATH_MAX];
  if (!locate_host(host, sizeof host) || !vet(host)) return failure_status(argc, argv);
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
      prctl(PR_SET_CHILD_SUBREAPER, 1);
      // Until the host's parent forwards them, a signal sent to it waits
      // (across exec) rather than ending it with the child running on.
      sigset_t previous;
      sigprocmask(SIG_BLOCK, NULL, &previous);
      plugboard_block_forwarded_signals();
      pid_t parent = getpid();
      pid_t pid = high_record >= 0 && high_read >= 0 && high_write >= 0 ? fork() : -1;
      if (pid == 0) {
        // As plugboard_fork's child: never outlive the parent. The parent's
        // forwarded copies wait for the host's handler: the forwarding
        // signal is blocked with the others, across exec.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) raise(SIGKILL);
        plugboard_hand_over_listen_fds(parent);
        if (place(high_record, first) && place(high_write, first + 1)) {
          start(host, argv, (plugboard_launch){PLUGBOARD_LAUNCHED_CHILD, parent, first, first + 1});
        }
        put_error("cannot start", host, errno, "");
        _exit(failure_status(argc, argv));
      }
      if (pid > 0) {
        if (place(high_record, first) && place(high_read, first + 1)) {
          start(host, argv, (plugboard_launch){PLUGBOARD_LAUNCHED_PARENT, pid, first, first + 1});
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
  execv(host, argv);
  put_error("cannot start", host, errno, "");
  return failure_status(argc, argv);
}
