#define _GNU_SOURCE
#include "host_libraries.h"

#include "refusal.h"
#include "search_folder.h"

#include "plugboard_elf_dynamic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// plugboard-host maps 17 libraries, about 25 with the system's: the
// bounds are for a hostile file, not for any real one.
#define MAX_OBJECTS 128
#define MAX_NAMES 512
#define MAX_RUN_PATH_ENTRIES 16

static const char library_role[] = ", a library plugboard-host loads,";
static const char reinstall[] = "install plugboard again (Scripts/install-host)";

// A library found and trusted, waiting for its own needs to be read: the
// file opened (where a link leads), and the path the loader finds it at,
// whose folder is its $ORIGIN.
typedef struct {
  int fd;
  off_t size;
  char path[PATH_MAX];
  char found[PATH_MAX];
} object;

static object objects[MAX_OBJECTS];
static int object_count;
static char names[MAX_NAMES][PLUGBOARD_ELF_MAX_NAME + 1];
static int name_count;

// What refusals call the object at `index`: the host as its caller shows
// it, a library as one the host loads (through a link, when it is one).
static trust_subject subject_of(int index, const trust_subject *host) {
  if (index == 0) return *host;
  const object *library = &objects[index];
  if (strcmp(library->path, library->found) == 0) return (trust_subject){library->path, library_role, NULL, ""};
  return (trust_subject){library->path, ", a library plugboard-host loads through ", library->found, ","};
}

// "<subject><before><quoted><after>", one line; 0.
static int refuse(const trust_subject *subject, const char *before, const char *quoted, const char *after) {
  trust_put_subject(subject);
  put(before);
  if (quoted != NULL) put_escaped(quoted);
  put(after);
  put("\n");
  return 0;
}

// `entry` with $ORIGIN and ${ORIGIN} made `origin`, into `folder`. 0 when
// it names another token ($LIB, $PLATFORM), which the loader expands from
// what only it knows.
static int expand(const char *entry, const char *origin, char *folder, size_t size) {
  size_t used = 0;
  for (const char *cursor = entry; *cursor != '\0';) {
    const char *insert = NULL;
    size_t skip = 1;
    if (*cursor == '$') {
      if (strncmp(cursor, "${ORIGIN}", 9) == 0) {
        skip = 9;
      } else if (strncmp(cursor, "$ORIGIN", 7) == 0 && cursor[7] != '_' &&
                 !(cursor[7] >= 'A' && cursor[7] <= 'Z') && !(cursor[7] >= 'a' && cursor[7] <= 'z') &&
                 !(cursor[7] >= '0' && cursor[7] <= '9')) {
        skip = 7;
      } else {
        return 0;
      }
      insert = origin;
    }
    size_t length = insert != NULL ? strlen(insert) : 1;
    if (used + length >= size) return 0;
    memcpy(folder + used, insert != NULL ? insert : cursor, length);
    used += length;
    cursor += skip;
  }
  folder[used] = '\0';
  return 1;
}

