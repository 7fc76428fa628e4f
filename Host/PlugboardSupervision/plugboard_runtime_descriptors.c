#define _GNU_SOURCE
#include "plugboard_runtime_descriptors.h"
#include "plugboard_descriptors.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int plugboard_descriptor_target(int fd, char *buffer, int size) {
  if (size < 1) return -1;
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  ssize_t length = readlink(path, buffer, (size_t)size - 1);
  if (length < 0) return -1;
  buffer[length] = '\0';
  return 0;
}

// Whether `fd` refers to an anonymous file of `kind` ("[eventpoll]").
static int is_anonymous(int fd, const char *kind) {
  char target[64];
  if (plugboard_descriptor_target(fd, target, sizeof target) != 0) return 0;
  return strncmp(target, "anon_inode:", 11) == 0 && strcmp(target + 11, kind) == 0;
}

// A whole small file of /proc (a line or a few), NUL-terminated; the
// length read, or -1.
static ssize_t read_small(const char *path, char *buffer, size_t size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  size_t total = 0;
  while (total + 1 < size) {
    ssize_t count = read(fd, buffer + total, size - 1 - total);
    if (count <= 0) break;
    total += (size_t)count;
  }
  close(fd);
  buffer[total] = '\0';
  return (ssize_t)total;
}

// Whether `number` (from a task's `syscall` file) is one of the calls an
// event loop sleeps in.
static int is_epoll_wait(long number) {
#ifdef SYS_epoll_wait
  if (number == SYS_epoll_wait) return 1;
#endif
#ifdef SYS_epoll_pwait
  if (number == SYS_epoll_pwait) return 1;
#endif
  return 0;
}

int plugboard_event_loop_is_idle(void) {
  DIR *tasks = opendir("/proc/self/task");
  if (tasks == NULL) return 0;
  int high = plugboard_move_high_floor();
  int idle = 0;
  struct dirent *entry;
  while (!idle && (entry = readdir(tasks)) != NULL) {
    if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%s/syscall", entry->d_name);
    // "232 0x3 0x7f… 0x10 0xffffffff …" while blocked in epoll_wait(3, …,
    // -1); "running" while on a processor.
    char line[256];
    if (read_small(path, line, sizeof line) <= 0) continue;
    char *end;
    long number = strtol(line, &end, 10);
    if (end == line || !is_epoll_wait(number)) continue;
    unsigned long long arguments[4] = {0, 0, 0, 0};
    char *cursor = end;
    int parsed = 0;
    while (parsed < 4) {
      char *next;
      arguments[parsed] = strtoull(cursor, &next, 16);
      if (next == cursor) break;
      cursor = next;
      parsed++;
    }
    if (parsed < 4) continue;
    int fd = (int)arguments[0];
    // The timeout is an int: -1 waits until an event comes; 0 only looks.
    int timeout = (int)(unsigned int)arguments[3];
    idle = fd >= 3 && fd < high && timeout != 0 && is_anonymous(fd, "[eventpoll]");
  }
  closedir(tasks);
  return idle;
}

// Keeps `fd` in `kept[*count]`: a close-on-exec copy at plugboard's high
// numbers, its close-on-exec flag and its identity. 0, or -1 when it cannot.
static int keep(int fd, plugboard_kept_descriptor *kept, int *count, int capacity, int high) {
  if (*count >= capacity) return -1;
  for (int index = 0; index < *count; index++) {
    if (kept[index].fd == fd) return 0;
  }
  struct stat status;
  int flags = fcntl(fd, F_GETFD);
  if (flags < 0 || fstat(fd, &status) != 0) return -1;
  int copy = fcntl(fd, F_DUPFD_CLOEXEC, high);
  if (copy < 0) return -1;
  kept[(*count)++] = (plugboard_kept_descriptor){
    fd, copy, (flags & FD_CLOEXEC) != 0, (unsigned long long)status.st_dev, (unsigned long long)status.st_ino};
  return 0;
}

// Keeps the eventfds and timerfds the epoll instance `epoll` watches, as
// its `fdinfo` lists them ("tfd:        4 events: …").
static void keep_watched(int epoll, plugboard_kept_descriptor *kept, int *count, int capacity, int high) {
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fdinfo/%d", epoll);
  char text[4096];
  if (read_small(path, text, sizeof text) <= 0) return;
  for (char *line = text; line != NULL && *line != '\0';) {
    char *next = strchr(line, '\n');
    if (next != NULL) *next++ = '\0';
    if (strncmp(line, "tfd:", 4) == 0) {
      char *end;
      long fd = strtol(line + 4, &end, 10);
      if (end != line + 4 && fd >= 3 && fd < high
        && (is_anonymous((int)fd, "[eventfd]") || is_anonymous((int)fd, "[timerfd]"))) {
        (void)keep((int)fd, kept, count, capacity, high);
      }
    }
    line = next;
  }
}

int plugboard_keep_runtime_descriptors(plugboard_kept_descriptor *kept, int capacity) {
  DIR *folder = opendir("/proc/self/fd");
  if (folder == NULL) return 0;
  int own = dirfd(folder);
  // plugboard's own descriptors are moved to 32 below the soft limit and up.
  int high = plugboard_move_high_floor();
  int epolls[16];
  int found = 0;
  struct dirent *entry;
  while (found < (int)(sizeof epolls / sizeof epolls[0]) && (entry = readdir(folder)) != NULL) {
    char *end;
    long fd = strtol(entry->d_name, &end, 10);
    if (*end != '\0' || end == entry->d_name || fd < 3 || fd == own || fd >= high) continue;
    if (is_anonymous((int)fd, "[eventpoll]")) epolls[found++] = (int)fd;
  }
  closedir(folder);
  int count = 0;
  for (int index = 0; index < found; index++) {
    int before = count;
    keep_watched(epolls[index], kept, &count, capacity, high);
    // An epoll instance that watches none of the loop's own descriptors is
    // not the runtime's event loop.
    if (count == before) continue;
    if (keep(epolls[index], kept, &count, capacity, high) != 0) {
      // Kept only together: close the copies of what it watches.
      while (count > before) close(kept[--count].copy);
    }
  }
  return count;
}

// Whether `fd` still refers to the kept file: by its inode, a third of what
// kcmp(2) costs (it runs after the stages of every plugin).
// A plugin's file that took the number has an inode of its own (a pipe's or
// a socket's too); only another anonymous file in its place would pass,
// which the inode of the anonymous files, shared, cannot tell.
static int same_open_file(const plugboard_kept_descriptor *kept) {
  struct stat status;
  return fstat(kept->fd, &status) == 0 && (unsigned long long)status.st_dev == kept->device
    && (unsigned long long)status.st_ino == kept->inode;
}

int plugboard_restore_runtime_descriptor(const plugboard_kept_descriptor *kept) {
  if (same_open_file(kept)) return 0;
  if (dup3(kept->copy, kept->fd, kept->cloexec ? O_CLOEXEC : 0) < 0) return -1;
  return 1;
}
