// pthread_getattr_np is a GNU extension, which Swift's Glibc module does not
// import.
#define _GNU_SOURCE
#include "plugboard_stack.h"

#include <pthread.h>

uintptr_t plugboard_stack_low_bound(void) {
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
  void *low = 0;
  size_t size = 0;
  // For the main thread glibc reads /proc/self/maps and the stack rlimit;
  // PlugboardKit asks once per thread.
  int status = pthread_attr_getstack(&attributes, &low, &size);
  pthread_attr_destroy(&attributes);
  return status == 0 ? (uintptr_t)low : 0;
}
