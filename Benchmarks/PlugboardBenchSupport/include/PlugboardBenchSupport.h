#ifndef PLUGBOARD_BENCH_SUPPORT_H
#define PLUGBOARD_BENCH_SUPPORT_H

#include <stddef.h>

/// Bytes of heap the C allocator has handed out and not had back
/// (`mallinfo2()`: `uordblks`, plus `hblkhd` for the blocks it maps on
/// their own). <malloc.h> is not part of Swift's Glibc module, so the
/// benchmark reaches it through these functions.
size_t plugboard_bench_heap_in_use(void);

/// The bytes usable in the heap block at `block` (`malloc_usable_size`):
/// what one object really costs, for the tests that bound a record's size.
size_t plugboard_bench_block_size(const void *block);

#endif
