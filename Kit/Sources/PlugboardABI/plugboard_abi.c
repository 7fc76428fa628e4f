// The ABI is a header; this file exists because SwiftPM needs a source file
// for a C target.
#include "plugboard_abi.h"
