// Where a crash happened, by address: see plugboard_crash_site.h.
//
// Which process maps addresses to libraries, and how. The crashing child
// reads its own /proc/self/maps in the handler (open/pread/close: system
// calls, async-signal-safe) and writes each address with its object and
// offset. The alternatives are weaker:
// - dladdr (or dl_iterate_phdr) takes the dynamic loader's lock, which
//   dlopen holds while a plugin's constructor runs: a crash there, the
//   commonest plugin crash, would deadlock the handler;
// - a table of objects captured up front misses every plugin opened after
//   it, which is all of them;
// - the parent reading /proc/PID/maps needs the child alive when it reads
//   (a dead child's maps are empty, long before it is reaped), so the
//   handler would have to wait for the parent, a round trip on a second
//   channel for every crash, and plugin code can make itself unreadable
//   to the parent (PR_SET_DUMPABLE).
// The file was opened before plugin code ran; if plugin code closed that
// descriptor, the handler opens the file again (which fails only when
// plugin code also used up every descriptor: the record then has raw
// addresses and the parent blames by stage).
#define _GNU_SOURCE
#include "plugboard_crash_site.h"
#include "plugboard_descriptors.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

// MARK: Plugins' libraries (written in normal context, read by the handler)

typedef struct {
  char *name;
  char *path;
  unsigned long major;
  unsigned long minor;
  unsigned long long inode;
  int has_identity;
} plugin_library;

// Grown by copying into a larger array that is then published: the
// handler may be reading the old one, which is therefore never freed
// (all arrays together hold at most twice the entries).
static _Atomic(plugin_library *) libraries = NULL;
static _Atomic size_t library_count = 0;
static size_t library_capacity = 0;

void plugboard_note_plugin_library(const char *name, const char *path) {
  size_t count = atomic_load(&library_count);
  plugin_library *table = atomic_load(&libraries);
  for (size_t index = 0; index < count; index++) {
    if (strcmp(table[index].path, path) == 0 && strcmp(table[index].name, name) == 0) return;
  }
  if (count == library_capacity) {
    size_t capacity = library_capacity == 0 ? 32 : library_capacity * 2;
    plugin_library *grown = calloc(capacity, sizeof *grown);
    if (grown == NULL) return;
    if (count > 0) memcpy(grown, table, count * sizeof *grown);
    atomic_store(&libraries, grown);
    library_capacity = capacity;
    table = grown;
  }
  plugin_library entry;
  memset(&entry, 0, sizeof entry);
  entry.name = strdup(name);
  entry.path = strdup(path);
  if (entry.name == NULL || entry.path == NULL) {
    free(entry.name);
    free(entry.path);
    return;
  }
  // The maps file names a file by the path it was mapped from, and by its
  // device and inode, which still match when the path does not (a file
  // renamed or replaced since).
  struct stat status;
  if (stat(path, &status) == 0) {
    entry.major = major(status.st_dev);
    entry.minor = minor(status.st_dev);
    entry.inode = (unsigned long long)status.st_ino;
    entry.has_identity = 1;
  }
  table[count] = entry;
  // Published whole: the handler reads at most `count` entries.
  atomic_store(&library_count, count + 1);
}

static const char *plugin_owning(const char *path, unsigned long major, unsigned long minor, unsigned long long inode) {
  size_t count = atomic_load(&library_count);
  plugin_library *table = atomic_load(&libraries);
  for (size_t index = 0; index < count; index++) {
    const plugin_library *entry = &table[index];
    if (entry->has_identity && inode != 0 && entry->inode == inode && entry->major == major && entry->minor == minor) {
      return entry->name;
    }
    if (path[0] != '\0' && strcmp(entry->path, path) == 0) return entry->name;
  }
  return NULL;
}

// MARK: Alternate signal stacks

// Room for the handler's own work (a few hundred bytes of locals; its
// buffers are static) and for the resolution chain's describer, which is
// Swift.
#define ALTERNATE_STACK_SIZE (256 * 1024)

static __thread int thread_prepared = 0;

void plugboard_prepare_thread_for_crashes(void) {
  if (thread_prepared) return;
  thread_prepared = 1;
  stack_t current;
  if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE) && current.ss_size >= 64 * 1024) return;
  long page = sysconf(_SC_PAGESIZE);
  if (page <= 0) page = 4096;
  size_t length = (size_t)page + ALTERNATE_STACK_SIZE;
  // Reserved, not committed: a page costs memory only once a handler
  // touched it. Never unmapped: a thread that ends leaves it behind, which
  // bounds the waste by the threads that ran plugin stages.
  char *base = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) return;
  // A guard page below it: a handler that overflows this stack faults
  // instead of writing over whatever lies below.
  mprotect(base, (size_t)page, PROT_NONE);
  stack_t stack;
  memset(&stack, 0, sizeof stack);
  stack.ss_sp = base + page;
  stack.ss_size = ALTERNATE_STACK_SIZE;
  if (sigaltstack(&stack, NULL) != 0) munmap(base, length);
}

