#include "plugboard_stdio.h"

#include <errno.h>
#include <stdio.h>

// The errno of the first failed write, kept because stdio only keeps a flag.
static int first_error = 0;
// Where plugboard's reports go: stdout, or a stream on plugboard's own
// descriptor of standard output (see plugboard_stdout_use_descriptor).
static FILE *report = NULL;

static FILE *out(void) { return report != NULL ? report : stdout; }

int plugboard_stdout_use_descriptor(int fd) {
  fflush(stdout);
  FILE *stream = fdopen(fd, "w");
  if (stream == NULL) return -1;
  report = stream;
  return 0;
}

static void remember(int error) {
  if (first_error == 0) first_error = error != 0 ? error : EIO;
}

int plugboard_stdout_puts(const char *text) {
  int result = fputs(text, out());
  if (result == EOF) remember(errno);
  return result;
}

int plugboard_stdout_flush(void) {
  if (fflush(out()) != 0) remember(errno);
  if (report != NULL) fflush(stdout);
  return first_error;
}

int plugboard_stdout_failed(void) { return ferror(out()) != 0 || first_error != 0; }
