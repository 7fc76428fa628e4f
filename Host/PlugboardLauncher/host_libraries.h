// The libraries plugboard-host maps, found as the dynamic loader finds
// them, each vetted as the host itself is before the host is started.
#ifndef PLUGBOARD_HOST_LIBRARIES_H
#define PLUGBOARD_HOST_LIBRARIES_H

#include "trust.h"

#include <sys/types.h>

// Walks the closure of the host open at `fd` (`size` bytes, at the
// canonical path `subject->path`, whose folder is its $ORIGIN) breadth
// first, as the loader searches: each object's DT_NEEDED names through
// that object's DT_RUNPATH (or DT_RPATH without one); a name found once is
// not searched again, and a name no run path folder holds is the system's.
// Every library found outside the system's folders must be trusted as a
// file, and every folder searched as a folder that adding a file to is
// enough. Closes `fd`. 1 when all pass; 0 with the refusal reported.
int host_libraries_vetted(int fd, off_t size, const trust_subject *subject);

#endif