// MARK: The maps file

static int maps_fd = -1;
static plugboard_file_identity maps_identity;

void plugboard_crash_site_prepare(void) {
  plugboard_prepare_thread_for_crashes();
  if (maps_fd >= 0) return;
  int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  fd = plugboard_move_high(fd);
  if (plugboard_identity(fd, &maps_identity) != 0) {
    close(fd);
    return;
  }
  maps_fd = fd;
}

// What the handler found for one address.
typedef struct {
  uintptr_t address;
  // The address looked up: a return address minus one, which lies in the
  // call instruction (a call that ends a function returns past its end).
  uintptr_t lookup;
  int found;
  uintptr_t base;
  const char *plugin;
  char path[1024];
} located;

static located places[PLUGBOARD_CRASH_FRAMES + 1];

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A hexadecimal number at *cursor, which moves past it.
static unsigned long long parse_hex(const char **cursor, const char *end) {
  unsigned long long value = 0;
  int digit;
  while (*cursor < end && (digit = hex_digit(**cursor)) >= 0) {
    value = value * 16 + (unsigned long long)digit;
    (*cursor)++;
  }
  return value;
}

static unsigned long long parse_decimal(const char **cursor, const char *end) {
  unsigned long long value = 0;
  while (*cursor < end && **cursor >= '0' && **cursor <= '9') {
    value = value * 10 + (unsigned long long)(**cursor - '0');
    (*cursor)++;
  }
  return value;
}

static void skip_spaces(const char **cursor, const char *end) {
  while (*cursor < end && (**cursor == ' ' || **cursor == '\t')) (*cursor)++;
}

// The object the previous lines of the maps file were mapping, and where
// it was loaded (the start of its mapping at file offset 0): the lines of
// one object come together, in address order, that one first.
static struct {
  unsigned long long inode;
  unsigned long major;
  unsigned long minor;
  uintptr_t base;
} object;

// `start-end perms offset major:minor inode   path`
static void apply_maps_line(const char *line, const char *end, int count) {
  const char *cursor = line;
  uintptr_t start = (uintptr_t)parse_hex(&cursor, end);
  if (cursor >= end || *cursor != '-') return;
  cursor++;
  uintptr_t stop = (uintptr_t)parse_hex(&cursor, end);
  skip_spaces(&cursor, end);
  while (cursor < end && *cursor != ' ') cursor++;
  skip_spaces(&cursor, end);
  uintptr_t offset = (uintptr_t)parse_hex(&cursor, end);
  skip_spaces(&cursor, end);
  unsigned long major = (unsigned long)parse_hex(&cursor, end);
  if (cursor < end && *cursor == ':') cursor++;
  unsigned long minor = (unsigned long)parse_hex(&cursor, end);
  skip_spaces(&cursor, end);
  unsigned long long inode = parse_decimal(&cursor, end);
  skip_spaces(&cursor, end);
  const char *path = cursor;
  size_t path_length = (size_t)(end - path);
  if (inode != 0 && (offset == 0 || inode != object.inode || major != object.major || minor != object.minor)) {
    object.inode = inode;
    object.major = major;
    object.minor = minor;
    object.base = start - offset;
  }
  for (int index = 0; index < count; index++) {
    located *place = &places[index];
    if (place->found || place->lookup < start || place->lookup >= stop || inode == 0) continue;
    place->found = 1;
    place->base = object.base;
    size_t copied = path_length < sizeof place->path - 1 ? path_length : sizeof place->path - 1;
    memcpy(place->path, path, copied);
    place->path[copied] = '\0';
    place->plugin = plugin_owning(place->path, major, minor, inode);
  }
}

static char maps_chunk[4096];
static char maps_line[1200];

static void locate_all(int count) {
  int fd = -1;
  int opened = 0;
  if (maps_fd >= 0 && plugboard_is_same_file(maps_fd, maps_identity)) {
    fd = maps_fd;
  } else {
    fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    opened = 1;
  }
  if (fd < 0) return;
  memset(&object, 0, sizeof object);
  size_t used = 0;
  off_t position = 0;
  for (;;) {
    ssize_t length = pread(fd, maps_chunk, sizeof maps_chunk, position);
    if (length < 0 && errno == EINTR) continue;
    if (length <= 0) break;
    position += length;
    for (ssize_t index = 0; index < length; index++) {
      char c = maps_chunk[index];
      if (c == '\n') {
        apply_maps_line(maps_line, maps_line + used, count);
        used = 0;
      } else if (used < sizeof maps_line) {
        // A longer line keeps its start: the path is cut.
        maps_line[used++] = c;
      }
    }
  }
  if (used > 0) apply_maps_line(maps_line, maps_line + used, count);
  if (opened) close(fd);
}

