// pthread_getattr_np and gettid are GNU extensions, which Swift's Glibc
// module does not import.
#define _GNU_SOURCE
#include "plugboard_stack.h"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

/// How much of the main thread's stack to count on under an address-space
/// limit: the kernel grows that stack on demand and refuses (SIGSEGV) once
/// the process's mappings reach RLIMIT_AS, long before the stack rlimit
/// that pthread_getattr_np reports. About 1,000 levels in a release build.
static const uintptr_t main_stack_under_address_limit = 1 << 20;

uintptr_t plugboard_stack_low_bound(void) {
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
  void *low = 0;
  size_t size = 0;
  // For the main thread glibc reads /proc/self/maps and the stack rlimit;
  // PlugboardKit asks once per thread.
  int status = pthread_attr_getstack(&attributes, &low, &size);
  pthread_attr_destroy(&attributes);
  if (status != 0) return 0;
  uintptr_t bound = (uintptr_t)low;
  struct rlimit address_space;
  if (getpid() == gettid() && getrlimit(RLIMIT_AS, &address_space) == 0 &&
      address_space.rlim_cur != RLIM_INFINITY) {
    uintptr_t here = plugboard_stack_address();
    if (here > main_stack_under_address_limit && here - main_stack_under_address_limit > bound) {
      bound = here - main_stack_under_address_limit;
    }
  }
  return bound;
}
