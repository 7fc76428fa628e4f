#include "elf_dynamic.h"

#include <elf.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

// A dynamic section of 4096 entries: ten times a Swift program's.
#define MAX_DYNAMIC_SIZE (4096 * sizeof(Elf64_Dyn))
#define MAX_PROGRAM_HEADERS 128

// `length` bytes at `offset` of a file of `size` bytes: 0 when they do not
// all lie inside it or cannot be read.
static int read_exactly(int fd, void *buffer, uint64_t length, uint64_t offset, uint64_t size) {
  if (offset > size || length > size - offset) return 0;
  return pread(fd, buffer, (size_t)length, (off_t)offset) == (ssize_t)length;
}

// The string table, as the part of the file it lies in: DT_STRTAB is an
// address in memory, found in the file through the PT_LOAD segment that
// maps it, and no string may run past that segment's bytes in the file or
// DT_STRSZ.
typedef struct {
  uint64_t offset, size;
} string_table;

static int locate_strings(const Elf64_Phdr *headers, int count, uint64_t address, uint64_t declared, uint64_t size,
                          string_table *table) {
  for (int index = 0; index < count; index++) {
    const Elf64_Phdr *header = &headers[index];
    if (header->p_type != PT_LOAD || address < header->p_vaddr || address - header->p_vaddr >= header->p_filesz) {
      continue;
    }
    uint64_t start = header->p_offset + (address - header->p_vaddr);
    if (start < header->p_offset || start >= size) return 0;
    uint64_t available = header->p_filesz - (address - header->p_vaddr);
    if (available > size - start) available = size - start;
    table->offset = start;
    table->size = declared < available ? declared : available;
    return 1;
  }
  return 0;
}

// The bytes of one file's string table last read: `length` bytes from
// `start` (an offset in the table). Names lie in clusters, so reading the
// page around a name and the next usually serves the names after it: a
// launch reads some twenty libraries, each naming five to fifteen.
typedef struct {
  uint64_t start, length;
  char bytes[2 * PATH_MAX];
} string_block;

// The string at `offset` in `table`, into `text` (`capacity` bytes with
// its NUL, at most PATH_MAX), through `block`. NULL on success, else what
// is wrong.
static const char *read_string(int fd, const string_table *table, string_block *block, uint64_t offset, char *text,
                               size_t capacity) {
  if (offset >= table->size) return "a name lies outside its string table";
  uint64_t length = table->size - offset;
  if (length > capacity) length = capacity;
  if (offset < block->start || offset - block->start > block->length ||
      length > block->length - (offset - block->start)) {
    // From the start of the page that holds `offset`: with PATH_MAX
    // bytes after that page, every name starting in it fits.
    uint64_t start = offset - offset % PATH_MAX;
    uint64_t available = table->size - start;
    block->start = start;
    block->length = available < sizeof block->bytes ? available : sizeof block->bytes;
    if (pread(fd, block->bytes, (size_t)block->length, (off_t)(table->offset + start)) != (ssize_t)block->length) {
      block->length = 0;
      return "its string table cannot be read";
    }
  }
  memcpy(text, block->bytes + (offset - block->start), (size_t)length);
  if (memchr(text, '\0', (size_t)length) == NULL) {
    return length == capacity ? "a name in it is too long" : "a name runs past its string table";
  }
  return NULL;
}

const char *elf_dynamic_read(int fd, off_t size, elf_dynamic *dynamic) {
  static Elf64_Phdr headers[MAX_PROGRAM_HEADERS];
  static Elf64_Dyn entries[MAX_DYNAMIC_SIZE / sizeof(Elf64_Dyn)];
  dynamic->needed_count = 0;
  dynamic->has_search_path = 0;
  uint64_t file_size = size < 0 ? 0 : (uint64_t)size;
  Elf64_Ehdr header;
  if (!read_exactly(fd, &header, sizeof header, 0, file_size) || memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB ||
      (header.e_machine != EM_X86_64 && header.e_machine != EM_AARCH64)) {
    return "it is not a 64-bit little-endian ELF file for x86-64 or AArch64";
  }
  if (header.e_type != ET_EXEC && header.e_type != ET_DYN) return "it is neither a program nor a shared library";
  if (header.e_phnum > MAX_PROGRAM_HEADERS) return "it has more program headers than any program needs";
  if (header.e_phnum > 0 && header.e_phentsize != sizeof(Elf64_Phdr)) return "its program headers are malformed";
  int count = header.e_phnum;
  if (!read_exactly(fd, headers, (uint64_t)count * sizeof(Elf64_Phdr), header.e_phoff, file_size)) {
    return "its program headers lie outside it";
  }
  const Elf64_Phdr *segment = NULL;
  for (int index = 0; index < count && segment == NULL; index++) {
    if (headers[index].p_type == PT_DYNAMIC) segment = &headers[index];
  }
  if (segment == NULL) return NULL;
  if (segment->p_filesz > MAX_DYNAMIC_SIZE) return "its dynamic section is larger than any program's";
  if (!read_exactly(fd, entries, segment->p_filesz, segment->p_offset, file_size)) {
    return "its dynamic section lies outside it";
  }
  // Each tag the search needs, once: the value and whether it was there.
  typedef struct {
    uint64_t value;
    int present;
  } tag;
  uint64_t needed[ELF_DYNAMIC_MAX_NEEDED];
  tag runpath = {0, 0}, rpath = {0, 0}, strtab = {0, 0}, strsz = {0, 0};
  int needed_count = 0;
  size_t entry_count = segment->p_filesz / sizeof(Elf64_Dyn);
  for (size_t index = 0; index < entry_count && entries[index].d_tag != DT_NULL; index++) {
    const Elf64_Dyn *entry = &entries[index];
    tag found = {entry->d_un.d_val, 1};
    switch (entry->d_tag) {
    case DT_NEEDED:
      if (needed_count == ELF_DYNAMIC_MAX_NEEDED) return "it needs more libraries than any program does";
      needed[needed_count++] = entry->d_un.d_val;
      break;
    case DT_RUNPATH: runpath = found; break;
    case DT_RPATH: rpath = found; break;
    case DT_STRTAB: strtab = found; break;
    case DT_STRSZ: strsz = found; break;
    }
  }
  if (needed_count == 0 && !runpath.present && !rpath.present) return NULL;
  string_table table;
  if (!strtab.present || !locate_strings(headers, count, strtab.value, strsz.value, file_size, &table)) {
    return "its string table lies outside its loaded segments";
  }
  static string_block block;
  block.start = 0;
  block.length = 0;
  const char *problem = NULL;
  for (int index = 0; index < needed_count && problem == NULL; index++) {
    problem =
        read_string(fd, &table, &block, needed[index], dynamic->needed[index], sizeof dynamic->needed[index]);
  }
  if (problem != NULL) return problem;
  dynamic->needed_count = needed_count;
  if (runpath.present || rpath.present) {
    problem = read_string(fd, &table, &block, runpath.present ? runpath.value : rpath.value, dynamic->search_path,
                          sizeof dynamic->search_path);
    dynamic->has_search_path = problem == NULL;
  }
  return problem;
}
