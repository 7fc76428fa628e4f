#define _GNU_SOURCE
#include "plugboard_runtime_descriptors.h"
#include "plugboard_supervision.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

int plugboard_keep_runtime_descriptors(plugboard_kept_descriptor *kept, int capacity) {
  DIR *folder = opendir("/proc/self/fd");
  if (folder == NULL) return 0;
  int own = dirfd(folder);
  // plugboard's own descriptors are moved to 32 below the soft limit and up.
  int high = plugboard_move_high_floor();
  int count = 0;
  struct dirent *entry;
  while (count < capacity && (entry = readdir(folder)) != NULL) {
    char *end;
    long fd = strtol(entry->d_name, &end, 10);
    if (*end != '\0' || end == entry->d_name || fd < 3 || fd == own || fd >= high) continue;
    char target[64];
    if (plugboard_descriptor_target((int)fd, target, sizeof target) != 0) continue;
    if (strncmp(target, "anon_inode:", 11) != 0) continue;
    struct stat status;
    int flags = fcntl((int)fd, F_GETFD);
    if (flags < 0 || fstat((int)fd, &status) != 0) continue;
    int copy = fcntl((int)fd, F_DUPFD_CLOEXEC, high);
    if (copy < 0) continue;
    kept[count++] = (plugboard_kept_descriptor){
      (int)fd, copy, (flags & FD_CLOEXEC) != 0, (unsigned long long)status.st_dev, (unsigned long long)status.st_ino};
  }
  closedir(folder);
  return count;
}

int plugboard_restore_runtime_descriptor(const plugboard_kept_descriptor *kept) {
  if (same_open_file(kept)) return 0;
  if (dup3(kept->copy, kept->fd, kept->cloexec ? O_CLOEXEC : 0) < 0) return -1;
  return 1;
}
