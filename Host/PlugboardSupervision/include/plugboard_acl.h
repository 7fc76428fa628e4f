#ifndef PLUGBOARD_ACL_H
#define PLUGBOARD_ACL_H

/// A file's POSIX access ACL, as the kernel stores it (the extended
/// attribute `system.posix_acl_access`), which Swift's Glibc module does not
/// declare (`sys/xattr.h`). A file with named users or groups in its ACL
/// shows their write permission only as its group's bit (the ACL's mask),
/// so plugboard reads the ACL to say who can write, and keeps it when it
/// rewrites a file.

/// The ACL of the file at `path`, a final link not followed, into
/// `buffer`: its length, 0 when the file has none, -1 with errno set.
long plugboard_acl_read(const char *path, void *buffer, unsigned long size);

/// The same, of the file open as `fd`.
long plugboard_acl_read_fd(int fd, void *buffer, unsigned long size);

/// Gives the file open as `fd` the ACL `bytes`: 0, or -1 with errno set.
int plugboard_acl_write_fd(int fd, const void *bytes, unsigned long size);

#endif
