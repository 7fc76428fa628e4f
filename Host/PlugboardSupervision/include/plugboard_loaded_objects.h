#ifndef PLUGBOARD_LOADED_OBJECTS_H
#define PLUGBOARD_LOADED_OBJECTS_H

/// The base address of the loaded object (the executable or a shared
/// library) that holds `address`, from the dynamic loader's own records
/// (`dladdr`), or NULL when no loaded object holds it. Two addresses with
/// the same base lie in the same object, whatever path it was opened by.
const void *plugboard_object_base(const void *address);

#endif
