#ifndef PLUGBOARD_PROCESSES_H
#define PLUGBOARD_PROCESSES_H

#include <sys/types.h>

/// The supervisor's processes: forking the supervised child, and ending
/// and reaping what plugin code leaves behind. `fork` is unavailable in
/// Swift and `syscall` is variadic, so these are C.

/// fork(2). Called only while the process has a single thread. The child
/// asks for SIGKILL when the parent dies (`PR_SET_PDEATHSIG`), and ends at
/// once if the parent died before that took effect; it handles the
/// parent's forwarded signals (``plugboard_forward_signals``) from the
/// start.
pid_t plugboard_fork(void);

/// In a child the launcher forked from `parent`, which then started the
/// host (see plugboard_launch.h): what ``plugboard_fork`` does in its
/// child. The launcher asked for SIGKILL on the parent's death already;
/// exec keeps it.
void plugboard_adopt_as_child(pid_t parent);

/// Makes this process the subreaper of its descendants
/// (`PR_SET_CHILD_SUBREAPER`): what plugin code in a child starts, and the
/// child leaves behind, becomes this process's child, not init's. 0 on
/// success.
int plugboard_become_subreaper(void);

/// Kills (SIGKILL) and reaps every child of this process, and those that
/// come to it as their parents die, until it has none: for after the
/// supervised child was reaped, when what is left was started by plugin
/// code. Returns how many it reaped.
int plugboard_end_descendants(void);

/// ``plugboard_reap_strays`` with two supervised children, during a
/// reload: reaps the ended children that are neither.
void plugboard_reap_strays_except(pid_t first, pid_t second);

/// Reaps the children that ended, except `child` (left for its own
/// `waitpid`): processes plugin code left behind, which came to this
/// subreaper, must not stay zombies while the child runs.
void plugboard_reap_strays(pid_t child);

/// pidfd_open(2): a descriptor that polls readable when `pid` exits, or -1.
int plugboard_pidfd_open(pid_t pid);

/// pidfd_send_signal(2): sends `signal` to the process `pidfd` refers to,
/// which fails (ESRCH) once that process has exited, even if its pid now
/// names another. 0, or -1 with errno set (ENOSYS without the call).
int plugboard_pidfd_send_signal(int pidfd, int signal);

#endif
