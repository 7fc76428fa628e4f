// A library for LD_PRELOAD that makes one interleaving of a start certain:
// a folder renamed into a plugin's place between the moment plugboard
// vets what is in it and the moment it hands the plugin to the loader.
// The tests compile it with the toolchain's clang
// (`clang -shared -fPIC … -ldl`).
//
// plugboard hands an unpinned plugin to the loader through its folder,
// held open by a descriptor it opens with O_DIRECTORY. The first time a
// process opens FOLDER_SWAP_AT that way, this library first exchanges it
// with FOLDER_SWAP_WITH (renameat2 RENAME_EXCHANGE, one atomic step), as a
// deployment that renames a staged release into place does, then opens
// it: whatever was looked at by the folder's path before that moment is
// in the other folder now.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static int swapped;

static void swap_if_asked(const char *path, int flags) {
  if (swapped || (flags & O_DIRECTORY) == 0 || path == NULL) return;
  const char *at = getenv("FOLDER_SWAP_AT");
  const char *with = getenv("FOLDER_SWAP_WITH");
  if (at == NULL || with == NULL || strcmp(path, at) != 0) return;
  swapped = 1;
  if (syscall(SYS_renameat2, AT_FDCWD, at, AT_FDCWD, with, RENAME_EXCHANGE) != 0) {
    perror("folder_swap_preload: renameat2");
  }
}

typedef int (*open_function)(const char *, int, ...);

static int forward(const char *symbol, const char *path, int flags, va_list arguments) {
  mode_t mode = (flags & (O_CREAT | O_TMPFILE)) != 0 ? (mode_t)va_arg(arguments, int) : 0;
  swap_if_asked(path, flags);
  open_function next = (open_function)dlsym(RTLD_NEXT, symbol);
  return next == NULL ? -1 : next(path, flags, mode);
}

int open(const char *path, int flags, ...) {
  va_list arguments;
  va_start(arguments, flags);
  int fd = forward("open", path, flags, arguments);
  va_end(arguments);
  return fd;
}

// The same function in the C library: one forward serves both names.
int open64(const char *path, int flags, ...) __attribute__((alias("open")));
