// Malformed and mismatched "plugins" for the loader's failure tests. The
// tests compile this file once per variant with the toolchain's clang
// (`clang -shared -fPIC -D...`):
//
//   FIXTURE_NO_ENTRY     a library without any plugboard entry point
//   FIXTURE_UNRESOLVED   a library referencing a symbol nothing defines
//   FIXTURE_NULL_ENTRY   plugboard_entry_v1 returns NULL
//   FIXTURE_ABI2         exports plugboard_entry_v2 only
//   FIXTURE_DESCRIPTOR   plugboard_entry_v1 returns a descriptor carrying
//                        FIXTURE_NAME, FIXTURE_SWIFT and FIXTURE_KIT, whose
//                        make_bundle returns NULL
//   FIXTURE_CRASH        dies of SIGSEGV in a constructor, while loading
//   FIXTURE_HANG         never returns from a constructor
//   FIXTURE_EXIT         calls exit(0) in a constructor, while loading
//   FIXTURE_ENTRY_CRASH  plugboard_entry_v1 dies of SIGSEGV
//   FIXTURE_ENTRY_ABORT  plugboard_entry_v1 calls abort() (SIGABRT)
//   FIXTURE_ENTRY_HANG   plugboard_entry_v1 never returns
//   FIXTURE_DEAF_HANG    ignores every signal it can in a constructor,
//                        writes `deaf` to standard error and never returns
//   FIXTURE_SELF_TERM    sends its own process SIGTERM from a constructor
//                        and waits for it
//   FIXTURE_STRAY_CHILD  forks a process that sleeps 60 s, holding standard
//                        output, in a constructor; plugboard_entry_v1 then
//                        dies of SIGSEGV
//   FIXTURE_FORGE_TIMEOUT writes a stage-timeout event of an hour on every
//                        pipe it may write to (plugboard's progress pipe
//                        among them) in a constructor, then never returns
//   FIXTURE_CLOSE_FDS    closes descriptors 3–1023 in a constructor, opens
//                        12 files, and carries on; plugboard_entry_v1
//                        returns NULL. It does so while the runtime's event
//                        loop sleeps (see wait_while_dispatch_may_wake), as
//                        a short initialiser almost always does: a loop
//                        that wakes meanwhile ends the process, which
//                        FIXTURE_BREAK_EVENT_LOOP makes certain
//   FIXTURE_BREAK_EVENT_LOOP closes descriptors 3–63 (the runtime's event
//                        loop among them) in a constructor and waits, up
//                        to 5 s, for the loop to wake on them;
//                        plugboard_entry_v1 returns NULL
//   FIXTURE_CHATTY_THREAD starts a thread in a constructor that prints a
//                        line on standard output every millisecond;
//                        plugboard_entry_v1 returns NULL
//   FIXTURE_DTOR_HANG    never returns from a destructor (it runs in exit(),
//                        after the report); plugboard_entry_v1 returns NULL
//   FIXTURE_DTOR_CRASH   dies of SIGSEGV in a destructor;
//                        plugboard_entry_v1 returns NULL
//   FIXTURE_REPORT_FDS   writes `inherited: <target>` to standard error for
//                        each open descriptor whose target's path holds
//                        `plugboard-inherited`, and `listen pid: own` or
//                        `listen pid: other` when LISTEN_PID is set, from a
//                        constructor; also `stage record: <target>` for the
//                        launcher's record file, and `launch variable:
//                        <value>` when PLUGBOARD_LAUNCHED is set;
//                        plugboard_entry_v1 returns NULL
//   FIXTURE_BLAME_OWNER  leaves a function that crashes for another
//                        plugin's constructor to call (FIXTURE_BLAME_CALLER);
//   FIXTURE_BLAME_THREAD the same, through a thread its constructor starts;
//                        both: plugboard_entry_v1 returns NULL
//   FIXTURE_ENTRY_OVERFLOW plugboard_entry_v1 recurses without end
//   FIXTURE_SILENCE_STDERR points descriptor 2 at /dev/null in a
//                        constructor; plugboard_entry_v1 returns NULL
//   FIXTURE_OWN_SIGPIPE  restores SIGPIPE's default action in a constructor
//                        and writes to a pipe of its own whose read end it
//                        closed, which ends the process by SIGPIPE;
//                        plugboard_entry_v1 returns NULL
//
// And, with any of them:
//   FIXTURE_CONSTRUCTOR_CRASH  dies of SIGSEGV in a constructor (a library
//                        that must be refused before dlopen runs it)
//   FIXTURE_WRITABLE_CODE  adds a section that is writable and executable,
//                        which the linker puts in a W+X loadable segment
#include "plugboard_abi.h"
#include <pthread.h>
#include <stdio.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>
#include <dirent.h>
#include <string.h>
#include <time.h>

