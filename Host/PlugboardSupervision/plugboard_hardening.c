// Hardening of plugboard's own process.
//
// Descriptors plugboard did not open are not plugin code's to use.
//
// Whatever started plugboard may have left descriptors open by mistake (a
// shell's redirection, a leaky service manager, a test runner's pipes): a
// file opened with the operator's rights, the write end of someone's pipe.
// Plugin code runs with those rights too, and so does every process it
// starts; sudo closes them for the same reason. The only descriptors a
// service is meant to receive are socket activation's, which are kept.
#define _GNU_SOURCE
#include "plugboard_hardening.h"
#include "plugboard_launch.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

// Closes every descriptor from `first` on, one by one, as listed by
// /proc/self/fd: for kernels before close_range (5.9).
static int close_listed_from(int first) {
  DIR *folder = opendir("/proc/self/fd");
  if (folder == NULL) return -1;
  int own = dirfd(folder);
  int found[256];
  int saved_errno = 0;
  // Listed first and closed after: closing while reading would change the
  // listing under the reader. A batch at a time, from the start again,
  // until a pass finds nothing to close (bounded all the same: Linux
  // releases a descriptor even when close fails).
  for (int pass = 0; pass < 4096; pass++) {
    int count = 0;
    struct dirent *entry;
    rewinddir(folder);
    while (count < 256 && (entry = readdir(folder)) != NULL) {
      char *end = NULL;
      long number = strtol(entry->d_name, &end, 10);
      if (end == entry->d_name || *end != '\0') continue;
      if (number >= first && number != own) found[count++] = (int)number;
    }
    if (count == 0) break;
    for (int index = 0; index < count; index++) {
      if (close(found[index]) != 0 && errno != EINTR) saved_errno = errno;
    }
  }
  closedir(folder);
  if (saved_errno != 0) {
    errno = saved_errno;
    return -1;
  }
  return 0;
}

int plugboard_close_inherited_descriptors(int also_kept) {
  int kept = plugboard_listen_fds_for(getpid()) + (also_kept > 0 ? also_kept : 0);
  unsigned int first = 3u + (unsigned int)kept;
#ifdef SYS_close_range
  if (syscall(SYS_close_range, first, ~0u, 0) == 0) return kept;
  if (errno != ENOSYS && errno != EPERM) return -1;
#endif
  return close_listed_from((int)first) == 0 ? kept : -1;
}

int plugboard_make_undumpable(void) { return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }
