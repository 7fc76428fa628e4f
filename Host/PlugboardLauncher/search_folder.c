#define _GNU_SOURCE
#include "search_folder.h"

#include "refusal.h"
#include "trust.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

// Distinct run path folders across the host's closure: two for a build
// folder (the toolchain and $ORIGIN), one for an installation.
#define MAX_FOLDERS 16

static search_folder folders[MAX_FOLDERS];
static int folder_count;

int search_folder_is_system(const char *path) {
  static const char *const system[] = {"/lib", "/usr/lib", "/lib64", "/usr/lib64"};
  for (size_t index = 0; index < sizeof system / sizeof system[0]; index++) {
    size_t length = strlen(system[index]);
    if (strncmp(path, system[index], length) == 0 && (path[length] == '\0' || path[length] == '/')) return 1;
  }
  return 0;
}

static const char searched_role[] = ", a folder the dynamic loader searches for the libraries plugboard-host loads,";

// Judges `relative` in `folder` when it exists, and records it. 0 with the
// refusal reported; `*exists` says whether there was anything to judge.
static int judge_subfolder(search_folder *folder, const char *relative, int *exists) {
  char path[PATH_MAX];
  struct stat status;
  *exists = 0;
  if ((size_t)snprintf(path, sizeof path, "%s/%s", folder->path, relative) >= sizeof path) return 1;
  if (stat(path, &status) != 0 || !S_ISDIR(status.st_mode)) return 1;
  *exists = 1;
  trust_subject subject = {path, ", a folder the dynamic loader searches before ", folder->path,
                           " for the libraries plugboard-host loads,"};
  if (!trust_searched_folder(&subject, &status)) return 0;
  if (folder->subfolder_count == SEARCH_FOLDER_MAX_SUBFOLDERS) {
    put("plugboard: ");
    put_escaped(folder->path);
    put(searched_role);
    put(" has more subfolders the dynamic loader tries first than plugboard vets — remove those it does not "
        "need\n");
    return 0;
  }
  snprintf(folder->subfolders[folder->subfolder_count++], sizeof folder->subfolders[0], "%s", relative);
  return 1;
}

// The names glibc before 2.37 tries as subfolders, nested up to three
// deep (tls/, then a platform, then a capability): tls/x86_64/,
// x86_64/x86_64/, haswell/ and the like. Only those that exist are
// descended into, so a folder without them costs one stat for each name.
static const char *const legacy_names[] = {"tls", "x86_64", "haswell", "xeon_phi", "avx512_1", "aarch64"};

static int judge_legacy(search_folder *folder, const char *prefix, int depth) {
  for (size_t index = 0; index < sizeof legacy_names / sizeof legacy_names[0]; index++) {
    char relative[64];
    if ((size_t)snprintf(relative, sizeof relative, "%s%s", prefix, legacy_names[index]) >= sizeof relative) continue;
    int exists;
    if (!judge_subfolder(folder, relative, &exists)) return 0;
    if (exists && depth < 3) {
      char nested[64];
      snprintf(nested, sizeof nested, "%s/", relative);
      if (!judge_legacy(folder, nested, depth + 1)) return 0;
    }
  }
  return 1;
}

// glibc-hwcaps/ and each folder in it (x86-64-v3 and the like).
static int judge_hwcaps(search_folder *folder) {
  int exists;
  if (!judge_subfolder(folder, "glibc-hwcaps", &exists)) return 0;
  if (!exists) return 1;
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/glibc-hwcaps", folder->path);
  DIR *listing = opendir(path);
  if (listing == NULL) {
    put_error("cannot inspect", path, errno, "");
    return 0;
  }
  struct dirent *entry;
  int result = 1;
  while (result && (entry = readdir(listing)) != NULL) {
    if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
    char relative[64];
    if ((size_t)snprintf(relative, sizeof relative, "glibc-hwcaps/%s", entry->d_name) >= sizeof relative) continue;
    result = judge_subfolder(folder, relative, &exists);
  }
  closedir(listing);
  return result;
}

// Judges `folder->named`, which the loader searches, and fills in the rest.
static int judge(search_folder *folder) {
  if (realpath(folder->named, folder->path) == NULL) {
    // Nothing is found in a folder that does not exist.
    if (errno == ENOENT || errno == ENOTDIR) return 1;
    put_error("cannot inspect", folder->named, errno, ", a folder the dynamic loader searches");
    return 0;
  }
  struct stat status;
  if (stat(folder->path, &status) != 0 || !S_ISDIR(status.st_mode)) return 1;
  folder->exists = 1;
  folder->system = search_folder_is_system(folder->path);
  if (folder->system) return 1;
  trust_subject subject = {folder->path, searched_role, NULL, ""};
  if (!trust_searched_folder(&subject, &status)) return 0;
  if (strcmp(folder->path, "/") != 0) {
    char parent[PATH_MAX];
    folder_of(folder->path, parent, sizeof parent);
    if (!trust_folders(&subject, parent)) return 0;
  }
  return judge_hwcaps(folder) && judge_legacy(folder, "", 1);
}

const search_folder *search_folder_vetted(const char *named) {
  for (int index = 0; index < folder_count; index++) {
    if (strcmp(folders[index].named, named) == 0) return &folders[index];
  }
  if (folder_count == MAX_FOLDERS) {
    put("plugboard: the run paths of plugboard-host and its libraries name more folders than plugboard vets — "
        "install it again (Scripts/install-host)\n");
    return NULL;
  }
  search_folder *folder = &folders[folder_count++];
  memset(folder, 0, sizeof *folder);
  snprintf(folder->named, sizeof folder->named, "%s", named);
  return judge(folder) ? folder : NULL;
}
