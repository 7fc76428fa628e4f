#include "plugboard_elf_dynamic.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// A dynamic section of 4096 entries: ten times a Swift program's.
#define MAX_DYNAMIC_ENTRIES 4096
#define MAX_PROGRAM_HEADERS 128
// Bounds on the dynamic symbol table read for the entry symbols: a real
// plugin has thousands of symbols; a hostile file costs at most these.
#define MAX_SYMBOLS (1u << 20)
#define MAX_SYMBOL_NAMES (64u << 20)
#define MAX_HASH_BUCKETS (1u << 20)
#define SYMBOLS_PER_READ 512

static const char entry_prefix[] = "plugboard_entry_v";

// `length` bytes at `offset` of a file of `size` bytes: 0 when they do not
// all lie inside it or cannot be read.
static int read_exactly(int fd, void *buffer, uint64_t length, uint64_t offset, uint64_t size) {
  if (offset > size || length > size - offset) return 0;
  if (length == 0) return 1;
  size_t done = 0;
  while (done < length) {
    ssize_t got = pread(fd, (char *)buffer + done, (size_t)(length - done), (off_t)(offset + done));
    if (got <= 0) return 0;
    done += (size_t)got;
  }
  return 1;
}

// The loadable segments, for the file offset of an address in memory.
typedef struct {
  const Elf64_Phdr *headers;
  int count;
} segments;

// The file offset of `address` inside a PT_LOAD's bytes in the file, and
// how many of that segment's bytes follow it there; 0 when none maps it.
static int file_offset(segments loads, uint64_t address, uint64_t *offset, uint64_t *available) {
  for (int index = 0; index < loads.count; index++) {
    const Elf64_Phdr *header = &loads.headers[index];
    if (header->p_type != PT_LOAD || address < header->p_vaddr || address - header->p_vaddr >= header->p_filesz) {
      continue;
    }
    uint64_t start = header->p_offset + (address - header->p_vaddr);
    if (start < header->p_offset) return 0;
    *offset = start;
    *available = header->p_filesz - (address - header->p_vaddr);
    return 1;
  }
  return 0;
}

// The string table, as the part of the file it lies in: no string may run
// past its segment's bytes in the file, the file, or DT_STRSZ.
typedef struct {
  uint64_t offset, size;
} string_table;

// The bytes of one file's string table last read: `length` bytes from
// `start` (an offset in the table). Names lie in clusters, so reading the
// page around a name and the next usually serves the names after it.
typedef struct {
  uint64_t start, length;
  char bytes[2 * PATH_MAX];
} string_block;

// The string at `offset` in `table`, into `text` (`capacity` bytes with
// its NUL, at most PATH_MAX), through `block`.
static plugboard_elf_problem read_string(int fd, const string_table *table, string_block *block, uint64_t offset,
                                         char *text, size_t capacity) {
  if (offset >= table->size) return PLUGBOARD_ELF_NAME_OUTSIDE;
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
      return PLUGBOARD_ELF_STRINGS_UNREADABLE;
    }
  }
  memcpy(text, block->bytes + (offset - block->start), (size_t)length);
  if (memchr(text, '\0', (size_t)length) == NULL) {
    return length == capacity ? PLUGBOARD_ELF_NAME_TOO_LONG : PLUGBOARD_ELF_NAME_UNTERMINATED;
  }
  return PLUGBOARD_ELF_SOUND;
}

// Each tag the search needs, once: the value and whether it was there.
typedef struct {
  uint64_t value;
  int present;
} tag;

