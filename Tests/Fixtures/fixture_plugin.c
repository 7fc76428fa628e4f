// Malformed and mismatched "plugins" for the loader's failure tests. The
// tests compile this file once per variant with the toolchain's clang
// (`clang -shared -fPIC -D...`):
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
//   FIXTURE_EXIT         calls exit(0) in a constructor, while loading
//   FIXTURE_ENTRY_CRASH  plugboard_entry_v1 dies of SIGSEGV
//   FIXTURE_ENTRY_ABORT  plugboard_entry_v1 calls abort() (SIGABRT)
//   FIXTURE_ENTRY_HANG   plugboard_entry_v1 never returns
//
// And, with any of them:
//   FIXTURE_CONSTRUCTOR_CRASH  dies of SIGSEGV in a constructor (a library
//                        that must be refused before dlopen runs it)
//   FIXTURE_WRITABLE_CODE  adds a section that is writable and executable,
//                        which the linker puts in a W+X loadable segment
#include "plugboard_abi.h"
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#if defined(FIXTURE_CONSTRUCTOR_CRASH)
__attribute__((constructor)) static void fixture_constructor_crash(void) { *(volatile int *)0 = 1; }
#endif

#if defined(FIXTURE_WRITABLE_CODE)
__asm__(".section .fixture_wx,\"awx\",@progbits\n.byte 0xc3\n.previous\n");
#endif

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

#elif defined(FIXTURE_EXIT)
// Ends the process with status 0 before the host has said anything.
__attribute__((constructor)) static void fixture_exit(void) { exit(0); }
const void *plugboard_entry_v1(void) { return NULL; }

#elif defined(FIXTURE_ENTRY_CRASH)
const void *plugboard_entry_v1(void) {
  *(volatile int *)0 = 1;
  return NULL;
}

#elif defined(FIXTURE_ENTRY_ABORT)
const void *plugboard_entry_v1(void) { abort(); }

#elif defined(FIXTURE_ENTRY_HANG)
const void *plugboard_entry_v1(void) {
  for (;;) pause();
}

#else
#error "choose a fixture with -DFIXTURE_..."
#endif
