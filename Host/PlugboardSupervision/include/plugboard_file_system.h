#ifndef PLUGBOARD_FILE_SYSTEM_H
#define PLUGBOARD_FILE_SYSTEM_H

/// What kind of file system a folder lies on, which Swift's Glibc module
/// cannot say (`sys/vfs.h`, `statfs`, is not part of it). plugboard makes
/// its private folders, whose links every start makes and removes, on a
/// memory file system when one is there.

/// 1 when `path` lies on a memory file system (`tmpfs`), else 0 (also when
/// it cannot be examined).
int plugboard_is_memory_file_system(const char *path);

#endif
