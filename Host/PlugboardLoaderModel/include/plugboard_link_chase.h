// A written path followed component by component, as the kernel follows
// it, judging every symbolic link met on the way and not only the last
// one (as systemd's chase() does with CHASE_SAFE): whoever can re-point
// any link of `shared/current/plugboard-host` chooses the file, though
// every folder of where it leads today is safe.
//
// A link must be owned by root or the trusted owner, and lie in a folder
// owned by one of them and writable by no one else, sticky or not (a
// sticky bit keeps a link only while it exists: removed, anyone can make
// it again); the folders above it are judged as a file's are (root's
// sticky folders allowed). The verdict is a value the caller words: the
// launcher in C, the engine in Swift.
#ifndef PLUGBOARD_LINK_CHASE_H
#define PLUGBOARD_LINK_CHASE_H

#include <limits.h>
#include <sys/stat.h>
#include <sys/types.h>

// As the kernel's limit on links followed in one path (ELOOP).
#define PLUGBOARD_LINK_CHASE_MAXIMUM_LINKS 40

typedef enum {
  // Every link on the way passes; `resolved` is where the path leads.
  PLUGBOARD_LINK_CHASED = 0,
  // The path cannot be followed (a missing component, a loop, a path too
  // long): `error` holds the errno. Opening it reports that.
  PLUGBOARD_LINK_NOT_FOLLOWED,
  // `link` is owned by `status.st_uid`, neither root nor the owner.
  PLUGBOARD_LINK_OWNER,
  // `folder`, which holds `link` (or lies above it when `above`), is
  // owned by `status.st_uid`, neither root nor the owner.
  PLUGBOARD_LINK_FOLDER_OWNER,
  // `folder` is writable by group or others (`status.st_mode`).
  PLUGBOARD_LINK_FOLDER_WRITABLE,
} plugboard_link_rule;

typedef struct {
  plugboard_link_rule rule;
  int error;
  // Whether `folder` lies above the link's own folder.
  int above;
  // The status of the link (PLUGBOARD_LINK_OWNER) or of `folder`.
  struct stat status;
  char link[PATH_MAX];
  char folder[PATH_MAX];
  // Where the path leads, every link resolved (PLUGBOARD_LINK_CHASED).
  char resolved[PATH_MAX];
} plugboard_link_verdict;

// Follows the absolute `path`, judging each link met against `owner`
// (besides root). Fills `verdict` and returns its rule.
plugboard_link_rule plugboard_link_chase(const char *path, uid_t owner, plugboard_link_verdict *verdict);

#endif