// Opens and trusts `path`, where the loader would find a library, and
// queues it. 1 when it is not there (*found 0) or was queued or is the
// system's; 0 with the refusal reported.
static int take(const char *path, int *found) {
  *found = 0;
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  int error = fd < 0 ? errno : 0;
  if (error == ENOENT || error == ENOTDIR) return 1;
  *found = 1;
  if (object_count == MAX_OBJECTS) {
    put("plugboard: plugboard-host needs more libraries than plugboard vets — install it again "
        "(Scripts/install-host)\n");
    if (fd >= 0) close(fd);
    return 0;
  }
  object *library = &objects[object_count];
  snprintf(library->found, sizeof library->found, "%s", path);
  snprintf(library->path, sizeof library->path, "%s", path);
  if (error == ELOOP) {
    // A link: the loader follows it, so every link on the way, the file
    // and the folders where it leads count too (the link's own folder is
    // a searched one).
    trust_subject named = {path, library_role, NULL, ""};
    char resolved[PATH_MAX];
    if (!trust_links(&named, path, "the library", resolved)) return 0;
    if (realpath(resolved, library->path) == NULL) {
      put_error("cannot inspect", path, errno, ", a library plugboard-host loads");
      return 0;
    }
    if (search_folder_is_system(library->path)) return 1;
    char folder[PATH_MAX];
    folder_of(library->path, folder, sizeof folder);
    trust_subject subject = {library->path, ", a library plugboard-host loads through ", path, ","};
    if (!trust_folders(&subject, folder)) return 0;
    fd = open(library->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    error = fd < 0 ? errno : 0;
  }
  struct stat status;
  if (fd < 0 || fstat(fd, &status) != 0) {
    put_error("cannot inspect", library->path, fd < 0 ? error : errno, ", a library plugboard-host loads");
    if (fd >= 0) close(fd);
    return 0;
  }
  object_count++;
  library->fd = fd;
  library->size = status.st_size;
  trust_subject subject = subject_of(object_count - 1, NULL);
  return trust_file(&subject, &status, reinstall, "");
}

// Finds `name` as the loader would through `folders`, and takes each copy
// it could map: one in every subfolder it tries first, and the folder's.
static int search(const char *name, const search_folder *const *folders, int count) {
  for (int index = 0; index < count; index++) {
    const search_folder *folder = folders[index];
    if (!folder->exists) continue;
    int found = 0, here;
    char path[PATH_MAX];
    for (int sub = 0; sub <= folder->subfolder_count; sub++) {
      int written = sub < folder->subfolder_count
                        ? snprintf(path, sizeof path, "%s/%s/%s", folder->path, folder->subfolders[sub], name)
                        : snprintf(path, sizeof path, "%s/%s", folder->path, name);
      if ((size_t)written >= sizeof path) continue;
      if (folder->system) {
        if (access(path, F_OK) == 0) return 1;
        continue;
      }
      if (!take(path, &here)) return 0;
      found |= here;
    }
    if (found) return 1;
  }
  return 1;
}

// Whether `name` was searched for before; records it when not.
static int seen(const char *name, int *full) {
  *full = 0;
  for (int index = 0; index < name_count; index++) {
    if (strcmp(names[index], name) == 0) return 1;
  }
  if (name_count == MAX_NAMES) {
    *full = 1;
    return 1;
  }
  snprintf(names[name_count++], sizeof names[0], "%s", name);
  return 0;
}

// What is wrong with a file the dynamic reader refused, continuing
// "cannot be vetted: ".
static const char *elf_problem_words(plugboard_elf_problem problem) {
  switch (problem) {
  case PLUGBOARD_ELF_SOUND: break;
  case PLUGBOARD_ELF_NOT_ELF: return "it is not a 64-bit little-endian ELF file for x86-64 or AArch64";
  case PLUGBOARD_ELF_NOT_LOADABLE: return "it is neither a program nor a shared library";
  case PLUGBOARD_ELF_TOO_MANY_PROGRAM_HEADERS: return "it has more program headers than any program needs";
  case PLUGBOARD_ELF_PROGRAM_HEADERS_MALFORMED: return "its program headers are malformed";
  case PLUGBOARD_ELF_PROGRAM_HEADERS_OUTSIDE: return "its program headers lie outside it";
  case PLUGBOARD_ELF_SEVERAL_DYNAMIC_SECTIONS: return "it has more than one dynamic section";
  case PLUGBOARD_ELF_DYNAMIC_NOT_MAPPED: return "its dynamic section is not where it is loaded";
  case PLUGBOARD_ELF_DYNAMIC_TOO_LARGE: return "its dynamic section is larger than any program's";
  case PLUGBOARD_ELF_DYNAMIC_OUTSIDE: return "its dynamic section lies outside it";
  case PLUGBOARD_ELF_TOO_MANY_NEEDED: return "it needs more libraries than any program does";
  case PLUGBOARD_ELF_STRINGS_OUTSIDE: return "its string table lies outside its loaded segments";
  case PLUGBOARD_ELF_STRINGS_UNREADABLE: return "its string table cannot be read";
  case PLUGBOARD_ELF_NAME_OUTSIDE: return "a name lies outside its string table";
  case PLUGBOARD_ELF_NAME_TOO_LONG: return "a name in it is too long";
  case PLUGBOARD_ELF_NAME_UNTERMINATED: return "a name runs past its string table";
  }
  return "it cannot be read";
}

// Reads the object at `index`, judges its run path and queues what it needs.
static int walk(int index, const trust_subject *host) {
  static plugboard_elf_dynamic dynamic;
  object *current = &objects[index];
  trust_subject subject = subject_of(index, host);
  plugboard_elf_problem problem = plugboard_elf_dynamic_read(current->fd, current->size, &dynamic);
  close(current->fd);
  if (problem != PLUGBOARD_ELF_SOUND) {
    trust_put_subject(&subject);
    put(" cannot be vetted: ");
    put(elf_problem_words(problem));
    put(" — ");
    put(index == 0 ? "build it again, or install both (Scripts/install-host)" : reinstall);
    put("\n");
    return 0;
  }
  char origin[PATH_MAX];
  folder_of(current->found, origin, sizeof origin);
  const search_folder *folders[MAX_RUN_PATH_ENTRIES];
  int count = 0;
  for (char *entry = dynamic.has_search_path ? dynamic.search_path : NULL, *end; entry != NULL;
       entry = end != NULL ? end + 1 : NULL) {
    end = strchr(entry, ':');
    if (end != NULL) *end = '\0';
    char folder[PATH_MAX];
    if (count == MAX_RUN_PATH_ENTRIES) {
      return refuse(&subject, " has more run path entries than plugboard vets — rebuild it with fewer", NULL, "");
    }
    if (*entry == '\0') {
      return refuse(&subject,
                    " has an empty run path entry, which the dynamic loader takes as the current directory: whoever "
                    "controls the folder plugboard is started in chooses the libraries plugboard-host loads — "
                    "rebuild it without that entry",
                    NULL, "");
    }
    if (!expand(entry, origin, folder, sizeof folder)) {
      return refuse(&subject, " has the run path entry \"", entry,
                    "\", which names a token other than $ORIGIN that plugboard cannot follow to vet the libraries "
                    "found there — rebuild it without that entry");
    }
    if (folder[0] != '/') {
      return refuse(&subject, " has the run path entry \"", entry,
                    "\", a relative entry, which the dynamic loader takes from the current directory: whoever "
                    "controls the folder plugboard is started in chooses the libraries plugboard-host loads — "
                    "rebuild it without that entry");
    }
    if ((folders[count++] = search_folder_vetted(folder)) == NULL) return 0;
  }
  for (int need = 0; need < dynamic.needed_count; need++) {
    const char *name = dynamic.needed[need];
    if (strchr(name, '/') != NULL) {
      return refuse(&subject, " needs the library \"", name,
                    "\" by its path, which the dynamic loader opens wherever it leads, outside every check — "
                    "rebuild it to need that library by its name");
    }
    int full;
    if (seen(name, &full)) {
      if (!full) continue;
      return refuse(&subject, " needs more libraries than plugboard vets — ", NULL, reinstall);
    }
    if (!search(name, folders, count)) return 0;
  }
  return 1;
}

int host_libraries_vetted(int fd, off_t size, const trust_subject *subject) {
  object_count = 1;
  name_count = 0;
  objects[0].fd = fd;
  objects[0].size = size;
  snprintf(objects[0].path, sizeof objects[0].path, "%s", subject->path);
  snprintf(objects[0].found, sizeof objects[0].found, "%s", subject->path);
  for (int index = 0; index < object_count; index++) {
    if (!walk(index, subject)) {
      for (int rest = index + 1; rest < object_count; rest++) close(objects[rest].fd);
      return 0;
    }
  }
  return 1;
}
