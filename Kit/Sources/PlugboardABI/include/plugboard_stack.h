#ifndef PLUGBOARD_STACK_H
#define PLUGBOARD_STACK_H

#include <stdint.h>

/// Internal to PlugboardKit: the lowest usable address of the calling
/// thread's stack (above its guard page), or 0 when the system cannot say.
/// Stacks grow down on every platform Plugboard supports.
uintptr_t plugboard_stack_low_bound(void);

/// Internal to PlugboardKit: an address in the caller's stack frame, to
/// compare with `plugboard_stack_low_bound`. Inline, so reading it costs one
/// register move on every resolution.
static inline __attribute__((always_inline)) uintptr_t plugboard_stack_address(void) {
  return (uintptr_t)__builtin_frame_address(0);
}

#endif
