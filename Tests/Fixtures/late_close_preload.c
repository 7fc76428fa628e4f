// A library for LD_PRELOAD that makes one interleaving of a supervised
// child's start certain instead of rare. The tests compile it with the
// toolchain's clang (`clang -shared -fPIC … -ldl -pthread`).
//
// `dispatch_main` hands the main queue to a worker thread first, and only
// then, still on the main thread, opens and closes the main queue's
// eventfd (libdispatch's `_dispatch_queue_cleanup2`). On a busy machine the
// main thread can be held up between the two while the worker runs the
// program: plugboard then finds that eventfd open beside the event loop's
// descriptors when it keeps them, and sees it closed afterwards. This
// library holds the main thread there on purpose:
//
//   - the event loop's epoll instance is created (on a worker) only once
//     the main thread has opened its eventfd, so the eventfd takes the
//     lowest number;
//   - the main thread closes that eventfd only once the plugin named by
//     LATE_CLOSE_AFTER (a part of its path) has been opened, and
//     `dlopen` of that plugin returns only once it has: the close falls
//     between the keeping of the descriptors, before the first plugin code,
//     and their check, when bring-up ends.
//
// Every wait gives up after 20 s, so a process that takes another path
// still ends.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
// The main thread's eventfd while it is open, else -1.
static int main_eventfd = -1;
static int main_eventfd_opened = 0;
static int plugin_opened = 0;
static int main_eventfd_closed = 0;

// The next definition of `name`: the C library's.
static void *next(const char *name) { return dlsym(RTLD_NEXT, name); }

static int on_main_thread(void) { return syscall(SYS_gettid) == getpid(); }

static void wait_for(const int *flag) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 20;
  pthread_mutex_lock(&lock);
  while (!*flag) {
    if (pthread_cond_timedwait(&changed, &lock, &deadline) == ETIMEDOUT) break;
  }
  pthread_mutex_unlock(&lock);
}

static void raise_flag(int *flag) {
  pthread_mutex_lock(&lock);
  *flag = 1;
  pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&lock);
}

int eventfd(unsigned int value, int flags) {
  int (*real)(unsigned int, int) = (int (*)(unsigned int, int))next("eventfd");
  int fd = real(value, flags);
  if (fd >= 0 && on_main_thread()) {
    pthread_mutex_lock(&lock);
    if (!main_eventfd_opened) {
      main_eventfd = fd;
      main_eventfd_opened = 1;
      pthread_cond_broadcast(&changed);
    }
    pthread_mutex_unlock(&lock);
  }
  return fd;
}

int epoll_create1(int flags) {
  int (*real)(int) = (int (*)(int))next("epoll_create1");
  if (!on_main_thread()) wait_for(&main_eventfd_opened);
  return real(flags);
}

int close(int fd) {
  int (*real)(int) = (int (*)(int))next("close");
  pthread_mutex_lock(&lock);
  int late = on_main_thread() && fd >= 0 && fd == main_eventfd;
  if (late) main_eventfd = -1;
  pthread_mutex_unlock(&lock);
  if (!late) return real(fd);
  wait_for(&plugin_opened);
  int result = real(fd);
  raise_flag(&main_eventfd_closed);
  return result;
}

void *dlopen(const char *file, int mode) {
  void *(*real)(const char *, int) = (void *(*)(const char *, int))next("dlopen");
  void *handle = real(file, mode);
  const char *plugin = getenv("LATE_CLOSE_AFTER");
  if (file != NULL && plugin != NULL && strstr(file, plugin) != NULL) {
    raise_flag(&plugin_opened);
    wait_for(&main_eventfd_closed);
  }
  return handle;
}
