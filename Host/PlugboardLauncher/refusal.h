// How the launcher says why it does not start the host: one line on
// standard error, naming the file, its mode and owner, and the fix.
#ifndef PLUGBOARD_REFUSAL_H
#define PLUGBOARD_REFUSAL_H

#include <sys/stat.h>

// `text` on standard error as it is.
void put(const char *text);

// `text` on standard error, each byte outside printable ASCII as \xHH: a
// path is the operator's, but a terminal must never receive control bytes.
void put_escaped(const char *text);

// "plugboard: <doing> <path>: <error><advice>", one line.
void put_error(const char *doing, const char *path, int error, const char *advice);

// " (mode 0775, owner uid 0)", as the host's own refusals say it.
void put_mode(const struct stat *status);

// "its group", "others" or "group and others": who, besides the owner,
// may write a file of `mode`; NULL for no one.
const char *writers(mode_t mode);

#endif
