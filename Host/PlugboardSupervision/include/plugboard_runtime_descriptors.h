#ifndef PLUGBOARD_RUNTIME_DESCRIPTORS_H
#define PLUGBOARD_RUNTIME_DESCRIPTORS_H

/// The descriptors of the runtime's event loop (libdispatch's epoll
/// instance and the eventfd and timerfds it watches), kept so that they can
/// be put back when plugin code closes or replaces them.
///
/// Plugin code may close every descriptor from 3 up (a daemon's habit, in a
/// library initialiser) and open files that take the numbers. plugboard's
/// own descriptors sit high, out of the way; the runtime's were opened at
/// the lowest free numbers. Once they are closed, no Dispatch timer or
/// source fires again (a time limit never comes, SIGTERM goes unhandled);
/// and an `epoll_wait` on the closed number ends the process with SIGILL.
///
/// The loop is told by what it is, not by where it sits: an epoll instance
/// and the eventfds and timerfds it watches, as `/proc/self/fdinfo` lists
/// them. Other anonymous files at low numbers are not the loop's and are
/// left alone: the eventfd of the main queue's handle, which `dispatch_main`
/// opens and closes again on the main thread while another thread already
/// runs the program, or a signal source's signalfd, which Dispatch closes
/// when the source is cancelled.

/// One kept descriptor: `fd` as the runtime uses it, `copy` a close-on-exec
/// duplicate at a high number, `cloexec` its close-on-exec flag.
typedef struct {
  int fd;
  int copy;
  int cloexec;
  unsigned long long device;
  unsigned long long inode;
} plugboard_kept_descriptor;

/// Whether the event loop sleeps: a thread of this process is blocked in
/// `epoll_wait` without a time limit on an epoll instance below
/// plugboard's high descriptors (as `/proc/self/task/*/syscall` shows).
/// Dispatch's manager thread sleeps there between rounds; while it is in a
/// round it uses the loop's descriptors, and a plugin initialiser that
/// closed them then would end the process.
int plugboard_event_loop_is_idle(void);

/// Keeps, up to `capacity`, the runtime's event loop below plugboard's high
/// descriptors: each epoll instance that watches an eventfd or a timerfd,
/// and the eventfds and timerfds it watches. Returns how many were kept.
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
