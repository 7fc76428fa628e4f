#define _GNU_SOURCE
#include "plugboard_search_subfolders.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const legacy_names[] = {"tls", "x86_64", "haswell", "xeon_phi", "avx512_1", "aarch64"};

int plugboard_search_legacy_subfolders(void) {
  static int known = -1;
  if (known >= 0) return known;
  char version[64];
  size_t length = confstr(_CS_GNU_LIBC_VERSION, version, sizeof version);
  int major = 0, minor = 0;
  // "glibc 2.36"; unreadable is taken as current: no legacy subfolders.
  known = length > 0 && length <= sizeof version && sscanf(version, "glibc %d.%d", &major, &minor) == 2 &&
          (major < 2 || (major == 2 && minor < 37));
  return known;
}

// Records `relative` when it is a folder in `folder`; 1 when it is.
static int add(const char *folder, const char *relative, plugboard_search_subfolders *found) {
  char path[PATH_MAX];
  struct stat status;
  if ((size_t)snprintf(path, sizeof path, "%s/%s", folder, relative) >= sizeof path) return 0;
  if (stat(path, &status) != 0 || !S_ISDIR(status.st_mode)) return 0;
  if (found->count < 0) return 1;
  if (found->count == PLUGBOARD_SEARCH_SUBFOLDERS_MAX) {
    found->count = -1;
    return 1;
  }
  snprintf(found->names[found->count++], PLUGBOARD_SEARCH_SUBFOLDER_NAME_MAX, "%s", relative);
  return 1;
}

static int descending(const void *left, const void *right) {
  return strcmp((const char *)right, (const char *)left);
}

static void add_hwcaps(const char *folder, plugboard_search_subfolders *found) {
  if (!add(folder, "glibc-hwcaps", found)) return;
  char path[PATH_MAX];
  if ((size_t)snprintf(path, sizeof path, "%s/glibc-hwcaps", folder) >= sizeof path) return;
  DIR *listing = opendir(path);
  if (listing == NULL) return;
  int first = found->count;
  struct dirent *entry;
  while (found->count >= 0 && (entry = readdir(listing)) != NULL) {
    if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
    char relative[PLUGBOARD_SEARCH_SUBFOLDER_NAME_MAX];
    if ((size_t)snprintf(relative, sizeof relative, "glibc-hwcaps/%s", entry->d_name) >= sizeof relative) {
      // A name too long to list is a subfolder plugboard cannot vet.
      found->count = -1;
      break;
    }
    add(folder, relative, found);
  }
  closedir(listing);
  // The loader tries the highest level first: x86-64-v4, v3, v2.
  if (found->count > first) {
    qsort(found->names[first], (size_t)(found->count - first), sizeof found->names[0], descending);
  }
}

static void add_legacy(const char *folder, const char *prefix, int depth, plugboard_search_subfolders *found) {
  for (size_t index = 0; index < sizeof legacy_names / sizeof legacy_names[0] && found->count >= 0; index++) {
    char relative[PLUGBOARD_SEARCH_SUBFOLDER_NAME_MAX];
    if ((size_t)snprintf(relative, sizeof relative, "%s%s", prefix, legacy_names[index]) >= sizeof relative) {
      continue;
    }
    if (add(folder, relative, found) && depth < 3) {
      char nested[PLUGBOARD_SEARCH_SUBFOLDER_NAME_MAX];
      snprintf(nested, sizeof nested, "%s/", relative);
      add_legacy(folder, nested, depth + 1, found);
    }
  }
}

void plugboard_search_subfolders_of(const char *folder, plugboard_search_subfolders *found) {
  found->count = 0;
  add_hwcaps(folder, found);
  if (plugboard_search_legacy_subfolders()) add_legacy(folder, "", 1, found);
}
