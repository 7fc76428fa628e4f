// A folder named by the run path of plugboard-host or of a library it
// loads: the dynamic loader looks there for every library not yet found,
// after the subfolders it tries first (glibc-hwcaps/<level>/, and before
// glibc 2.37 tls/, x86_64/ and other platform names), so each of them must
// be as safe as a library's own file.
#ifndef PLUGBOARD_SEARCH_FOLDER_H
#define PLUGBOARD_SEARCH_FOLDER_H

#include <limits.h>

#include "plugboard_search_subfolders.h"

#define SEARCH_FOLDER_MAX_SUBFOLDERS PLUGBOARD_SEARCH_SUBFOLDERS_MAX

typedef struct {
  // The entry as the loader uses it ($ORIGIN expanded), and its canonical
  // path, which refusals name.
  char named[PATH_MAX];
  char path[PATH_MAX];
  // 0 when it does not exist (the loader finds nothing there); `system`
  // when it is one of the system's folders, trusted as the C library is.
  int exists;
  int system;
  // The subfolders that exist, relative to `path`, in the order tried.
  int subfolder_count;
  char subfolders[SEARCH_FOLDER_MAX_SUBFOLDERS][PLUGBOARD_SEARCH_SUBFOLDER_NAME_MAX];
} search_folder;

// The folder `named` (an absolute, expanded run path entry), judged with
// its subfolders and every folder above it the first time it is asked
// for. NULL with the refusal reported.
const search_folder *search_folder_vetted(const char *named);

// Whether `path` lies in the system's own library folders (/lib, /usr/lib,
// /lib64, /usr/lib64), which are trusted as the C library is.
int search_folder_is_system(const char *path);

#endif
