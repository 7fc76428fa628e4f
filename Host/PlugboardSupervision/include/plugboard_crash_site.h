#ifndef PLUGBOARD_CRASH_SITE_H
#define PLUGBOARD_CRASH_SITE_H

#include <signal.h>

/// Where a crash happened, for the supervised child's crash handler: the
/// faulting address and the crashing thread's return addresses, each with
/// the loaded object that owns it and the plugin whose library that is, so
/// that the parent blames the plugin by address rather than by the stage
/// plugboard was in.
///
/// Everything the handler calls here is async-signal-safe: system calls
/// (`open`, `pread`, `write`, `process_vm_readv`), memory reserved up front,
/// nothing of stdio, malloc or the dynamic loader.

/// How many return addresses a crash record holds at most.
#define PLUGBOARD_CRASH_FRAMES 32

/// In normal context, before plugin code runs: the next crash of this
/// process may map its addresses (opens `/proc/self/maps` at a high
/// descriptor, close-on-exec, for the handler to read; it opens the file
/// again if plugin code closed that one).
void plugboard_crash_site_prepare(void);

/// Gives the calling thread an alternate signal stack (reserved with
/// `mmap`, behind a guard page), once per thread: the crash handler then
/// runs even when the thread's own stack overflowed. Cheap after the
/// first call on a thread (one thread-local read). Threads that plugin
/// code starts get none: a stack overflow there ends the process without
/// a crash record.
void plugboard_prepare_thread_for_crashes(void);

/// Records that plugin `name`'s library is `path` (absolute, canonical:
/// the file `dlopen` is given), so that an address in it is blamed on
/// `name`. Normal context; copies both strings. Once per plugin.
void plugboard_note_plugin_library(const char *name, const char *path);

/// In the crash handler: writes, through `write_line` (which writes one
/// whole line), `Wo` or `Wa` for the faulting address (`o` when it lies
/// next to the interrupted stack pointer: a stack overflow), then one `Wf`
/// line per return address of the interrupted thread, innermost first
/// (the interrupted program counter first): `W<kind>\t<hex>\t<object>\t<plugin>`,
/// where `<hex>` is the address's offset from the object's load address
/// (the raw address when no loaded object owns it), `<object>` the
/// object's path (empty when none) and `<plugin>` the plugin whose library
/// it is (empty when none). Frames are found by following frame pointers:
/// a function built without them hides its caller.
void plugboard_crash_site_write(
    int signal, const siginfo_t *info, const void *context, void (*write_line)(const char *line, unsigned long length));

#endif
