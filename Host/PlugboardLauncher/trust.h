// Who can change a file or a folder, judged as the host judges a plugin
// (and as sudo and OpenSSH's StrictModes do): what brings code must be
// owned by root or by the owner of this launcher and writable by no one
// else, and so must every folder above it, since whoever can rename things
// in a folder can put another file in its place. Each function reports its
// refusal in one line and returns 0 then, 1 when all is well.
#ifndef PLUGBOARD_TRUST_H
#define PLUGBOARD_TRUST_H

#include <limits.h>
#include <sys/stat.h>
#include <sys/types.h>

// What a refusal is about, as it is shown: `path` (escaped), `role`, then
// `other` (escaped, when not NULL) and `after`. The host is its path alone;
// a library is "<path>, a library plugboard-host loads,".
typedef struct {
  const char *path;
  const char *role;
  const char *other;
  const char *after;
} trust_subject;

// "plugboard: <subject>", the start of a refusal about it.
void trust_put_subject(const trust_subject *subject);

// The owner besides root whose files are trusted: this launcher's.
void trust_set_owner(uid_t owner);

// The file of `status`: a regular file, owned by root or the owner,
// writable by no one else. `reinstall` is the fix for a file that is not
// regular ("install plugboard-host there (Scripts/install-host)");
// `owner_fix` follows "chown root <path>" (", or install both again …").
int trust_file(const trust_subject *subject, const struct stat *status, const char *reinstall,
               const char *owner_fix);

// `folder` and every folder above it up to `/`, which hold `subject`:
// each owned by root or the owner and writable by no one else, unless it
// is sticky (no one may then rename what they do not own).
int trust_folders(const trust_subject *subject, const char *folder);

// A folder the dynamic loader searches for the host's libraries, of
// `status`: as a folder above, but sticky or not, since adding a file
// there is enough to add a library the host loads.
int trust_searched_folder(const trust_subject *subject, const struct stat *status);

// Every link on the way to `path` (absolute), judged by the loader
// model's link chase (plugboard_link_chase.h): each must be owned by root
// or the owner, in folders only they can write; `thing` is what whoever
// re-points one would choose ("plugboard-host"). Where the path leads,
// every link resolved, goes to `resolved`. 1 when all pass or the path
// cannot be followed (opening it reports that, and `resolved` is `path`);
// 0 with the refusal reported.
int trust_links(const trust_subject *subject, const char *path, const char *thing, char resolved[PATH_MAX]);

// The folder `path` lies in, into `folder` (`size` bytes): "/" for "/x".
void folder_of(const char *path, char *folder, size_t size);

#endif
