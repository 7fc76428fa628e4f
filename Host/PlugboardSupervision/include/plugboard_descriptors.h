#ifndef PLUGBOARD_DESCRIPTORS_H
#define PLUGBOARD_DESCRIPTORS_H

#include <sys/types.h>

/// Descriptors of plugboard's own in a process that runs plugin code:
/// kept at high numbers, recognised by the file they refer to, and taken
/// back from the supervising parent when plugin code closed or replaced
/// them.

/// A file's identity, to know a descriptor still refers to it.
typedef struct {
  unsigned long long device;
  unsigned long long inode;
} plugboard_file_identity;

/// `fd` moved to a high number (32 below the soft limit on descriptors),
/// close-on-exec, out of the way of the low numbers plugin code takes; `fd`
/// itself when it cannot be moved.
int plugboard_move_high(int fd);

/// The lowest number `plugboard_move_high` moves a descriptor to.
int plugboard_move_high_floor(void);

/// Grows the process's descriptor table to hold the numbers
/// `plugboard_move_high` uses, now. Call it while the process has one
/// thread: Linux grows the table of a process with several threads only
/// after an RCU grace period, and `run --unsupervised` waited 6 to 16 ms
/// for one when it first moved a descriptor high from a worker thread.
void plugboard_reserve_high_descriptors(void);

/// The identity of what `fd` refers to; -1 when it is not open.
int plugboard_identity(int fd, plugboard_file_identity *identity);

/// Whether `fd` still refers to `identity`: plugin code may have closed
/// it, and a file it opened may have taken the number.
int plugboard_is_same_file(int fd, plugboard_file_identity identity);

/// Opens descriptor `fd` of process `pid` anew, through /proc, for
/// writing and close-on-exec, if it still refers to `identity`: the
/// supervising parent's standard output or error, which no plugin code
/// touches, for a child whose own copy plugin code closed or replaced.
/// -1 when it cannot (another user's process, a socket, another file).
int plugboard_open_from_process(pid_t pid, int fd, plugboard_file_identity identity);

/// In a process about to run plugin code, before any runs: keeps a copy of
/// descriptor 2 at a high number, close-on-exec, for plugboard's own
/// diagnostics (``plugboard_standard_error``), so that plugin code that
/// points descriptor 2 elsewhere (`dup2(open("/dev/null"), 2)`) does not
/// take them with it. `parent` is the supervising process, whose standard
/// error is the same file and out of plugin code's reach (0 for none).
/// Once: later calls do nothing. 0, or -1 when no copy could be made.
int plugboard_keep_standard_error(pid_t parent);

/// The descriptor plugboard's diagnostics go to: descriptor 2 until
/// ``plugboard_keep_standard_error``; then the kept copy while it still
/// refers to standard error. A copy that plugin code closed or replaced is
/// taken back from the supervising parent, at the same number (callers may
/// hold it); when that cannot be done, descriptor 2 is the last resort.
/// Thread-safe.
int plugboard_standard_error(void);

#endif
