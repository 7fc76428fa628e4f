import PlugboardKit

/// The entry point the host looks up; its name carries the plugin ABI version.
///
/// Deployed beside `Auth`; `plugins.json` loads it only in profile `mock`,
/// so configuration, not a rebuild, decides which one signs users in.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "AuthMock", version: "1.0.0") { [AuthMockAssembly()] }
}
