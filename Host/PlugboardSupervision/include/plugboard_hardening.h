#ifndef PLUGBOARD_HARDENING_H
#define PLUGBOARD_HARDENING_H

#include <sys/types.h>

// What plugboard does to its own process so that plugin code, and whoever
// else shares the machine, gets no more than it must: descriptors it
// inherited, and a process that holds secrets.

/// Closes every descriptor above 2 that plugboard inherited (sudo's
/// `closefrom`), keeping those systemd's socket activation passes
/// (`LISTEN_FDS` descriptors from 3, when `LISTEN_PID` names this process)
/// and the `also_kept` right after them (the launcher's, see
/// plugboard_launch.h).
/// Call it first thing in `main`, before plugboard or the runtime opens a
/// descriptor of its own. Returns the number of descriptors kept above 2,
/// or -1 with `errno` set when they could not be closed.
int plugboard_close_inherited_descriptors(int also_kept);

/// Makes this process non-dumpable (`PR_SET_DUMPABLE` 0): no core file,
/// and no other process of the same user may attach to it or read its
/// memory, environment or maps under /proc. For a process holding secrets.
/// 0, or -1 with `errno` set.
int plugboard_make_undumpable(void);

#endif
