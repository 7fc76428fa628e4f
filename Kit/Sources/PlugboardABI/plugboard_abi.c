// The plugin ABI is a header; this file also holds the one piece of state
// PlugboardKit keeps in C: the thread-local-storage key of the resolution
// context, created when the library is loaded so that reading it on every
// resolution needs no lazy-initialization check.
#include "plugboard_abi.h"
#include "plugboard_runtime.h"

#include <pthread.h>

pthread_key_t plugboard_context_key;
static void (*context_destructor)(void *);

static void destroy_context(void *context) {
  if (context_destructor) context_destructor(context);
}

__attribute__((constructor)) static void plugboard_create_context_key(void) {
  pthread_key_create(&plugboard_context_key, destroy_context);
}

void plugboard_set_context_destructor(void (*destructor)(void *)) {
  context_destructor = destructor;
}
