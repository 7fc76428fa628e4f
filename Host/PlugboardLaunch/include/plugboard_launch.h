#ifndef PLUGBOARD_LAUNCH_H
#define PLUGBOARD_LAUNCH_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

/// How `plugboard`, the launcher, hands a supervised command to the host.
///
/// The host (`plugboard-host`) maps Swift, Foundation and the SDK before
/// its `main` runs. Forked from there, the supervised child faulted in again
/// every page of code and data the parent had mapped (Linux copies the page
/// tables of file mappings only when it must), which cost more than the
/// rest of supervision together. The launcher maps nothing but itself: it
/// forks first, and both processes then `exec` the host. The child runs the
/// command as any supervised child does; the parent follows it, as the
/// supervisor it has always been (its pid is the one a service manager
/// started).
///
/// What the two need from before the fork comes with them: the shared
/// stage record (a memfd) and the progress pipe, at the two descriptors
/// right after those of socket activation, and a variable naming the role,
/// the other process and the two descriptors. The host takes the variable
/// out of its environment first thing (`plugboard_launch_take`), before
/// plugin code could read it.

/// The environment variable: `parent <child pid> <record fd> <progress fd>`
/// or `child <parent pid> <record fd> <progress fd>`.
#define PLUGBOARD_LAUNCH_VARIABLE "PLUGBOARD_LAUNCHED"

/// The size of the shared stage record: one page, more than
/// `plugboard_stage_record` needs (checked where it is defined).
#define PLUGBOARD_STAGE_RECORD_BYTES 4096

/// The role a launched host plays.
typedef enum {
  /// Not launched (started directly, or the variable did not check out).
  PLUGBOARD_LAUNCHED_NONE = 0,
  /// The supervising parent of `peer`.
  PLUGBOARD_LAUNCHED_PARENT = 1,
  /// The supervised child of `peer`.
  PLUGBOARD_LAUNCHED_CHILD = 2,
} plugboard_launch_role;

/// What the launcher handed over.
typedef struct {
  plugboard_launch_role role;
  /// The other process: the child of a parent, the parent of a child.
  pid_t peer;
  /// The shared stage record (a memfd of `PLUGBOARD_STAGE_RECORD_BYTES`).
  int record;
  /// The progress pipe: its read end in the parent, its write end in the child.
  int progress;
} plugboard_launch;

/// The real-time signal the supervising parent forwards signals with: it is
/// queued, so a forwarded copy is never merged with the same signal sent to
/// the child directly (and lost), as a second SIGTERM would be.
#define PLUGBOARD_FORWARD_SIGNAL (SIGRTMAX - 1)

/// The `index`th of the commands that bring a deployment up and so run
/// supervised ("run", "list", "check", "explain", "graph"), or NULL past
/// the last. The one list: the launcher forks before starting the host
/// for them, and the host (`Supervisor.supervisedCommands`) forks by
/// itself when it was started otherwise.
const char *plugboard_supervised_command(int index);

/// The signals the supervising parent passes on to its child: SIGINT,
/// SIGTERM, SIGHUP and SIGQUIT.
#define PLUGBOARD_FORWARDED_SIGNAL_COUNT 4
extern const int plugboard_forwarded_signals[PLUGBOARD_FORWARDED_SIGNAL_COUNT];

/// Blocks SIGINT, SIGTERM, SIGHUP and SIGQUIT (and
/// ``PLUGBOARD_FORWARD_SIGNAL``) in the calling thread, from just before
/// the fork until the parent forwards them: one sent to the parent in
/// between waits (across `exec` too), instead of ending the parent while
/// the child runs on. The child unblocks the forwarding signal once its
/// handler is in place.
void plugboard_block_forwarded_signals(void);

/// Unblocks SIGINT, SIGTERM, SIGHUP and SIGQUIT in the calling thread. A
/// process started from a thread that blocks them (a Dispatch worker's
/// `posix_spawn`) inherits the mask; a supervisor that promises to pass
/// them on must be able to receive them, and the child to act on them.
void plugboard_unblock_forwarded_signals(void);

/// In a child forked from `parent`: descriptors passed by socket
/// activation are the child's to use now, so `LISTEN_PID` is made to name
/// it (what `sd_listen_fds` checks). Nothing changes when `LISTEN_PID`
/// does not name `parent`. The parent's copies, and its `LISTEN_PID`,
/// stay as they are: every child it starts (the launcher's, one started
/// again after a plugin was set aside) is handed the same sockets, and
/// connections made while none accepts wait in their backlog.
void plugboard_hand_over_listen_fds(pid_t parent);

/// The number of descriptors socket activation passed to this process: 0
/// unless `LISTEN_PID` is `pid` and `LISTEN_FDS` a plain count (at most 4096).
int plugboard_listen_fds_for(pid_t pid);

/// A new shared stage record: a memfd of `PLUGBOARD_STAGE_RECORD_BYTES`
/// zero bytes, close-on-exec. -1 with `errno` set when it cannot be made.
int plugboard_launch_record_file(void);

/// `launch` as the variable's value, into `buffer`; the length written, or
/// -1 when `buffer` is too small (64 bytes always suffice).
int plugboard_launch_describe(plugboard_launch launch, char *buffer, size_t size);

/// Reads `PLUGBOARD_LAUNCH_VARIABLE` and removes it from the environment.
/// Returns the launch it describes, with role `PLUGBOARD_LAUNCHED_NONE`
/// unless every part checks out: the descriptors are the two right after
/// socket activation's, the record is a file of the record's size, the
/// progress descriptor a pipe, and `peer` this process's child (parent) or
/// parent (child). `*present` is set when the variable was there at all, so
/// the caller can warn about one that did not check out. Call it first
/// thing in `main`, while the process has one thread (it changes the
/// environment).
plugboard_launch plugboard_launch_take(int *present);

#endif
