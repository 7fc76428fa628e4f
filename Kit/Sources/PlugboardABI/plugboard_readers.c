// Reader slots for freeing retired registry snapshots without a shared
// read-modify-write on the lookup path (see ReaderGate.swift): each thread
// marks itself in a slot of its own with plain stores, and the writer pays
// instead, with `membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)`, which makes
// every running thread of the process execute a full memory barrier.
#define _GNU_SOURCE
#include "plugboard_readers.h"

#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

// From linux/membarrier.h, spelled out so that no kernel header is needed.
enum {
  plugboard_membarrier_query = 0,
  plugboard_membarrier_private_expedited = 1 << 3,
  plugboard_membarrier_register_private_expedited = 1 << 4,
};

// Only for its destructor, which frees the slot when the thread exits.
static pthread_key_t reader_key;
int plugboard_readers_fence = 1;
static plugboard_reader_slot *slots;

static long membarrier(int command) {
#ifdef SYS_membarrier
  return syscall(SYS_membarrier, command, 0, 0);
#else
  (void)command;
  return -1;
#endif
}

static void release_slot(void *slot) {
  // A lookup from a later destructor on this thread claims a slot again.
  plugboard_thread.reader = 0;
  // The thread is gone, so it is inside no lookup: its depth is 0.
  __atomic_store_n(&((plugboard_reader_slot *)slot)->owned, 0, __ATOMIC_RELEASE);
}

__attribute__((constructor)) static void plugboard_readers_start(void) {
  pthread_key_create(&reader_key, release_slot);
  long supported = membarrier(plugboard_membarrier_query);
  if (supported > 0 && (supported & plugboard_membarrier_private_expedited) &&
      membarrier(plugboard_membarrier_register_private_expedited) == 0) {
    plugboard_readers_fence = 0;
  }
}

plugboard_reader_slot *plugboard_reader_slot_claim(void) {
  plugboard_reader_slot *slot = __atomic_load_n(&slots, __ATOMIC_ACQUIRE);
  for (; slot; slot = slot->next) {
    intptr_t free = 0;
    if (__atomic_compare_exchange_n(&slot->owned, &free, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) break;
  }
  if (!slot) {
    slot = aligned_alloc(64, sizeof(plugboard_reader_slot));
    // Out of memory for 64 bytes: nothing sensible is left to do.
    if (!slot) abort();
    slot->depth = 0;
    slot->owned = 1;
    slot->next = __atomic_load_n(&slots, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&slots, &slot->next, slot, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
    }
  }
  pthread_setspecific(reader_key, slot);
  plugboard_thread.reader = slot;
  return slot;
}

plugboard_reader_slot *plugboard_reader_slots(void) { return __atomic_load_n(&slots, __ATOMIC_ACQUIRE); }

int plugboard_readers_barrier(void) {
  if (plugboard_readers_fence) return 0;
  // A process forked from one that registered stays registered (the
  // registration belongs to the address space, which fork copies); if the
  // kernel says otherwise, register and try once more.
  if (membarrier(plugboard_membarrier_private_expedited) == 0) return 1;
  if (membarrier(plugboard_membarrier_register_private_expedited) == 0 &&
      membarrier(plugboard_membarrier_private_expedited) == 0) {
    return 1;
  }
  return 0;
}
