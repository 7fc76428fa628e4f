// The plugin ABI is a header; this file also holds the per-thread state
// PlugboardKit keeps in C (plugboard_thread.h), and the thread-local-storage
// key whose destructor releases a thread's resolution context, created when
// the library is loaded.
#include "plugboard_abi.h"
#include "plugboard_runtime.h"

#include <pthread.h>

__thread plugboard_thread_state plugboard_thread __attribute__((tls_model("initial-exec")));

static pthread_key_t context_key;
static void (*context_destructor)(void *);

static void destroy_context(void *context) {
  // As glibc does with the key's value: a resolution from the context's
  // deinit starts a new context, which this destructor runs for again.
  plugboard_thread.context = 0;
  if (context_destructor) context_destructor(context);
}

__attribute__((constructor)) static void plugboard_create_context_key(void) {
  pthread_key_create(&context_key, destroy_context);
}

void plugboard_set_current_context(void *context) {
  plugboard_thread.context = context;
  pthread_setspecific(context_key, context);
}

void plugboard_set_context_destructor(void (*destructor)(void *)) {
  context_destructor = destructor;
}
