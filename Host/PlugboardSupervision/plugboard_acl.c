#include "plugboard_acl.h"

#include <errno.h>
#include <sys/xattr.h>

static const char name[] = "system.posix_acl_access";

// ENODATA: no ACL beyond the mode; ENOTSUP: a file system without ACLs.
static long none_when_absent(long length) {
  return length < 0 && (errno == ENODATA || errno == ENOTSUP) ? 0 : length;
}

long plugboard_acl_read(const char *path, void *buffer, unsigned long size) {
  return none_when_absent(lgetxattr(path, name, buffer, size));
}

long plugboard_acl_read_fd(int fd, void *buffer, unsigned long size) {
  return none_when_absent(fgetxattr(fd, name, buffer, size));
}

int plugboard_acl_write_fd(int fd, const void *bytes, unsigned long size) {
  return fsetxattr(fd, name, bytes, size, 0);
}
