// The supervised child's crash reporter: the handlers of the crash signals,
// which write the crash on the progress pipe for the parent to report, and
// of the stop requests during bring-up, which note one plugin code sent
// itself. Everything a handler does here is async-signal-safe (write,
// kill, sigaction, alarm, raise, nanosleep, and the system calls of
// plugboard_crash_site.c), except the optional `describe` callback, which
// runs last, after the whole crash record is written, and is guarded by an
// alarm.
#define _GNU_SOURCE
#include "plugboard_crash_reporter.h"
#include "plugboard_crash_site.h"
#include "plugboard_descriptors.h"
#include "plugboard_signal_actions.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

// The Swift runtime keeps the message of the last fatal error here (on
// platforms without Apple's crash reporter), for crash reporters to read.
extern _Atomic(const char *) *swift_getFatalErrorMessageBuffer(void) __attribute__((weak));

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT};
#define CRASH_SIGNAL_COUNT (sizeof crash_signals / sizeof crash_signals[0])
static struct sigaction previous_actions[CRASH_SIGNAL_COUNT];
static int crash_fd = -1;
// What crash_fd was when installed: plugin code may close it, and a file it
// opens then may take its number.
static plugboard_file_identity crash_fd_identity;
static void (*crash_describe)(int fd);
// Which thread writes the crash record: the first to crash. Set once.
static atomic_int crashing = 0;
// Set when the record is written: a thread that crashed meanwhile waits
// for it, rather than end the process with the record half written.
static volatile sig_atomic_t crash_written = 0;
static int chain_previous = 0;

int plugboard_progress_is_intact(void) { return crash_fd >= 0 && plugboard_is_same_file(crash_fd, crash_fd_identity); }

static void write_all(int fd, const char *bytes, size_t count) {
  // Never into a file of plugin code's that took the progress pipe's number.
  if (fd == crash_fd && !plugboard_progress_is_intact()) return;
  while (count > 0) {
    ssize_t written = write(fd, bytes, count);
    if (written <= 0) return;
    bytes += written;
    count -= (size_t)written;
  }
}

void plugboard_write_progress(const char *bytes, size_t count) {
  if (crash_fd < 0 || !plugboard_progress_is_intact()) return;
  write_all(crash_fd, bytes, count);
}

// The message with tabs and newlines escaped, so it stays one field of one line.
static void write_escaped(int fd, const char *text, size_t limit) {
  char buffer[256];
  size_t used = 0;
  for (size_t index = 0; text[index] != '\0' && index < limit; index++) {
    char c = text[index];
    const char *escape = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\\' ? "\\\\" : NULL;
    size_t need = escape ? 2 : 1;
    if (used + need > sizeof buffer) {
      write_all(fd, buffer, used);
      used = 0;
    }
    if (escape) {
      buffer[used++] = escape[0];
      buffer[used++] = escape[1];
    } else {
      buffer[used++] = c;
    }
  }
  write_all(fd, buffer, used);
}

static void restore_previous(int signal) {
  for (size_t index = 0; index < CRASH_SIGNAL_COUNT; index++) {
    if (crash_signals[index] == signal) sigaction(signal, &previous_actions[index], NULL);
  }
}

// `<tag><signal><end>`, the start of a progress line (or the whole of one).
static void write_signal_tag(char tag, int signal, char end) {
  char line[8];
  size_t used = 0;
  line[used++] = tag;
  if (signal >= 10) line[used++] = (char)('0' + signal / 10 % 10);
  line[used++] = (char)('0' + signal % 10);
  line[used++] = end;
  write_all(crash_fd, line, used);
}

static void write_crash_line(const char *line, unsigned long length) { write_all(crash_fd, line, length); }

// What the application printed before the crash and stdio still holds
// (standard output is a file or a pipe), written straight from stdio's
// buffer: fflush would take stdio's lock, which the crashed code may hold.
// The pointers are read as they are; a thread that was filling the buffer
// at the crash may leave its last line cut.
static void write_standard_output_buffer(void) {
#ifdef __GLIBC__
  FILE *stream = stdout;
  if (stream == NULL) return;
  const char *start = stream->_IO_write_base;
  const char *end = stream->_IO_write_ptr;
  if (start == NULL || end == NULL || end <= start || end - start > (1 << 20)) return;
  int fd = stream->_fileno;
  if (fd < 0) return;
  write_all(fd, start, (size_t)(end - start));
  // Written: the default action's end writes nothing more, but a chained
  // handler (the Swift backtracer) might flush.
  stream->_IO_write_ptr = stream->_IO_write_base;
#endif
}

