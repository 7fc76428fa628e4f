// Descriptors of plugboard's own in a process that runs plugin code: moved
// to high numbers out of the way of plugin code's, recognised by the file
// they refer to, and, for standard error, taken back from the supervising
// parent when plugin code closed or replaced plugboard's copy.
#define _GNU_SOURCE
#include "plugboard_descriptors.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

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
