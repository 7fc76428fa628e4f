// Which loaded object holds an address, asked of the dynamic loader.
//
// Reading /proc/self/maps answers the same question, but costs a read and a
// parse of every mapping of the process: done twice per plugin while
// loading, it was 2.5-3 ms of each plugin's "check versions" stage.
// `dladdr` looks in the loader's list of objects. It is a GNU extension,
// which Swift's Glibc module does not declare, hence this file.
#define _GNU_SOURCE
#include "plugboard_loaded_objects.h"

#include <dlfcn.h>
#include <stddef.h>

const void *plugboard_object_base(const void *address) {
  Dl_info info;
  if (dladdr(address, &info) == 0) return NULL;
  return info.dli_fbase;
}
