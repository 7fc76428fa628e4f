// What the dynamic loader reads from an ELF file to find the libraries it
// needs: its DT_NEEDED names and its run path. The file may be hostile
// (anyone may hand the launcher a host whose libraries they wrote), so
// every count, size and offset is bounded and checked before it is used.
#ifndef PLUGBOARD_ELF_DYNAMIC_H
#define PLUGBOARD_ELF_DYNAMIC_H

#include <limits.h>
#include <sys/types.h>

// More than any real program needs (plugboard-host needs 17).
#define ELF_DYNAMIC_MAX_NEEDED 256
// A DT_NEEDED name is a file name: NAME_MAX bytes at most.
#define ELF_DYNAMIC_MAX_NAME NAME_MAX

typedef struct {
  int needed_count;
  char needed[ELF_DYNAMIC_MAX_NEEDED][ELF_DYNAMIC_MAX_NAME + 1];
  // DT_RUNPATH, or DT_RPATH when there is no DT_RUNPATH: the folders the
  // loader searches for `needed`, separated by colons, as written.
  int has_search_path;
  char search_path[PATH_MAX];
} elf_dynamic;

// Reads `fd` (a file of `size` bytes) into `dynamic`, with pread alone.
// NULL on success; otherwise what is wrong with the file, a phrase that
// continues "cannot be vetted: " ("its program headers lie outside it").
// A file without a dynamic section (a static program) needs nothing.
const char *elf_dynamic_read(int fd, off_t size, elf_dynamic *dynamic);

#endif
