// The loader model: how the dynamic loader reads an ELF file's dynamic
// section, which subfolders it searches first, and how a path's links are
// followed and judged. The static launcher and the engine both link it, so
// what one vets, the other vets the same way.
#ifndef PLUGBOARD_LOADER_MODEL_H
#define PLUGBOARD_LOADER_MODEL_H

#include "plugboard_elf_dynamic.h"
#include "plugboard_link_chase.h"
#include "plugboard_search_subfolders.h"

#endif