// The program headers of `header`, read into `headers` and judged: the
// one PT_DYNAMIC (into `*dynamic`, NULL when there is none), the stack's
// permission and the first writable and executable segment.
static plugboard_elf_problem read_program_headers(int fd, const Elf64_Ehdr *header, uint64_t file_size,
                                                  Elf64_Phdr *headers, const Elf64_Phdr **dynamic_header,
                                                  plugboard_elf_dynamic *dynamic) {
  if (header->e_phnum > MAX_PROGRAM_HEADERS) return PLUGBOARD_ELF_TOO_MANY_PROGRAM_HEADERS;
  if (header->e_phentsize != sizeof(Elf64_Phdr)) return PLUGBOARD_ELF_PROGRAM_HEADERS_MALFORMED;
  int count = header->e_phnum;
  if (!read_exactly(fd, headers, (uint64_t)count * sizeof(Elf64_Phdr), header->e_phoff, file_size)) {
    return PLUGBOARD_ELF_PROGRAM_HEADERS_OUTSIDE;
  }
  *dynamic_header = NULL;
  for (int index = 0; index < count; index++) {
    const Elf64_Phdr *segment = &headers[index];
    switch (segment->p_type) {
    case PT_LOAD:
      if ((segment->p_flags & (PF_W | PF_X)) == (PF_W | PF_X) && dynamic->writable_executable_segment < 0) {
        dynamic->writable_executable_segment = index;
      }
      break;
    case PT_DYNAMIC:
      if (*dynamic_header != NULL) return PLUGBOARD_ELF_SEVERAL_DYNAMIC_SECTIONS;
      *dynamic_header = segment;
      break;
    case PT_GNU_STACK: dynamic->executable_stack = (segment->p_flags & PF_X) != 0; break;
    }
  }
  return PLUGBOARD_ELF_SOUND;
}

