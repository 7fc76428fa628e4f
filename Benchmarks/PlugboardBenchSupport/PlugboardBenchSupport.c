#include "PlugboardBenchSupport.h"

#include <malloc.h>

size_t plugboard_bench_heap_in_use(void) {
  return mallinfo2().uordblks;
}

size_t plugboard_bench_block_size(const void *block) {
  return malloc_usable_size((void *)block);
}
