// Malformed and mismatched "plugins" for the loader's failure tests. The
// tests compile this file once per variant with `cc -shared -fPIC -D...`:
//
//   FIXTURE_NO_ENTRY     a library without any plugboard entry point
//   FIXTURE_UNRESOLVED   a library referencing a symbol nothing defines
//   FIXTURE_NULL_ENTRY   plugboard_entry_v1 returns NULL
//   FIXTURE_ABI2         exports plugboard_entry_v2 only
//   FIXTURE_DESCRIPTOR   plugboard_entry_v1 returns a descriptor carrying
//                        FIXTURE_NAME, FIXTURE_SWIFT and FIXTURE_KIT, whose
//                        make_bundle returns NULL
//   FIXTURE_CRASH        dies of SIGSEGV in a constructor, while loading
//   FIXTURE_HANG         never returns from a constructor
#include "plugboard_abi.h"
#include <stddef.h>
#include <unistd.h>

#if defined(FIXTURE_NO_ENTRY)
int fixture_answer(void) { return 42; }

#elif defined(FIXTURE_UNRESOLVED)
extern int plugboard_fixture_missing(void);
int fixture_calls_missing(void) { return plugboard_fixture_missing(); }
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_NULL_ENTRY)
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_ABI2)
static int descriptor_v2;
const void *plugboard_entry_v2(void) { return &descriptor_v2; }

#elif defined(FIXTURE_DESCRIPTOR)
static void *make_no_bundle(const plugboard_plugin_v1 *descriptor) {
  (void)descriptor;
  return NULL;
}

static const plugboard_plugin_v1 descriptor = {
  .abi_version = PLUGBOARD_ABI_VERSION,
  .struct_size = sizeof(plugboard_plugin_v1),
  .name = FIXTURE_NAME,
  .version = "0.0.1",
  .kit_version = FIXTURE_KIT,
  .swift_version = FIXTURE_SWIFT,
  .context = NULL,
  .make_bundle = make_no_bundle,
};

const plugboard_plugin_v1 *plugboard_entry_v1(void) { return &descriptor; }

#elif defined(FIXTURE_CRASH)
// A store through a null pointer: a fault no signal handler can defer.
__attribute__((constructor)) static void fixture_crash(void) { *(volatile int *)0 = 1; }
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_HANG)
__attribute__((constructor)) static void fixture_hang(void) {
  for (;;) pause();
}
const void *plugboard_entry_v1(void) { return NULL; }

#else
#error "choose a fixture with -DFIXTURE_..."
#endif