plugboard_elf_problem plugboard_elf_dynamic_read(int fd, off_t size, plugboard_elf_dynamic *dynamic) {
  Elf64_Phdr headers[MAX_PROGRAM_HEADERS];
  dynamic->needed_count = 0;
  dynamic->has_search_path = 0;
  dynamic->executable_stack = 0;
  dynamic->writable_executable_segment = -1;
  dynamic->flags1 = 0;
  dynamic->symbols.present = dynamic->hash.present = dynamic->gnu_hash.present = 0;
  dynamic->strings_offset = dynamic->strings_size = 0;
  dynamic->has_strings_size = 0;
  uint64_t file_size = size < 0 ? 0 : (uint64_t)size;
  dynamic->file_size = file_size;
  Elf64_Ehdr header;
  if (!read_exactly(fd, &header, sizeof header, 0, file_size) || memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB ||
      (header.e_machine != EM_X86_64 && header.e_machine != EM_AARCH64)) {
    return PLUGBOARD_ELF_NOT_ELF;
  }
  if (header.e_type != ET_EXEC && header.e_type != ET_DYN) return PLUGBOARD_ELF_NOT_LOADABLE;
  const Elf64_Phdr *segment = NULL;
  plugboard_elf_problem problem = read_program_headers(fd, &header, file_size, headers, &segment, dynamic);
  if (problem != PLUGBOARD_ELF_SOUND || segment == NULL) return problem;
  segments loads = {headers, header.e_phnum};
  if (segment->p_filesz > MAX_DYNAMIC_ENTRIES * sizeof(Elf64_Dyn)) return PLUGBOARD_ELF_DYNAMIC_TOO_LARGE;
  // The loader reads the section where it is mapped, not where the header
  // says it lies in the file: both must be the same bytes.
  uint64_t mapped, mapped_available;
  if (segment->p_filesz > 0 && (!file_offset(loads, segment->p_vaddr, &mapped, &mapped_available) ||
                                mapped != segment->p_offset || mapped_available < segment->p_filesz)) {
    return PLUGBOARD_ELF_DYNAMIC_NOT_MAPPED;
  }
  Elf64_Dyn *entries = malloc(MAX_DYNAMIC_ENTRIES * sizeof(Elf64_Dyn));
  if (entries == NULL) return PLUGBOARD_ELF_DYNAMIC_TOO_LARGE;
  if (!read_exactly(fd, entries, segment->p_filesz, segment->p_offset, file_size)) {
    free(entries);
    return PLUGBOARD_ELF_DYNAMIC_OUTSIDE;
  }
  uint64_t needed[PLUGBOARD_ELF_MAX_NEEDED];
  tag runpath = {0, 0}, rpath = {0, 0}, strtab = {0, 0}, strsz = {0, 0}, symtab = {0, 0}, hash = {0, 0},
      gnu_hash = {0, 0};
  int needed_count = 0;
  size_t entry_count = segment->p_filesz / sizeof(Elf64_Dyn);
  for (size_t index = 0; index < entry_count && entries[index].d_tag != DT_NULL; index++) {
    const Elf64_Dyn *entry = &entries[index];
    tag found = {entry->d_un.d_val, 1};
    switch (entry->d_tag) {
    case DT_NEEDED:
      if (needed_count == PLUGBOARD_ELF_MAX_NEEDED) {
        free(entries);
        return PLUGBOARD_ELF_TOO_MANY_NEEDED;
      }
      needed[needed_count++] = entry->d_un.d_val;
      break;
    case DT_RUNPATH: runpath = found; break;
    case DT_RPATH: rpath = found; break;
    case DT_STRTAB: strtab = found; break;
    case DT_STRSZ: strsz = found; break;
    case DT_SYMTAB: symtab = found; break;
    case DT_HASH: hash = found; break;
    case DT_GNU_HASH: gnu_hash = found; break;
    case DT_FLAGS_1: dynamic->flags1 = entry->d_un.d_val; break;
    }
  }
  free(entries);
  uint64_t unused;
  dynamic->symbols.present = symtab.present && file_offset(loads, symtab.value, &dynamic->symbols.offset, &unused);
  dynamic->hash.present = hash.present && file_offset(loads, hash.value, &dynamic->hash.offset, &unused);
  dynamic->gnu_hash.present =
      gnu_hash.present && file_offset(loads, gnu_hash.value, &dynamic->gnu_hash.offset, &unused);
  string_table table = {0, 0};
  uint64_t available;
  int located = strtab.present && file_offset(loads, strtab.value, &table.offset, &available) &&
                table.offset < file_size;
  if (located) {
    if (available > file_size - table.offset) available = file_size - table.offset;
    table.size = strsz.value < available ? strsz.value : available;
    dynamic->strings_offset = table.offset;
    dynamic->strings_size = table.size;
    dynamic->has_strings_size = strsz.present;
  }
  if (needed_count == 0 && !runpath.present && !rpath.present) return PLUGBOARD_ELF_SOUND;
  if (!located) return PLUGBOARD_ELF_STRINGS_OUTSIDE;
  string_block *block = malloc(sizeof *block);
  if (block == NULL) return PLUGBOARD_ELF_STRINGS_UNREADABLE;
  block->start = 0;
  block->length = 0;
  for (int index = 0; index < needed_count && problem == PLUGBOARD_ELF_SOUND; index++) {
    problem = read_string(fd, &table, block, needed[index], dynamic->needed[index], sizeof dynamic->needed[index]);
  }
  if (problem == PLUGBOARD_ELF_SOUND) {
    dynamic->needed_count = needed_count;
    if (runpath.present || rpath.present) {
      problem = read_string(fd, &table, block, runpath.present ? runpath.value : rpath.value, dynamic->search_path,
                            sizeof dynamic->search_path);
      dynamic->has_search_path = problem == PLUGBOARD_ELF_SOUND;
    }
  }
  free(block);
  return problem;
}

static uint32_t word32(const unsigned char *bytes) {
  return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
}

