#ifndef PLUGBOARD_RUNTIME_DESCRIPTORS_H
#define PLUGBOARD_RUNTIME_DESCRIPTORS_H

/// The descriptors of the runtime's event loop (libdispatch's epoll,
/// eventfd and timerfds), kept so that they can be put back when plugin
/// code closes or replaces them.
///
/// Plugin code may close every descriptor from 3 up (a daemon's habit, in a
/// library initialiser) and open files that take the numbers. plugboard's
/// own descriptors sit high, out of the way; the runtime's were opened at
/// the lowest free numbers. Once they are closed, no Dispatch timer or
/// source fires again (a time limit never comes, SIGTERM goes unhandled);
/// and a use of one while it is another file (`epoll_wait`, `epoll_ctl`,
/// `timerfd_settime`) ends the process with SIGILL.

/// One kept descriptor: `fd` as the runtime uses it, `copy` a close-on-exec
/// duplicate at a high number, `cloexec` its close-on-exec flag.
typedef struct {
  int fd;
  int copy;
  int cloexec;
  unsigned long long device;
  unsigned long long inode;
} plugboard_kept_descriptor;

/// Keeps up to `capacity` of the open descriptors below plugboard's high
/// ones that refer to anonymous inodes (`anon_inode:[eventpoll]`,
/// `[eventfd]`, `[timerfd]`, `[signalfd]`): the runtime's, never a file
/// plugboard or a plugin opened by path. Returns how many were kept.
int plugboard_keep_runtime_descriptors(plugboard_kept_descriptor *kept, int capacity);

/// Whether `kept->fd` still refers to what it was kept as (its inode: one
/// `fstat`); if not (plugin code closed it, or a file took its number),
/// puts it back from the copy.
/// 0 when intact, 1 when put back, -1 when it could not be (errno set).
int plugboard_restore_runtime_descriptor(const plugboard_kept_descriptor *kept);

/// What `fd` refers to, as /proc/self/fd shows it, into `buffer`.
/// 0, or -1 when it cannot be read.
int plugboard_descriptor_target(int fd, char *buffer, int size);

#endif
