import PlugboardKit

/// The entry point the host looks up; its name carries the plugin ABI version.
/// The events it records are the sample application's, so it requires the
/// Shell of that application's 1.x line: the host assembles Shell first and
/// refuses Analytics beside another Shell.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(
    name: "Analytics", version: "2.4.0", requires: [.plugin("Shell", "1.0.0"..<"2.0.0")]
  ) {
    [AnalyticsAssembly()]
  }
}
