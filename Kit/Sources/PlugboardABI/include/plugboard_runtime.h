#ifndef PLUGBOARD_RUNTIME_H
#define PLUGBOARD_RUNTIME_H

#include "plugboard_thread.h"

/// Internal to PlugboardKit: the calling thread's resolution context.
static inline __attribute__((always_inline)) void *plugboard_current_context(void) {
  return plugboard_thread.context;
}

/// Internal to PlugboardKit: sets the calling thread's resolution context;
/// the destructor set below releases it when the thread exits.
void plugboard_set_current_context(void *context);

/// Sets what releases a thread's context when the thread exits.
void plugboard_set_context_destructor(void (*destructor)(void *));

#endif
