#ifndef PLUGBOARD_STAGE_RECORD_H
#define PLUGBOARD_STAGE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Where the supervised child is in its bring-up, in memory it shares with
/// its parent (mapped shared before the fork, or from the launcher's memfd): the
/// child records each stage with a few stores and no system call, and the
/// parent reads the record when a stage's deadline comes or the child ends.
///
/// One writer (the child's main thread), one reader (the parent). Two slots
/// and a published count: the child fills the slot the parent is not
/// reading, then publishes it with one release store, so a child that dies
/// mid-write leaves the previous stage published, whole. The parent's
/// copy is checked against the count (a seqlock over the two slots) and
/// taken again if the child published twice while it copied.
///
/// The parent reads memory plugin code could scribble on: every field of
/// a snapshot is bounded (lengths within the capacities), nothing more is
/// trusted.
typedef struct plugboard_stage_record plugboard_stage_record;

/// The bytes of a plugin's name and of a file's path the record keeps; a
/// longer one is cut at a character boundary and ends with "…".
#define PLUGBOARD_STAGE_PLUGIN_CAPACITY 256
#define PLUGBOARD_STAGE_FILE_CAPACITY 1024

/// A copy of the record as the child last published it.
typedef struct {
  /// How many stages the child published; 0 before the first.
  uint64_t sequence;
  /// When the stage began, in nanoseconds of CLOCK_MONOTONIC (which both
  /// processes share).
  int64_t started;
  /// The caller's numbering of stages and phases.
  int32_t stage;
  int32_t phase;
  /// Bytes used of `plugin` and `file`; -1 when the stage has none.
  int32_t plugin_length;
  int32_t file_length;
  char plugin[PLUGBOARD_STAGE_PLUGIN_CAPACITY];
  char file[PLUGBOARD_STAGE_FILE_CAPACITY];
} plugboard_stage_snapshot;

/// A new, empty record in shared anonymous memory (one mmap), or NULL.
plugboard_stage_record *plugboard_stage_record_create(void);

/// The record in `fd`, the launcher's record file (see plugboard_launch.h),
/// mapped shared; NULL when it cannot be. `fd` may be closed afterwards.
plugboard_stage_record *plugboard_stage_record_map(int fd);

/// Unmaps `record`.
void plugboard_stage_record_destroy(plugboard_stage_record *record);

/// The child: a stage begins. `plugin_length` / `file_length` of -1 mean
/// none; longer than the capacity, the text is cut (see above). No system
/// call (the start time comes from the vDSO).
void plugboard_stage_record_publish(plugboard_stage_record *record, int32_t stage, int32_t phase,
                                    const char *plugin, ptrdiff_t plugin_length, const char *file,
                                    ptrdiff_t file_length);

/// The child: the same stage, plugin and file, in another phase.
void plugboard_stage_record_enter_phase(plugboard_stage_record *record, int32_t phase);

/// The first half of publish: fills the next slot without publishing it,
/// as a child that dies mid-write leaves it. For tests.
void plugboard_stage_record_prepare(plugboard_stage_record *record, int32_t stage, int32_t phase,
                                    const char *plugin, ptrdiff_t plugin_length, const char *file,
                                    ptrdiff_t file_length);

/// The parent: copies the published stage into `snapshot`. False only if
/// the child kept publishing faster than a copy takes, many times over.
bool plugboard_stage_record_read(const plugboard_stage_record *record, plugboard_stage_snapshot *snapshot);

/// The two halves of a read: a copy of the slot last published (texts
/// bounded), and whether it was still whole when the copy ended (false if
/// the child published twice meanwhile, the second time into that slot).
uint64_t plugboard_stage_record_copy(const plugboard_stage_record *record, plugboard_stage_snapshot *snapshot);
bool plugboard_stage_record_unchanged(const plugboard_stage_record *record, uint64_t sequence);

/// CLOCK_MONOTONIC, in nanoseconds.
int64_t plugboard_monotonic_now(void);

#endif