#if defined(FIXTURE_CONSTRUCTOR_CRASH)
__attribute__((constructor)) static void fixture_constructor_crash(void) { *(volatile int *)0 = 1; }
#endif

#if defined(FIXTURE_WRITABLE_CODE)
__asm__(".section .fixture_wx,\"awx\",@progbits\n.byte 0xc3\n.previous\n");
#endif

#if defined(FIXTURE_NO_ENTRY)
int fixture_answer(void) { return 42; }

#elif defined(FIXTURE_UNRESOLVED)
extern int plugboard_fixture_missing(void);
int fixture_calls_missing(void) { return plugboard_fixture_missing(); }
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_NULL_ENTRY)
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_ABI2)
static int descriptor_v2;
const void *plugboard_entry_v2(void) { return &descriptor_v2; }

#elif defined(FIXTURE_DESCRIPTOR)
static void *make_no_bundle(const plugboard_plugin_v1 *descriptor) {
  (void)descriptor;
  return NULL;
}

static const plugboard_plugin_v1 descriptor = {
  .abi_version = PLUGBOARD_ABI_VERSION,
  .struct_size = sizeof(plugboard_plugin_v1),
  .name = FIXTURE_NAME,
  .version = "0.0.1",
  .kit_version = FIXTURE_KIT,
  .swift_version = FIXTURE_SWIFT,
  .context = NULL,
  .make_bundle = make_no_bundle,
};

const plugboard_plugin_v1 *plugboard_entry_v1(void) { return &descriptor; }

#elif defined(FIXTURE_CRASH)
// A store through a null pointer: a fault no signal handler can defer.
__attribute__((constructor)) static void fixture_crash(void) { *(volatile int *)0 = 1; }
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_HANG)
__attribute__((constructor)) static void fixture_hang(void) {
  for (;;) pause();
}
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_EXIT)
// Ends the process with status 0 before the host has said anything.
__attribute__((constructor)) static void fixture_exit(void) { exit(0); }
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_ENTRY_CRASH)
const void *plugboard_entry_v1(void) {
  *(volatile int *)0 = 1;
  return NULL;
}

#elif defined(FIXTURE_REPORT_FDS)
__attribute__((constructor)) static void fixture_report_fds(void) {
  DIR *folder = opendir("/proc/self/fd");
  struct dirent *entry;
  while (folder != NULL && (entry = readdir(folder)) != NULL) {
    char link[64], target[512];
    snprintf(link, sizeof link, "/proc/self/fd/%s", entry->d_name);
    ssize_t length = readlink(link, target, sizeof target - 1);
    if (length <= 0) continue;
    target[length] = '\0';
    if (strstr(target, "plugboard-inherited") != NULL) fprintf(stderr, "inherited: %s\n", target);
    if (strstr(target, "plugboard-stages") != NULL) fprintf(stderr, "stage record: %s\n", target);
  }
  const char *launch = getenv("PLUGBOARD_LAUNCHED");
  if (launch != NULL) fprintf(stderr, "launch variable: %s\n", launch);
  if (folder != NULL) closedir(folder);
  const char *owner = getenv("LISTEN_PID");
  if (owner != NULL) fprintf(stderr, "listen pid: %s\n", atol(owner) == (long)getpid() ? "own" : "other");
}
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_ENTRY_ABORT)
const void *plugboard_entry_v1(void) { abort(); }

#elif defined(FIXTURE_ENTRY_HANG)
const void *plugboard_entry_v1(void) {
  for (;;) pause();
}

