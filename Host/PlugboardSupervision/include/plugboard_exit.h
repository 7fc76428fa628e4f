#ifndef PLUGBOARD_EXIT_H
#define PLUGBOARD_EXIT_H

/// How a supervised process exits: by the signal that stopped it, and
/// with word to its parent that the exit-time code (plugin code) begins.

/// In the supervised child: the application is running (its status is the
/// one exit announces).
void plugboard_note_application_running(void);

/// Makes ``plugboard_exit`` end the process by `signal` when it is given
/// 128 + `signal`: after an orderly stop, plugboard ends as the request
/// asked, and a shell, `timeout` or a service manager sees a death by that
/// signal, not an exit status.
void plugboard_end_by_signal_at_exit(int signal);

/// exit(3), except after ``plugboard_end_by_signal_at_exit`` with the
/// matching status: then stdio is flushed, the signal's default action
/// restored and the signal raised (exit(3) only if that did not end the
/// process). Before exit(3), stdio is flushed and, in a supervised child,
/// `E<status>` is written on the progress pipe (with a field `a` after
/// ``plugboard_note_application_running``): the exit-time code that
/// follows (library destructors, atexit handlers) is plugin code, which
/// the parent bounds.
void plugboard_exit(int status) __attribute__((noreturn));

#endif
