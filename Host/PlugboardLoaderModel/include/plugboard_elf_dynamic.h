// What the dynamic loader reads from an ELF file to find the libraries it
// needs (its DT_NEEDED names and its run path), and what must be refused
// before any of it runs (an executable stack, a writable and executable
// segment, DT_FLAGS_1, the entry symbols it exports): one reader for the
// launcher, which vets the host's libraries, and the engine, which vets
// each plugin's. The file may be hostile (anyone may hand plugboard a
// library they wrote), so every count, size and offset is bounded and
// checked before it is used, and each problem is a typed value that each
// caller words.
#ifndef PLUGBOARD_ELF_DYNAMIC_H
#define PLUGBOARD_ELF_DYNAMIC_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

// More than any real program needs (plugboard-host needs 17).
#define PLUGBOARD_ELF_MAX_NEEDED 256
// A DT_NEEDED name is a file name: NAME_MAX bytes at most.
#define PLUGBOARD_ELF_MAX_NAME NAME_MAX
// Entry symbols read from one library: a plugin exports one.
#define PLUGBOARD_ELF_MAX_ENTRY_VERSIONS 16

// What is wrong with a file, from its header inwards.
typedef enum {
  PLUGBOARD_ELF_SOUND = 0,
  // Not a 64-bit little-endian ELF file for x86-64 or AArch64.
  PLUGBOARD_ELF_NOT_ELF,
  // Neither a program (ET_EXEC) nor a shared library (ET_DYN).
  PLUGBOARD_ELF_NOT_LOADABLE,
  PLUGBOARD_ELF_TOO_MANY_PROGRAM_HEADERS,
  PLUGBOARD_ELF_PROGRAM_HEADERS_MALFORMED,
  PLUGBOARD_ELF_PROGRAM_HEADERS_OUTSIDE,
  // More than one PT_DYNAMIC: the loader takes the last, a reader the first.
  PLUGBOARD_ELF_SEVERAL_DYNAMIC_SECTIONS,
  // PT_DYNAMIC's bytes in the file are not the ones a loadable segment maps
  // at its address, which are what the loader reads.
  PLUGBOARD_ELF_DYNAMIC_NOT_MAPPED,
  PLUGBOARD_ELF_DYNAMIC_TOO_LARGE,
  PLUGBOARD_ELF_DYNAMIC_OUTSIDE,
  PLUGBOARD_ELF_TOO_MANY_NEEDED,
  PLUGBOARD_ELF_STRINGS_OUTSIDE,
  PLUGBOARD_ELF_STRINGS_UNREADABLE,
  PLUGBOARD_ELF_NAME_OUTSIDE,
  PLUGBOARD_ELF_NAME_TOO_LONG,
  PLUGBOARD_ELF_NAME_UNTERMINATED,
} plugboard_elf_problem;

// Where a table the dynamic section names lies in the file.
typedef struct {
  int present;
  uint64_t offset;
} plugboard_elf_table;

typedef struct {
  int needed_count;
  char needed[PLUGBOARD_ELF_MAX_NEEDED][PLUGBOARD_ELF_MAX_NAME + 1];
  // DT_RUNPATH, or DT_RPATH when there is no DT_RUNPATH: the folders the
  // loader searches for `needed`, separated by colons, as written.
  int has_search_path;
  char search_path[PATH_MAX];
  // PT_GNU_STACK asks for an executable stack, which the loader then
  // gives every thread of the process.
  int executable_stack;
  // The index of the first PT_LOAD both writable and executable; -1 when
  // none is.
  int writable_executable_segment;
  // DT_FLAGS_1; 0 when absent.
  uint64_t flags1;
  // The dynamic symbol table and what reading it takes, as file offsets;
  // see plugboard_elf_entry_versions.
  plugboard_elf_table symbols, hash, gnu_hash;
  uint64_t strings_offset, strings_size;
  int has_strings_size;
  // The file's size when it was read.
  uint64_t file_size;
} plugboard_elf_dynamic;

// Reads `fd` (a file of `size` bytes) into `dynamic`, with pread alone.
// A file without a dynamic section (a static program) needs nothing.
plugboard_elf_problem plugboard_elf_dynamic_read(int fd, off_t size, plugboard_elf_dynamic *dynamic);

// The N of each `plugboard_entry_vN` the dynamic symbol table of `fd`
// (read into `dynamic`) defines, in table order, into `versions` (at most
// PLUGBOARD_ELF_MAX_ENTRY_VERSIONS, `*count` of them). 0 when the table
// cannot be read: no DT_SYMTAB, neither DT_HASH nor DT_GNU_HASH, or a
// table larger than any library's (2^20 symbols, 64 MiB of names).
int plugboard_elf_entry_versions(int fd, const plugboard_elf_dynamic *dynamic, uint32_t *versions, int *count);

#endif
