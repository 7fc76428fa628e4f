// The shared stage record (see plugboard_stage_record.h). Every access to
// shared memory is an __atomic operation on a 64-bit word: relaxed for the
// slots, release/acquire for the published count, so the seqlock is a
// well-defined C program and no torn slot is ever accepted.
#define _GNU_SOURCE
#include "plugboard_stage_record.h"
#include "plugboard_launch.h"

#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define PLUGIN_WORDS (PLUGBOARD_STAGE_PLUGIN_CAPACITY / 8)
#define FILE_WORDS (PLUGBOARD_STAGE_FILE_CAPACITY / 8)
#define READ_ATTEMPTS 64

// One stage, as 64-bit words: started; stage and phase; the two lengths;
// then the texts.
struct slot {
  uint64_t started;
  uint64_t stage_phase;
  uint64_t lengths;
  uint64_t plugin[PLUGIN_WORDS];
  uint64_t file[FILE_WORDS];
};

struct plugboard_stage_record {
  // Publications so far; publication n lives in slots[n & 1].
  uint64_t sequence;
  struct slot slots[2];
};

int64_t plugboard_monotonic_now(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

_Static_assert(sizeof(struct plugboard_stage_record) <= PLUGBOARD_STAGE_RECORD_BYTES,
               "the launcher's record file holds the record");

plugboard_stage_record *plugboard_stage_record_create(void) {
  void *memory = mmap(NULL, PLUGBOARD_STAGE_RECORD_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  return memory == MAP_FAILED ? NULL : memory;
}

plugboard_stage_record *plugboard_stage_record_map(int fd) {
  void *memory = mmap(NULL, PLUGBOARD_STAGE_RECORD_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return memory == MAP_FAILED ? NULL : memory;
}

void plugboard_stage_record_destroy(plugboard_stage_record *record) {
  if (record != NULL) munmap(record, PLUGBOARD_STAGE_RECORD_BYTES);
}

static void store_words(uint64_t *to, const uint64_t *from, size_t count) {
  for (size_t index = 0; index < count; index++) __atomic_store_n(&to[index], from[index], __ATOMIC_RELAXED);
}

static void load_words(uint64_t *to, const uint64_t *from, size_t count) {
  for (size_t index = 0; index < count; index++) to[index] = __atomic_load_n(&from[index], __ATOMIC_RELAXED);
}

static size_t words_for(int32_t length) { return length <= 0 ? 0 : ((size_t)length + 7) / 8; }

// `text` into `words` (capacity bytes); the bytes used, or -1 for none. Too
// long, it is cut before a UTF-8 continuation byte and marked with "…".
static int32_t fill_text(uint64_t *words, size_t capacity, const char *text, ptrdiff_t length) {
  if (text == NULL || length < 0) return -1;
  char *bytes = (char *)words;
  if ((size_t)length <= capacity) {
    memcpy(bytes, text, (size_t)length);
    memset(bytes + length, 0, words_for((int32_t)length) * 8 - (size_t)length);
    return (int32_t)length;
  }
  static const char mark[] = "\xE2\x80\xA6";
  size_t cut = capacity - (sizeof mark - 1);
  while (cut > 0 && ((unsigned char)text[cut] & 0xC0) == 0x80) cut--;
  memcpy(bytes, text, cut);
  memcpy(bytes + cut, mark, sizeof mark - 1);
  size_t used = cut + sizeof mark - 1;
  memset(bytes + used, 0, words_for((int32_t)used) * 8 - used);
  return (int32_t)(cut + sizeof mark - 1);
}

static void fill_slot(struct slot *slot, uint64_t started, int32_t stage, int32_t phase, const char *plugin,
                      ptrdiff_t plugin_length, const char *file, ptrdiff_t file_length) {
  int32_t plugin_used = fill_text(slot->plugin, PLUGBOARD_STAGE_PLUGIN_CAPACITY, plugin, plugin_length);
  int32_t file_used = fill_text(slot->file, PLUGBOARD_STAGE_FILE_CAPACITY, file, file_length);
  slot->started = started;
  slot->stage_phase = ((uint64_t)(uint32_t)stage << 32) | (uint32_t)phase;
  slot->lengths = ((uint64_t)(uint32_t)plugin_used << 32) | (uint32_t)file_used;
}

// The child's own copy goes to the shared slot word by word; only the
// words in use are copied.
static void write_next(plugboard_stage_record *record, const struct slot *local) {
  uint64_t next = __atomic_load_n(&record->sequence, __ATOMIC_RELAXED) + 1;
  struct slot *shared = &record->slots[next & 1];
  store_words(&shared->started, &local->started, 3);
  store_words(shared->plugin, local->plugin, words_for((int32_t)(local->lengths >> 32)));
  store_words(shared->file, local->file, words_for((int32_t)(uint32_t)local->lengths));
}

static void publish(plugboard_stage_record *record) {
  uint64_t next = __atomic_load_n(&record->sequence, __ATOMIC_RELAXED) + 1;
  __atomic_store_n(&record->sequence, next, __ATOMIC_RELEASE);
}

void plugboard_stage_record_prepare(plugboard_stage_record *record, int32_t stage, int32_t phase,
                                    const char *plugin, ptrdiff_t plugin_length, const char *file,
                                    ptrdiff_t file_length) {
  struct slot local;
  fill_slot(&local, (uint64_t)plugboard_monotonic_now(), stage, phase, plugin, plugin_length, file, file_length);
  write_next(record, &local);
}

void plugboard_stage_record_publish(plugboard_stage_record *record, int32_t stage, int32_t phase,
                                    const char *plugin, ptrdiff_t plugin_length, const char *file,
                                    ptrdiff_t file_length) {
  plugboard_stage_record_prepare(record, stage, phase, plugin, plugin_length, file, file_length);
  publish(record);
}

static int32_t bounded(int32_t length, int32_t capacity) {
  return length < 0 ? -1 : length > capacity ? capacity : length;
}

void plugboard_stage_record_enter_phase(plugboard_stage_record *record, int32_t phase) {
  // Only the child writes, so no publication races this read; but plugin
  // code runs in the child and may have scribbled over the slot, so its
  // lengths are bounded before they size a copy, as the parent's are.
  uint64_t sequence = __atomic_load_n(&record->sequence, __ATOMIC_RELAXED);
  struct slot local;
  if (sequence == 0) {
    fill_slot(&local, (uint64_t)plugboard_monotonic_now(), -1, phase, NULL, -1, NULL, -1);
  } else {
    const struct slot *current = &record->slots[sequence & 1];
    load_words(&local.started, &current->started, 3);
    int32_t plugin_length = bounded((int32_t)(local.lengths >> 32), PLUGBOARD_STAGE_PLUGIN_CAPACITY);
    int32_t file_length = bounded((int32_t)(uint32_t)local.lengths, PLUGBOARD_STAGE_FILE_CAPACITY);
    local.lengths = ((uint64_t)(uint32_t)plugin_length << 32) | (uint32_t)file_length;
    load_words(local.plugin, current->plugin, words_for(plugin_length));
    load_words(local.file, current->file, words_for(file_length));
    local.stage_phase = (local.stage_phase & ~(uint64_t)UINT32_MAX) | (uint32_t)phase;
  }
  write_next(record, &local);
  publish(record);
}

uint64_t plugboard_stage_record_copy(const plugboard_stage_record *record, plugboard_stage_snapshot *snapshot) {
  uint64_t sequence = __atomic_load_n(&record->sequence, __ATOMIC_ACQUIRE);
  struct slot local;
  const struct slot *shared = &record->slots[sequence & 1];
  load_words(&local.started, &shared->started, 3);
  int32_t plugin_length = bounded((int32_t)(local.lengths >> 32), PLUGBOARD_STAGE_PLUGIN_CAPACITY);
  int32_t file_length = bounded((int32_t)(uint32_t)local.lengths, PLUGBOARD_STAGE_FILE_CAPACITY);
  load_words(local.plugin, shared->plugin, words_for(plugin_length));
  load_words(local.file, shared->file, words_for(file_length));
  snapshot->sequence = sequence;
  snapshot->started = (int64_t)local.started;
  snapshot->stage = sequence == 0 ? -1 : (int32_t)(local.stage_phase >> 32);
  snapshot->phase = sequence == 0 ? 0 : (int32_t)(uint32_t)local.stage_phase;
  snapshot->plugin_length = sequence == 0 ? -1 : plugin_length;
  snapshot->file_length = sequence == 0 ? -1 : file_length;
  memcpy(snapshot->plugin, local.plugin, words_for(plugin_length) * 8);
  memcpy(snapshot->file, local.file, words_for(file_length) * 8);
  return sequence;
}

bool plugboard_stage_record_unchanged(const plugboard_stage_record *record, uint64_t sequence) {
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  // The slot of publication n is written again only for publication
  // n + 2: one publication meanwhile went to the other slot.
  uint64_t after = __atomic_load_n(&record->sequence, __ATOMIC_RELAXED);
  return after - sequence <= 1;
}

bool plugboard_stage_record_read(const plugboard_stage_record *record, plugboard_stage_snapshot *snapshot) {
  for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
    uint64_t sequence = plugboard_stage_record_copy(record, snapshot);
    if (plugboard_stage_record_unchanged(record, sequence)) return true;
  }
  return false;
}
