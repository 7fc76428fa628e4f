#include "PlugboardBenchSupport.h"

#include <malloc.h>

size_t plugboard_bench_heap_in_use(void) {
  // Blocks above the mmap threshold (a registry's tables, a large log)
  // are mapped on their own and counted in hblkhd, not uordblks; the
  // threshold moves as such blocks are freed, so counting uordblks alone
  // left a 1 MiB table in one repetition and out of the next.
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

size_t plugboard_bench_block_size(const void *block) {
  return malloc_usable_size((void *)block);
}
