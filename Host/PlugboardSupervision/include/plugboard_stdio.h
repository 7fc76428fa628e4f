#ifndef PLUGBOARD_STDIO_H
#define PLUGBOARD_STDIO_H

/// C stdio's standard output, which Swift 6 cannot name (`stdout` is a
/// mutable global): plugboard's reports share its buffer with what the
/// application prints, so the two stay in order. For the reporting
/// commands, the reports can go through a descriptor of plugboard's own
/// instead, so that nothing plugin code prints gets into them.

/// fputs(text, stdout); EOF on an error.
int plugboard_stdout_puts(const char *text);

/// fflush(stdout); 0, or the errno of the first write that failed.
int plugboard_stdout_flush(void);

/// Whether a write to stdout has failed since the process started.
int plugboard_stdout_failed(void);

/// From now on, plugboard's reports (the three calls above) go to a stream
/// on `fd`, plugboard's own descriptor of standard output, while descriptor
/// 1 stays what plugin code may print to. 0, or -1 when no stream could be
/// made (the reports then stay on stdout).
int plugboard_stdout_use_descriptor(int fd);

#endif