// How many symbols the table holds: DT_HASH's chain count, or past the
// last chain of DT_GNU_HASH (which has no count). 0 when it cannot tell.
static int symbol_count(int fd, const plugboard_elf_dynamic *dynamic, uint64_t *count) {
  uint64_t size = dynamic->file_size;
  unsigned char words[16];
  if (dynamic->hash.present) {
    if (!read_exactly(fd, words, 8, dynamic->hash.offset, size)) return 0;
    *count = word32(words + 4);
    return 1;
  }
  if (!dynamic->gnu_hash.present || !read_exactly(fd, words, 16, dynamic->gnu_hash.offset, size)) return 0;
  uint32_t buckets = word32(words), first = word32(words + 4), bloom_words = word32(words + 8);
  if (buckets > MAX_HASH_BUCKETS || bloom_words > MAX_HASH_BUCKETS) return 0;
  uint64_t buckets_offset = dynamic->gnu_hash.offset + 16 + (uint64_t)bloom_words * 8;
  uint32_t last = 0;
  unsigned char chunk[4 * SYMBOLS_PER_READ];
  for (uint32_t done = 0; done < buckets;) {
    uint32_t take = buckets - done < SYMBOLS_PER_READ ? buckets - done : SYMBOLS_PER_READ;
    if (!read_exactly(fd, chunk, (uint64_t)take * 4, buckets_offset + (uint64_t)done * 4, size)) return 0;
    for (uint32_t index = 0; index < take; index++) {
      uint32_t value = word32(chunk + 4 * index);
      if (value > last) last = value;
    }
    done += take;
  }
  if (last < first) {
    *count = first;
    return 1;
  }
  // The chain of the last bucket ends at the table's last symbol, the one
  // whose chain word has its low bit set.
  uint64_t chains = buckets_offset + (uint64_t)buckets * 4;
  for (uint64_t index = last; index < MAX_SYMBOLS;) {
    uint64_t left = size > chains + (index - first) * 4 ? (size - chains - (index - first) * 4) / 4 : 0;
    uint64_t take = left < SYMBOLS_PER_READ ? left : SYMBOLS_PER_READ;
    if (take == 0 || !read_exactly(fd, chunk, take * 4, chains + (index - first) * 4, size)) return 0;
    for (uint64_t at = 0; at < take && index < MAX_SYMBOLS; at++, index++) {
      if (word32(chunk + 4 * at) & 1) {
        *count = index + 1;
        return 1;
      }
    }
  }
  return 0;
}

int plugboard_elf_entry_versions(int fd, const plugboard_elf_dynamic *dynamic, uint32_t *versions, int *count) {
  *count = 0;
  uint64_t symbols = 0;
  if (!dynamic->symbols.present || !dynamic->has_strings_size || dynamic->strings_size > MAX_SYMBOL_NAMES ||
      !symbol_count(fd, dynamic, &symbols) || symbols > MAX_SYMBOLS) {
    return 0;
  }
  uint64_t names_size = dynamic->strings_size;
  char *names = malloc(names_size + 1);
  if (names == NULL) return 0;
  if (!read_exactly(fd, names, names_size, dynamic->strings_offset, dynamic->file_size)) {
    free(names);
    return 0;
  }
  // A name that runs to the table's end ends there.
  names[names_size] = '\0';
  size_t prefix = sizeof entry_prefix - 1;
  Elf64_Sym chunk[SYMBOLS_PER_READ];
  int readable = 1;
  for (uint64_t done = 0; done < symbols && readable;) {
    uint64_t take = symbols - done < SYMBOLS_PER_READ ? symbols - done : SYMBOLS_PER_READ;
    readable = read_exactly(fd, chunk, take * sizeof(Elf64_Sym), dynamic->symbols.offset + done * sizeof(Elf64_Sym),
                            dynamic->file_size);
    for (uint64_t index = 0; readable && index < take; index++) {
      // A symbol the library only refers to is not one it exports.
      const Elf64_Sym *symbol = &chunk[index];
      if (symbol->st_shndx == SHN_UNDEF || symbol->st_name >= names_size ||
          names_size - symbol->st_name <= prefix || memcmp(names + symbol->st_name, entry_prefix, prefix) != 0) {
        continue;
      }
      const char *digit = names + symbol->st_name + prefix;
      uint32_t version = 0;
      int digits = 0;
      for (; *digit >= '0' && *digit <= '9' && digits < 9; digit++, digits++) {
        version = version * 10 + (uint32_t)(*digit - '0');
      }
      if (digits > 0 && *digit == '\0' && digit < names + names_size && *count < PLUGBOARD_ELF_MAX_ENTRY_VERSIONS) {
        versions[(*count)++] = version;
      }
    }
    done += take;
  }
  free(names);
  if (!readable) *count = 0;
  return readable;
}
