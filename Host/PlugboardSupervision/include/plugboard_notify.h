#ifndef PLUGBOARD_NOTIFY_H
#define PLUGBOARD_NOTIFY_H

#include <stddef.h>

/// systemd's readiness protocol (sd_notify(3)) without libsystemd: one
/// datagram to the AF_UNIX socket `NOTIFY_SOCKET` names. Kept apart from
/// the supervisor's signal handling: it is called by the parent, in
/// ordinary code, never from a handler.

/// Sends `length` bytes of `message` to `address`: a file system path, or
/// an abstract socket when it begins with '@' (sd_notify's convention).
/// 0, or the errno of what failed (EINVAL for an address too long or not
/// of either form).
int plugboard_notify_send(const char *address, const char *message, size_t length);

#endif
