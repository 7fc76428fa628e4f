#ifndef PLUGBOARD_STDIO_H
#define PLUGBOARD_STDIO_H

/// C stdio's standard output, which Swift 6 cannot name (`stdout` is a
/// mutable global): plugboard's reports share its buffer with what the
/// application prints, so the two stay in order.

/// fputs(text, stdout); EOF on an error.
int plugboard_stdout_puts(const char *text);

/// fflush(stdout); 0, or the errno of the first write that failed.
int plugboard_stdout_flush(void);

/// Whether a write to stdout has failed since the process started.
int plugboard_stdout_failed(void);

#endif
