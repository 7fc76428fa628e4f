#include "plugboard_stdio.h"

#include <errno.h>
#include <stdio.h>

// The errno of the first failed write, kept because stdio only keeps a flag.
static int first_error = 0;

static void remember(int error) {
  if (first_error == 0) first_error = error != 0 ? error : EIO;
}

int plugboard_stdout_puts(const char *text) {
  int result = fputs(text, stdout);
  if (result == EOF) remember(errno);
  return result;
}

int plugboard_stdout_flush(void) {
  if (fflush(stdout) != 0) remember(errno);
  return first_error;
}

int plugboard_stdout_failed(void) { return ferror(stdout) != 0 || first_error != 0; }