static void on_crash(int signal, siginfo_t *info, void *context) {
  int expected = 0;
  if (atomic_compare_exchange_strong(&crashing, &expected, 1)) {
    write_signal_tag('C', signal, '\t');
    if (swift_getFatalErrorMessageBuffer != NULL) {
      const char *message = atomic_load(swift_getFatalErrorMessageBuffer());
      if (message != NULL) write_escaped(crash_fd, message, 4096);
    }
    write_all(crash_fd, "\n", 1);
    // Where it happened: the faulting address and the frames, each with
    // its library, for the parent to blame the plugin by address.
    if (plugboard_progress_is_intact()) plugboard_crash_site_write(signal, info, context, write_crash_line);
    write_standard_output_buffer();
    // The resolution chain, from Swift values: written last, so that a
    // describer that allocates and finds the allocator's lock taken costs
    // only the chain (the alarm ends the wait), never the record above.
    if (crash_describe != NULL) {
      alarm(2);
      crash_describe(crash_fd);
      alarm(0);
    }
    crash_written = 1;
  } else {
    // Another thread is writing the record: up to three seconds for it to
    // finish before this fault ends the process.
    struct timespec pause = {0, 10 * 1000 * 1000};
    for (int round = 0; round < 300 && !crash_written; round++) nanosleep(&pause, NULL);
  }
  if (chain_previous) {
    restore_previous(signal);
  } else {
    plugboard_default_action(signal);
  }
  // A fault returns to the faulting instruction, which faults again and
  // meets the restored action; a signal sent by raise or abort must be sent
  // again.
  if (info == NULL || info->si_code <= 0) raise(signal);
}

// A stop request during bring-up ends the child, as the default action
// would; one the process sent itself (a plugin calling kill(getpid(), …) or
// raise) is first written down as `K<signal>`, so that the parent blames the
// plugin in its stage instead of taking it for the operator's request.
static void on_request(int signal, siginfo_t *info, void *context) {
  (void)context;
  if (info != NULL && info->si_code <= 0 && info->si_pid == getpid()) write_signal_tag('K', signal, '\n');
  // Blocked while this handler runs: delivered again, to the default
  // action, as it returns.
  plugboard_default_action(signal);
  raise(signal);
}

// Whether on_request is SIGINT's, SIGTERM's and SIGHUP's handler.
static volatile sig_atomic_t bringing_up = 0;

int plugboard_is_bringing_up(void) { return (int)bringing_up; }

static const int request_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define REQUEST_SIGNAL_COUNT (sizeof request_signals / sizeof request_signals[0])

void plugboard_release_request_signals(void) {
  bringing_up = 0;
  for (size_t index = 0; index < REQUEST_SIGNAL_COUNT; index++) plugboard_default_action(request_signals[index]);
}

void plugboard_install_crash_reporter(int fd, void (*describe)(int fd)) {
  // Before the handler can run: the maps file open and this thread's
  // alternate stack, so that a stack overflow still reaches the handler.
  plugboard_crash_site_prepare();
  crash_fd = fd;
  if (plugboard_identity(fd, &crash_fd_identity) != 0) crash_fd = -1;
  crash_describe = describe;
  // The Swift runtime's backtracer writes pages of registers and threads
  // for a crash the supervisor already reports in one line; keep it only
  // when the user asked for it.
  chain_previous = getenv("SWIFT_BACKTRACE") != NULL;
  for (size_t index = 0; index < CRASH_SIGNAL_COUNT; index++) {
    plugboard_install_handler(crash_signals[index], on_crash, SA_ONSTACK, &previous_actions[index]);
  }
  for (size_t index = 0; index < REQUEST_SIGNAL_COUNT; index++) {
    plugboard_install_handler(request_signals[index], on_request, SA_RESTART, NULL);
  }
  bringing_up = 1;
}