// MARK: The interrupted thread's frames

// Reads `length` bytes at `address` of this process without faulting: an
// address that is not mapped fails the system call instead.
static int read_memory(uintptr_t address, void *into, size_t length) {
  struct iovec local = {into, length};
  struct iovec remote = {(void *)address, length};
  return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)length;
}

static int collect_frames(const void *context, uintptr_t *stack_pointer) {
  const ucontext_t *interrupted = context;
  uintptr_t pc = 0;
  uintptr_t fp = 0;
  *stack_pointer = 0;
  if (interrupted == NULL) return 0;
#if defined(__x86_64__)
  pc = (uintptr_t)interrupted->uc_mcontext.gregs[REG_RIP];
  fp = (uintptr_t)interrupted->uc_mcontext.gregs[REG_RBP];
  *stack_pointer = (uintptr_t)interrupted->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
  pc = (uintptr_t)interrupted->uc_mcontext.pc;
  fp = (uintptr_t)interrupted->uc_mcontext.regs[29];
  *stack_pointer = (uintptr_t)interrupted->uc_mcontext.sp;
#else
  return 0;
#endif
  int count = 0;
  places[count].address = pc;
  places[count].lookup = pc;
  count++;
  // Each frame record is {caller's frame pointer, return address}, and a
  // caller's frame lies above its callee's: a record that breaks either
  // rule (a function without frame pointers reused the register) ends the
  // walk.
  uintptr_t floor = *stack_pointer;
  while (count < PLUGBOARD_CRASH_FRAMES && fp != 0 && fp % sizeof(uintptr_t) == 0 && fp >= floor) {
    uintptr_t record[2];
    if (!read_memory(fp, record, sizeof record) || record[1] == 0) break;
    places[count].address = record[1];
    places[count].lookup = record[1] - 1;
    count++;
    if (record[0] <= fp) break;
    floor = fp + sizeof record;
    fp = record[0];
  }
  return count;
}

// MARK: Writing

static char line[1400];

static size_t append(size_t used, const char *text) {
  while (*text != '\0' && used < sizeof line - 2) {
    char c = *text++;
    // A tab, a line break or a backslash in a path is escaped, as every
    // progress field is (see ProgressEvent).
    const char *escape = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\\' ? "\\\\" : NULL;
    if (escape != NULL) {
      if (used + 2 >= sizeof line - 2) break;
      line[used++] = escape[0];
      line[used++] = escape[1];
    } else {
      line[used++] = c;
    }
  }
  return used;
}

static size_t append_hex(size_t used, uintptr_t value) {
  char digits[2 * sizeof value];
  int count = 0;
  do {
    digits[count++] = "0123456789abcdef"[value % 16];
    value /= 16;
  } while (value != 0);
  while (count > 0 && used < sizeof line - 2) line[used++] = digits[--count];
  return used;
}

static void write_place(char kind, const located *place, void (*write_line)(const char *, unsigned long)) {
  size_t used = 0;
  line[used++] = 'W';
  line[used++] = kind;
  line[used++] = '\t';
  used = append_hex(used, place->found ? place->address - place->base : place->address);
  line[used++] = '\t';
  if (place->found) used = append(used, place->path);
  line[used++] = '\t';
  if (place->found && place->plugin != NULL) used = append(used, place->plugin);
  line[used++] = '\n';
  write_line(line, used);
}

void plugboard_crash_site_write(
    int signal, const siginfo_t *info, const void *context, void (*write_line)(const char *line, unsigned long length)) {
  memset(places, 0, sizeof places);
  uintptr_t stack_pointer = 0;
  int count = collect_frames(context, &stack_pointer);
  // The faulting address, for the signals that have one, last in the
  // table.
  int has_fault = info != NULL && info->si_code > 0 &&
                  (signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGFPE || signal == SIGTRAP);
  uintptr_t fault = has_fault ? (uintptr_t)info->si_addr : 0;
  located *faulting = &places[count];
  faulting->address = fault;
  faulting->lookup = fault;
  locate_all(count + (has_fault ? 1 : 0));
  if (has_fault) {
    // A fault beside the stack pointer is a push or a call that ran off
    // the end of the stack (the guard page below it).
    uintptr_t reach = 64 * 1024;
    int overflow = signal == SIGSEGV && stack_pointer != 0 && fault + reach >= stack_pointer && fault <= stack_pointer + reach;
    write_place(overflow ? 'o' : 'a', faulting, write_line);
  }
  for (int index = 0; index < count; index++) write_place('f', &places[index], write_line);
}