#elif defined(FIXTURE_DEAF_HANG)
__attribute__((constructor)) static void fixture_deaf_hang(void) {
  // Every signal it can, plugboard's forwarding signal among them.
  for (int number = 1; number < NSIG; number++) {
    if (number != SIGKILL && number != SIGSTOP) signal(number, SIG_IGN);
  }
  ssize_t written = write(2, "deaf\n", 5);
  (void)written;
  for (;;) pause();
}
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_SELF_TERM)
// The signal is the process's, and may be handled by another thread while
// this one goes on: it waits for it, so that it is handled in this stage.
__attribute__((constructor)) static void fixture_self_term(void) {
  kill(getpid(), SIGTERM);
  for (;;) pause();
}
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_STRAY_CHILD)
__attribute__((constructor)) static void fixture_stray_child(void) {
  if (fork() == 0) {
    sleep(60);
    _exit(0);
  }
}
const void *plugboard_entry_v1(void) {
  *(volatile int *)0 = 1;
  return NULL;
}

#elif defined(FIXTURE_FORGE_TIMEOUT)
__attribute__((constructor)) static void fixture_forge_timeout(void) {
  for (int fd = 3; fd < 1024; fd++) {
    struct stat status;
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || (flags & O_ACCMODE) != O_WRONLY || fstat(fd, &status) != 0 || !S_ISFIFO(status.st_mode)) {
      continue;
    }
    ssize_t written = write(fd, "T3600\n", 6);
    (void)written;
  }
  for (;;) pause();
}
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_CLOSE_FDS)
// The time left until the earliest timerfd below 64 fires, in
// nanoseconds, as its fdinfo says ("it_value: (0, 551176620)"); -1 when
// there is none. libdispatch's event loop wakes for its worker monitor,
// a timer of a second, and for nothing else while plugboard loads a plugin.
static long long next_timer_in(void) {
  long long earliest = -1;
  for (int fd = 3; fd < 64; fd++) {
    char path[64], target[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(path, target, sizeof target - 1);
    if (length < 0) continue;
    target[length] = '\0';
    if (strcmp(target, "anon_inode:[timerfd]") != 0) continue;
    snprintf(path, sizeof path, "/proc/self/fdinfo/%d", fd);
    FILE *info = fopen(path, "r");
    if (info == NULL) continue;
    char line[128];
    long long seconds, nanoseconds;
    while (fgets(line, sizeof line, info) != NULL) {
      if (sscanf(line, "it_value: (%lld, %lld)", &seconds, &nanoseconds) == 2) {
        long long left = seconds * 1000000000LL + nanoseconds;
        if (left > 0 && (earliest < 0 || left < earliest)) earliest = left;
      }
    }
    fclose(info);
  }
  return earliest;
}

// Waits until the event loop's next timer is at least half a second away,
// so that the loop sleeps through what this initialiser does to its
// descriptors (a hundredth of that, under load) and plugboard puts them
// back before it wakes. Bounded: after 3 s it goes on regardless.
static void wait_while_dispatch_may_wake(void) {
  for (int tries = 0; tries < 60; tries++) {
    long long left = next_timer_in();
    if (left < 0 || left >= 500000000LL) return;
    struct timespec pause = {0, (long)(left + 20000000LL)};
    nanosleep(&pause, NULL);
  }
}

__attribute__((constructor)) static void fixture_close_fds(void) {
  wait_while_dispatch_may_wake();
  for (int fd = 3; fd < 1024; fd++) close(fd);
  // Its log files take the lowest numbers, those plugboard's were at.
  for (int index = 0; index < 12; index++) {
    int fd = open("/dev/null", O_WRONLY);
    (void)fd;
  }
}
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_BREAK_EVENT_LOOP)
__attribute__((constructor)) static void fixture_break_event_loop(void) {
  for (int fd = 3; fd < 64; fd++) close(fd);
  // libdispatch's event loop wakes within a second, for its worker
  // monitor, and finds its epoll instance gone.
  for (int tries = 0; tries < 50; tries++) {
    struct timespec pause = {0, 100000000L};
    nanosleep(&pause, NULL);
  }
}
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_CHATTY_THREAD)
static void *chatter(void *argument) {
  (void)argument;
  for (;;) {
    printf("chatter\n");
    fflush(stdout);
    usleep(1000);
  }
  return NULL;
}
__attribute__((constructor)) static void fixture_chatty_thread(void) {
  pthread_t thread;
  pthread_create(&thread, NULL, chatter, NULL);
}
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_DTOR_HANG)
__attribute__((destructor)) static void fixture_dtor_hang(void) {
  for (;;) pause();
}
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_DTOR_CRASH)
__attribute__((destructor)) static void fixture_dtor_crash(void) { *(volatile int *)0 = 1; }
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_BLAME_OWNER) || defined(FIXTURE_BLAME_THREAD)
// Plugin code that crashes in another plugin's stage: the constructor
// leaves, in the environment, the address of a function another plugin's
// constructor calls (FIXTURE_BLAME_CALLER). FIXTURE_BLAME_OWNER's function
// crashes on the caller's thread; FIXTURE_BLAME_THREAD's wakes a thread
// the constructor started, which crashes.
#include <inttypes.h>
__attribute__((noinline)) void fixture_blamed_crash(void) { *(volatile int *)0 = 1; }
#if defined(FIXTURE_BLAME_THREAD)
static int wake[2];
static void *fixture_blamed_thread(void *argument) {
  (void)argument;
  char byte;
  while (read(wake[0], &byte, 1) != 1) {}
  fixture_blamed_crash();
  return NULL;
}
static void fixture_blame_trigger(void) {
  char byte = 1;
  (void)!write(wake[1], &byte, 1);
}
#endif
__attribute__((constructor)) static void fixture_blame_owner(void) {
  char text[32];
#if defined(FIXTURE_BLAME_THREAD)
  if (pipe(wake) != 0) return;
  pthread_t thread;
  pthread_create(&thread, NULL, fixture_blamed_thread, NULL);
  snprintf(text, sizeof text, "%" PRIxPTR, (uintptr_t)fixture_blame_trigger);
#else
  snprintf(text, sizeof text, "%" PRIxPTR, (uintptr_t)fixture_blamed_crash);
#endif
  setenv("PLUGBOARD_FIXTURE_BLAME", text, 1);
}
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_BLAME_CALLER)
// Calls the function another plugin left (see FIXTURE_BLAME_OWNER), then
// waits for the crash it causes: the crash comes while this plugin is
// being opened, in the other plugin's code. Without that plugin, nothing.
__attribute__((constructor)) static void fixture_blame_caller(void) {
  const char *text = getenv("PLUGBOARD_FIXTURE_BLAME");
  if (text == NULL) return;
  void (*function)(void) = (void (*)(void))(uintptr_t)strtoull(text, NULL, 16);
  function();
  for (;;) pause();
}
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_ENTRY_OVERFLOW)
// Unbounded recursion, each call with a frame the compiler cannot drop.
static volatile int fixture_bottom = -1;
__attribute__((noinline)) static int fixture_recurse(int depth) {
  if (depth == fixture_bottom) return 0;
  volatile char frame[256];
  frame[depth % 256] = (char)depth;
  return fixture_recurse(depth + 1) + frame[(depth + 1) % 256];
}
const void *plugboard_entry_v1(void) {
  fixture_recurse(0);
  return NULL;
}

#elif defined(FIXTURE_SILENCE_STDERR)
__attribute__((constructor)) static void fixture_silence_stderr(void) {
  int null = open("/dev/null", O_WRONLY);
  if (null < 0) return;
  dup2(null, 2);
  close(null);
}
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_OWN_SIGPIPE)
__attribute__((constructor)) static void fixture_own_sigpipe(void) {
  signal(SIGPIPE, SIG_DFL);
  int ends[2];
  if (pipe(ends) != 0) return;
  close(ends[0]);
  ssize_t written = write(ends[1], "x", 1);
  (void)written;
}
const void *plugboard_entry_v1(void) { return NULL; }

#else
#error "choose a fixture with -DFIXTURE_..."
#endif
