#ifndef PLUGBOARD_RUNTIME_H
#define PLUGBOARD_RUNTIME_H

#include <pthread.h>

/// Internal to PlugboardKit: the thread-local slot of the calling thread's
/// resolution context (created when the library loads).
extern pthread_key_t plugboard_context_key;

static inline void *plugboard_current_context(void) {
  return pthread_getspecific(plugboard_context_key);
}

static inline void plugboard_set_current_context(void *context) {
  pthread_setspecific(plugboard_context_key, context);
}

/// Sets what releases a thread's context when the thread exits.
void plugboard_set_context_destructor(void (*destructor)(void *));

#endif
