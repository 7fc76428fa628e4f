// The storage of the kept-instance cache (plugboard_kept.h): zero, that is
// every entry empty, until Kit writes one. On whole cache lines, two
// entries each.
#include "plugboard_kept.h"

__attribute__((aligned(64))) uintptr_t plugboard_kept_words[1024 * 4];
