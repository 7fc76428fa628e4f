#ifndef PLUGBOARD_READERS_H
#define PLUGBOARD_READERS_H

#include <pthread.h>
#include <stdint.h>

#include "plugboard_thread.h"

/// Internal to PlugboardKit: one thread's reader slot, on a cache line of
/// its own. Its first word counts the registry lookups the thread is inside
/// (PlugboardKit reads and writes it as a Swift `Atomic<Int>`); only the
/// owning thread writes it, so entering and leaving a lookup are plain
/// stores, not read-modify-write operations on a shared line.
typedef struct plugboard_reader_slot {
  intptr_t depth;
  /// The next slot ever created; written once, before the slot is published.
  struct plugboard_reader_slot *next;
  /// Whether a live thread owns the slot (a slot is reused after its thread
  /// exits).
  intptr_t owned;
  char padding[64 - 3 * sizeof(void *)];
} __attribute__((aligned(64))) plugboard_reader_slot;

/// Internal to PlugboardKit: nonzero when the process cannot use the
/// `membarrier` system call, so readers must fence themselves.
extern int plugboard_readers_fence;

/// Internal to PlugboardKit: whether readers must fence themselves.
static inline __attribute__((always_inline)) int plugboard_readers_need_fence(void) {
  return plugboard_readers_fence;
}

/// Internal to PlugboardKit: claims a slot for the calling thread (the first
/// lookup a thread makes).
plugboard_reader_slot *plugboard_reader_slot_claim(void);

/// Internal to PlugboardKit: the calling thread's slot.
static inline __attribute__((always_inline)) plugboard_reader_slot *plugboard_reader_slot_current(void) {
  plugboard_reader_slot *slot = plugboard_thread.reader;
  if (__builtin_expect(slot == 0, 0)) return plugboard_reader_slot_claim();
  return slot;
}

/// Internal to PlugboardKit: keeps the compiler from moving memory accesses
/// across this point (a signal fence); emits no instruction.
static inline __attribute__((always_inline)) void plugboard_compiler_barrier(void) {
  __asm__ __volatile__("" ::: "memory");
}

/// Internal to PlugboardKit: the first slot ever created; the others follow
/// through `next`.
plugboard_reader_slot *plugboard_reader_slots(void);

/// Internal to PlugboardKit: the slot created before `slot`, or null.
static inline plugboard_reader_slot *plugboard_reader_slot_next(plugboard_reader_slot *slot) {
  return slot->next;
}

/// Internal to PlugboardKit: runs a full memory barrier on every thread of
/// the process that is running at that moment (`membarrier`), so that a reader's
/// plain store of its slot is visible to the caller, or the reader's next
/// load sees what the caller stored before. Returns 0 when it could not
/// (the caller then must not rely on it).
int plugboard_readers_barrier(void);

#endif
