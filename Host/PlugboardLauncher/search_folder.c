#define _GNU_SOURCE
#include "search_folder.h"

#include "plugboard_search_subfolders.h"
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

// Judges `relative` in `folder`, a subfolder the loader tries first that
// exists, and records it. 0 with the refusal reported.
static int judge_subfolder(search_folder *folder, const char *relative) {
  char path[PATH_MAX];
  struct stat status;
  if ((size_t)snprintf(path, sizeof path, "%s/%s", folder->path, relative) >= sizeof path) return 1;
  if (stat(path, &status) != 0 || !S_ISDIR(status.st_mode)) return 1;
  trust_subject subject = {path, ", a folder the dynamic loader searches before ", folder->path,
                           " for the libraries plugboard-host loads,"};
  if (!trust_searched_folder(&subject, &status)) return 0;
  snprintf(folder->subfolders[folder->subfolder_count++], sizeof folder->subfolders[0], "%s", relative);
  return 1;
}

// The subfolders the loader tries first in `folder`, as the loader model
// lists them (plugboard_search_subfolders.h), each judged.
static int judge_subfolders(search_folder *folder) {
  plugboard_search_subfolders found;
  plugboard_search_subfolders_of(folder->path, &found);
  if (found.count < 0) {
    put("plugboard: ");
    put_escaped(folder->path);
    put(searched_role);
    put(" has more subfolders the dynamic loader tries first than plugboard vets — remove those it does not "
        "need\n");
    return 0;
  }
  for (int index = 0; index < found.count; index++) {
    if (!judge_subfolder(folder, found.names[index])) return 0;
  }
  return 1;
}

// Judges `folder->named`, which the loader searches, and fills in the rest.
static int judge(search_folder *folder) {
  // Every link on the way is judged: whoever re-points one chooses every
  // library found there.
  trust_subject named = {folder->named, searched_role, NULL, ""};
  char resolved[PATH_MAX];
  if (!trust_links(&named, folder->named, "the libraries plugboard-host loads", resolved)) return 0;
  if (realpath(resolved, folder->path) == NULL) {
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
  return judge_subfolders(folder);
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
