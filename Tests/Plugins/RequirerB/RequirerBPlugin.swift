import PlugboardKit

/// A test-only plugin, version 2.0.0, that requires RequirerA 1.0.0..<2.0.0
/// (which the test can make require this one, for a cycle).
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(
    name: "RequirerB", version: "2.0.0", requires: [.plugin("RequirerA", "1.0.0"..<"2.0.0")]
  ) {
    []
  }
}
