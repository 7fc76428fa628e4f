#include "trust.h"

#include "plugboard_link_chase.h"
#include "refusal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

static uid_t trusted_owner;

void trust_set_owner(uid_t owner) { trusted_owner = owner; }

static int trusted(uid_t uid) { return uid == 0 || uid == trusted_owner; }

void trust_put_subject(const trust_subject *subject) {
  put("plugboard: ");
  put_escaped(subject->path);
  put(subject->role);
  if (subject->other != NULL) put_escaped(subject->other);
  put(subject->after);
}

// "<subject> is owned by neither …" or "<subject> is writable by …", for
// the file or folder of `status` at `subject->path` itself. `owner_stake`
// and `writer_stake` say what its owner, or whoever can write it, can do.
static int judge(const trust_subject *subject, const struct stat *status, const char *owner_stake,
                 const char *owner_fix, const char *writer_stake, int sticky_allowed) {
  const char *problem = writers(status->st_mode);
  if (!trusted(status->st_uid)) {
    char owner[48];
    snprintf(owner, sizeof owner, "(uid %u)", (unsigned)trusted_owner);
    trust_put_subject(subject);
    put(" is owned by neither root nor the owner of plugboard ");
    put(owner);
    put_mode(status);
    put("; its owner ");
    put(owner_stake);
    put(" — chown root ");
    put_escaped(subject->path);
    put(owner_fix);
    put("\n");
    return 0;
  }
  if (problem != NULL && !(sticky_allowed && (status->st_mode & S_ISVTX) != 0)) {
    trust_put_subject(subject);
    put(" is writable by ");
    put(problem);
    put_mode(status);
    put("; anyone who can write ");
    put(writer_stake);
    put(" — chmod go-w ");
    put_escaped(subject->path);
    put("\n");
    return 0;
  }
  return 1;
}

int trust_file(const trust_subject *subject, const struct stat *status, const char *reinstall,
               const char *owner_fix) {
  if (!S_ISREG(status->st_mode)) {
    trust_put_subject(subject);
    put(" is not a regular file — ");
    put(reinstall);
    put("\n");
    return 0;
  }
  return judge(subject, status, "could run code as whoever runs plugboard", owner_fix,
               "it can run code as whoever runs plugboard", 0);
}

int trust_searched_folder(const trust_subject *subject, const struct stat *status) {
  return judge(subject, status, "can add a library plugboard-host loads", "",
               "there can add a library plugboard-host loads, sticky bit or not", 0);
}

void folder_of(const char *path, char *folder, size_t size) {
  snprintf(folder, size, "%s", path);
  char *slash = strrchr(folder, '/');
  if (slash == folder) slash[1] = '\0';
  else if (slash != NULL) *slash = '\0';
}

int trust_folders(const trust_subject *subject, const char *start) {
  char folder[PATH_MAX];
  if ((size_t)snprintf(folder, sizeof folder, "%s", start) >= sizeof folder) {
    put_error("cannot inspect", start, ENAMETOOLONG, "");
    return 0;
  }
  for (int level = 0;; level++) {
    struct stat status;
    if (stat(folder, &status) != 0) {
      put_error("cannot inspect", folder, errno, "");
      return 0;
    }
    const char *problem = writers(status.st_mode);
    if (!trusted(status.st_uid) || (problem != NULL && (status.st_mode & S_ISVTX) == 0)) {
      trust_put_subject(subject);
      put(level == 0 ? " lies in the folder " : " lies under the folder ");
      put_escaped(folder);
      if (trusted(status.st_uid)) {
        put(", which is writable by ");
        put(problem);
      } else {
        put(", which is owned by neither root nor the owner of plugboard");
      }
      put_mode(&status);
      put("; anyone who can write there can replace it — ");
      put(trusted(status.st_uid) ? "chmod go-w " : "chown root ");
      put_escaped(folder);
      put("\n");
      return 0;
    }
    if (strcmp(folder, "/") == 0 || strchr(folder, '/') == NULL) return 1;
    char above[PATH_MAX];
    folder_of(folder, above, sizeof above);
    memcpy(folder, above, sizeof folder);
  }
}

int trust_links(const trust_subject *subject, const char *path, const char *thing, char resolved[PATH_MAX]) {
  plugboard_link_verdict verdict;
  switch (plugboard_link_chase(path, trusted_owner, &verdict)) {
  case PLUGBOARD_LINK_CHASED:
    snprintf(resolved, PATH_MAX, "%s", verdict.resolved);
    return 1;
  case PLUGBOARD_LINK_NOT_FOLLOWED:
    snprintf(resolved, PATH_MAX, "%s", path);
    return 1;
  default:
    break;
  }
  trust_put_subject(subject);
  put(" is reached through the link ");
  put_escaped(verdict.link);
  put(", which ");
  char owner[48];
  snprintf(owner, sizeof owner, "(uid %u)", (unsigned)trusted_owner);
  if (verdict.rule == PLUGBOARD_LINK_OWNER) {
    char uid[32];
    snprintf(uid, sizeof uid, "%u", (unsigned)verdict.status.st_uid);
    put("is owned by uid ");
    put(uid);
    put(", neither root nor the owner of plugboard ");
    put(owner);
    put("; its owner can point it at another file and run code as whoever runs plugboard — chown -h root ");
    put_escaped(verdict.link);
    put("\n");
    return 0;
  }
  put(verdict.above ? "lies under the folder " : "lies in the folder ");
  put_escaped(verdict.folder);
  if (verdict.rule == PLUGBOARD_LINK_FOLDER_OWNER) {
    put(", which is owned by neither root nor the owner of plugboard ");
    put(owner);
  } else {
    put(", which is writable by ");
    put(writers(verdict.status.st_mode));
  }
  put_mode(&verdict.status);
  put("; anyone who can write there can replace the link, and so ");
  put(thing);
  put(verdict.rule == PLUGBOARD_LINK_FOLDER_OWNER ? " — chown root " : " — chmod go-w ");
  put_escaped(verdict.folder);
  put("\n");
  return 0;
}
