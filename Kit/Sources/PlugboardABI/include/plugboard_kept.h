#ifndef PLUGBOARD_KEPT_H
#define PLUGBOARD_KEPT_H

#include <stdint.h>

/// The process-wide cache of kept `.container` instances that the resolve
/// inlined into plugins reads (KeptCache.swift): 1024 entries of four
/// words (a sequence, a type, a container, an instance). Frozen for the
/// whole major version (Kit/ABI.md).
extern uintptr_t plugboard_kept_words[1024 * 4];

/// The cache's first entry; inlined, so that reading it is one load of the
/// symbol's address and no call.
static inline __attribute__((always_inline)) void *plugboard_kept(void) {
  return plugboard_kept_words;
}

#endif
