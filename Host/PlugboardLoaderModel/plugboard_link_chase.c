#define _GNU_SOURCE
#include "plugboard_link_chase.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int trusted(uid_t uid, uid_t owner) { return uid == 0 || uid == owner; }

static int writable_by_others(mode_t mode) { return (mode & (S_IWGRP | S_IWOTH)) != 0; }

// Cuts `path` to its folder, in place: "/" for "/x".
static void cut_to_folder(char *path) {
  char *slash = strrchr(path, '/');
  if (slash == NULL) return;
  if (slash == path) slash[1] = '\0';
  else *slash = '\0';
}

// Judges `folder` (the link's own when `own`, sticky or not) and, when
// `own`, every folder above it (root's sticky ones allowed). 1 when all
// pass; 0 with the verdict filled.
static int judge_folders(const char *start, uid_t owner, int own, plugboard_link_verdict *verdict) {
  char folder[PATH_MAX];
  snprintf(folder, sizeof folder, "%s", start);
  for (int level = 0;; level++) {
    struct stat status;
    if (stat(folder, &status) != 0) {
      verdict->rule = PLUGBOARD_LINK_NOT_FOLLOWED;
      verdict->error = errno;
      return 0;
    }
    int sticky_allowed = !(own && level == 0) && (status.st_mode & S_ISVTX) != 0 && status.st_uid == 0;
    plugboard_link_rule rule = !trusted(status.st_uid, owner) ? PLUGBOARD_LINK_FOLDER_OWNER
                               : writable_by_others(status.st_mode) && !sticky_allowed
                                   ? PLUGBOARD_LINK_FOLDER_WRITABLE
                                   : PLUGBOARD_LINK_CHASED;
    if (rule != PLUGBOARD_LINK_CHASED) {
      verdict->rule = rule;
      verdict->above = level > 0;
      verdict->status = status;
      snprintf(verdict->folder, sizeof verdict->folder, "%s", folder);
      return 0;
    }
    if (strcmp(folder, "/") == 0) return 1;
    cut_to_folder(folder);
  }
}

plugboard_link_rule plugboard_link_chase(const char *path, uid_t owner, plugboard_link_verdict *verdict) {
  memset(verdict, 0, sizeof *verdict);
  // What is still to walk, and the folder reached so far.
  char rest[2 * PATH_MAX];
  char reached[PATH_MAX] = "/";
  if (path[0] != '/' || (size_t)snprintf(rest, sizeof rest, "%s", path) >= sizeof rest) {
    verdict->rule = PLUGBOARD_LINK_NOT_FOLLOWED;
    verdict->error = path[0] != '/' ? EINVAL : ENAMETOOLONG;
    return verdict->rule;
  }
  size_t position = 0;
  int followed = 0;
  for (;;) {
    while (rest[position] == '/') position++;
    if (rest[position] == '\0') break;
    const char *component = rest + position;
    size_t length = strcspn(component, "/");
    position += length;
    if (length == 1 && component[0] == '.') continue;
    if (length == 2 && component[0] == '.' && component[1] == '.') {
      cut_to_folder(reached);
      continue;
    }
    char next[PATH_MAX];
    size_t reached_length = strlen(reached);
    if (reached_length + 1 + length >= sizeof next) {
      verdict->rule = PLUGBOARD_LINK_NOT_FOLLOWED;
      verdict->error = ENAMETOOLONG;
      return verdict->rule;
    }
    snprintf(next, sizeof next, "%s%s%.*s", reached, strcmp(reached, "/") == 0 ? "" : "/", (int)length,
             component);
    struct stat status;
    if (lstat(next, &status) != 0) {
      verdict->rule = PLUGBOARD_LINK_NOT_FOLLOWED;
      verdict->error = errno;
      return verdict->rule;
    }
    if (!S_ISLNK(status.st_mode)) {
      memcpy(reached, next, strlen(next) + 1);
      continue;
    }
    char target[PATH_MAX];
    ssize_t target_length = ++followed <= PLUGBOARD_LINK_CHASE_MAXIMUM_LINKS
                                ? readlink(next, target, sizeof target - 1)
                                : (errno = ELOOP, -1);
    if (target_length <= 0) {
      verdict->rule = PLUGBOARD_LINK_NOT_FOLLOWED;
      verdict->error = target_length == 0 ? ENOENT : errno;
      return verdict->rule;
    }
    target[target_length] = '\0';
    snprintf(verdict->link, sizeof verdict->link, "%s", next);
    if (!trusted(status.st_uid, owner)) {
      verdict->rule = PLUGBOARD_LINK_OWNER;
      verdict->status = status;
      return verdict->rule;
    }
    if (!judge_folders(reached, owner, 1, verdict)) return verdict->rule;
    // The target, then what was left after the link.
    char joined[2 * PATH_MAX];
    if ((size_t)snprintf(joined, sizeof joined, "%s/%s", target, rest + position) >= sizeof joined) {
      verdict->rule = PLUGBOARD_LINK_NOT_FOLLOWED;
      verdict->error = ENAMETOOLONG;
      return verdict->rule;
    }
    memcpy(rest, joined, strlen(joined) + 1);
    position = 0;
    if (target[0] == '/') snprintf(reached, sizeof reached, "/");
  }
  verdict->link[0] = '\0';
  snprintf(verdict->resolved, sizeof verdict->resolved, "%s", reached);
  verdict->rule = PLUGBOARD_LINK_CHASED;
  return verdict->rule;
}
