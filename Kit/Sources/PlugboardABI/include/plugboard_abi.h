#ifndef PLUGBOARD_ABI_H
#define PLUGBOARD_ABI_H

#include <stdint.h>

/// The plugin ABI version this header describes. A plugin exports
/// `plugboard_entry_v1`; the number in the symbol is the ABI version, so a
/// host can tell "another ABI" from "not a plugin" before calling anything.
#define PLUGBOARD_ABI_VERSION 1

/// What a plugin tells the host before the host touches any Swift object of
/// it. Every field is plain C so that a plugin built by another compiler, or
/// against another SDK, can still be described and refused politely.
typedef struct plugboard_plugin_v1 {
  /// Must equal PLUGBOARD_ABI_VERSION (1).
  uint32_t abi_version;
  /// sizeof(plugboard_plugin_v1) as the plugin saw it.
  uint32_t struct_size;
  /// The plugin's name and version, UTF-8, NUL-terminated.
  const char *name;
  const char *version;
  /// The PlugboardKit version the plugin was compiled against.
  const char *kit_version;
  /// The Swift compiler version that compiled the plugin, e.g. "6.3.1".
  const char *swift_version;
  /// Opaque data for make_bundle.
  void *context;
  /// Returns a +1 retained Swift object (a PlugboardKit `PluginBundle`), or
  /// NULL. Called only after every version above has been checked, with
  /// this descriptor as its argument.
  void *(*make_bundle)(const struct plugboard_plugin_v1 *descriptor);
} plugboard_plugin_v1;

/// The signature of `plugboard_entry_v1`.
typedef const plugboard_plugin_v1 *(*plugboard_entry_v1_fn)(void);

#include "plugboard_runtime.h"
#include "plugboard_kept.h"

#endif
