#include "plugboard_file_system.h"

#include <linux/magic.h>
#include <sys/vfs.h>

int plugboard_is_memory_file_system(const char *path) {
  struct statfs status;
  return statfs(path, &status) == 0 && status.f_type == TMPFS_MAGIC;
}
