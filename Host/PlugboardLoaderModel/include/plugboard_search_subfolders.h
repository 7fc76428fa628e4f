// The subfolders the dynamic loader tries before each folder it searches
// for a library, one list for the launcher and the engine: a library in
// any of them wins over the folder's own, so each that exists must be as
// safe as the folder.
//
// - glibc-hwcaps/ and each folder in it (x86-64-v3 and the like), from
//   glibc 2.33 on;
// - below glibc 2.37, the legacy folders, nested up to three deep: tls/,
//   the platform (AT_PLATFORM, or what the loader makes of the processor:
//   x86_64, haswell, xeon_phi, aarch64) and the capability (avx512_1).
//   Which of them the running loader uses depends on the processor it
//   finds (`ld.so --help` lists them); every name any processor of the
//   architecture could make it use is taken, so no folder the loader
//   might search goes unjudged. Only those that exist are descended into,
//   so a folder without them costs one stat for each name.
#ifndef PLUGBOARD_SEARCH_SUBFOLDERS_H
#define PLUGBOARD_SEARCH_SUBFOLDERS_H

// Subfolders that exist in one folder: more means a folder no installation
// makes, refused rather than half vetted.
#define PLUGBOARD_SEARCH_SUBFOLDERS_MAX 16
#define PLUGBOARD_SEARCH_SUBFOLDER_NAME_MAX 64

typedef struct {
  // -1 when there were more than PLUGBOARD_SEARCH_SUBFOLDERS_MAX.
  int count;
  // Relative to the folder ("glibc-hwcaps/x86-64-v3", "tls/x86_64").
  char names[PLUGBOARD_SEARCH_SUBFOLDERS_MAX][PLUGBOARD_SEARCH_SUBFOLDER_NAME_MAX];
} plugboard_search_subfolders;

// The subfolders of `folder` that exist and that the loader may search
// first: glibc-hwcaps/ and each level in it, then the legacy ones (none
// from glibc 2.37 on). Each that exists is listed before those inside it.
void plugboard_search_subfolders_of(const char *folder, plugboard_search_subfolders *found);

// Whether the running C library still searches the legacy subfolders
// (glibc before 2.37), as confstr(_CS_GNU_LIBC_VERSION) reports it.
int plugboard_search_legacy_subfolders(void);

#endif
